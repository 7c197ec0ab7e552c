package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/ucpgen/ucpgen/runtime/sources/dataset"
	"github.com/ucpgen/ucpgen/runtime/sources/memory"
)

// loaders are the ways to load a --data file into a memory.Source: read the
// whole file then Parse, the streaming ParseFile (both keep every
// Location's text in memory), and OpenFile + NewFile, which main.go uses
// and which leaves the Locations in the file.
var loaders = []struct {
	name string
	load func(path string) (*memory.Source, error)
}{
	{"read whole + Parse", func(path string) (*memory.Source, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		recs, err := dataset.Parse(b)
		if err != nil {
			return nil, err
		}
		return memory.New(recs, memory.Options{})
	}},
	{"ParseFile (streamed)", func(path string) (*memory.Source, error) {
		recs, err := dataset.ParseFile(path)
		if err != nil {
			return nil, err
		}
		return memory.New(recs, memory.Options{})
	}},
	{"OpenFile + NewFile (file-backed)", func(path string) (*memory.Source, error) {
		df, err := dataset.OpenFile(path)
		if err != nil {
			return nil, err
		}
		return memory.NewFile(df, memory.Options{})
	}},
}

// childFlag makes the binary load one dataset with one loader and report,
// so each measurement has a process (and a peak RSS) of its own.
const childFlag = "-loadbench-child"

// runChild loads path with loader k into a memory.Source and prints wall
// time, CPU time and peak RSS on one line.
func runChild(args []string, out io.Writer) error {
	if len(args) != 2 {
		return fmt.Errorf("%s: want a loader number and a path", childFlag)
	}
	var k int
	if _, err := fmt.Sscan(args[0], &k); err != nil || k < 0 || k >= len(loaders) {
		return fmt.Errorf("%s: bad loader %q", childFlag, args[0])
	}
	t0 := time.Now()
	src, err := loaders[k].load(args[1])
	if err != nil {
		return err
	}
	wall := time.Since(t0)
	_ = src
	fmt.Fprintf(out, "%d %d %d\n", wall, cpuTime(os.Getpid()), peakRSS(os.Getpid()))
	return nil
}

// loadInChild loads path with loader k in a child process of its own and
// returns its wall and CPU time and peak RSS (KiB); compareLoadersRuns
// (runs.go) repeats and summarises it.
func loadInChild(self string, k int, path string) (wall, cpu time.Duration, rss int64, err error) {
	cmd := exec.Command(self, childFlag, fmt.Sprint(k), path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, 0, 0, fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	if _, err := fmt.Sscan(stdout.String(), &wall, &cpu, &rss); err != nil {
		return 0, 0, 0, fmt.Errorf("unreadable report %q", stdout.String())
	}
	return wall, cpu, rss, nil
}
