package main

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ucpgen/ucpgen/internal/storegen"

	"github.com/ucpgen/ucpgen/internal/runstat"
)

// The -startup mode: the in-memory store finder's
// start-up on a generated --data file, beside the time encoding/json takes
// to decode the same file into generic values (var v any; json.Unmarshal),
// measured in the same run in a process of its own, so the ratio does not
// depend on how busy the machine is.
var (
	startupMode bool
	// startupSnapshot makes every -startup run a start that builds and
	// writes a --snapshot file, then a start that opens it.
	startupSnapshot bool
	// datasetShape is the record shape of every generated dataset (-shape).
	datasetShape = storegen.Full
)

// addStartupFlags registers -startup and -shape on fs.
func addStartupFlags(fs *flag.FlagSet) {
	fs.BoolVar(&startupMode, "startup", false, "instead of the latency table: start the in-memory storefinder on each generated dataset (-n) until /.well-known/ucp answers, and time encoding/json decoding the same file into generic values in a process of its own, -runs times; prints both, their peak RSS and the ratio")
	fs.BoolVar(&startupSnapshot, "startup-snapshot", false, "with -startup: start with --snapshot, first without the snapshot file (build from --data and write it), then again from it; prints both start-ups against encoding/json")
	fs.Func("shape", "record shape of the generated datasets: full (storegen's, about 1.85 KB a store) or light (the \"synthetic\" file, about 860 bytes a store; see internal/storegen.Light)", func(s string) error {
		switch s {
		case "full":
			datasetShape = storegen.Full
		case "light":
			datasetShape = storegen.Light
		default:
			return fmt.Errorf("%q is neither full nor light", s)
		}
		return nil
	})
}

// generate writes n stores of the selected shape to w.
func generate(w io.Writer, n int) error {
	return storegen.GenerateShapeTo(w, storegen.DefaultSeed, n, datasetShape)
}

func shapeName() string {
	if datasetShape == storegen.Light {
		return "light"
	}
	return "full"
}

// jsonChildFlag makes the binary decode one file with encoding/json and
// report, so the baseline has a process (and a peak RSS) of its own.
const jsonChildFlag = "-loadbench-json-child"

// runJSONChild reads path and decodes it into generic values, then prints
// wall time (read included), CPU time and peak RSS on one line.
func runJSONChild(args []string, out io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("%s: want a path", jsonChildFlag)
	}
	t0 := time.Now()
	b, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	wall := time.Since(t0)
	if a, ok := v.([]any); !ok || len(a) == 0 {
		return fmt.Errorf("%s: not a non-empty array", args[0])
	}
	fmt.Fprintf(out, "%d %d %d\n", wall, cpuTime(os.Getpid()), peakRSS(os.Getpid()))
	return nil
}

// jsonInChild runs the encoding/json baseline on path in a child process.
func jsonInChild(self, path string) (wall, cpu time.Duration, rssKB int64, err error) {
	cmd := exec.Command(self, jsonChildFlag, path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, 0, 0, fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	if _, err := fmt.Sscan(stdout.String(), &wall, &cpu, &rssKB); err != nil {
		return 0, 0, 0, fmt.Errorf("unreadable report %q", stdout.String())
	}
	return wall, cpu, rssKB, nil
}

// runStartup measures start-up against the encoding/json baseline at every
// size, -runs times; each run starts a fresh server and a fresh child.
func runStartup(out io.Writer, c config, bin, dir string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "in-memory start-up on a generated --data file (shape %s) until /.well-known/ucp answers, beside encoding/json decoding the same file into generic values (read included) in a process of its own; %d runs\n", shapeName(), c.run.runs)
	// With -startup-snapshot the first start is the build, which writes
	// the snapshot once it serves (its CPU and peak RSS are read after the
	// write, which they include), and a second start opens it.
	figs := []figure{{"start-up", fmtSecFig}, {"server CPU", fmtSecFig}, {"server peak RSS", fmtMBFig},
		{"json decode", fmtSecFig}, {"json CPU", fmtSecFig}, {"json peak RSS", fmtMBFig},
		{"start-up / json", fmtRatioFig}}
	if startupSnapshot {
		figs[0].name, figs[6].name = "build (ready)", "build / json"
		figs = append(figs, figure{"snapshot written", fmtSecFig}, figure{"from snapshot", fmtSecFig}, figure{"snapshot CPU", fmtSecFig},
			figure{"snapshot peak RSS", fmtMBFig}, figure{"snapshot / json", fmtRatioFig})
	}
	t := newRunTable("Start-up against encoding/json, min / median / max over runs (ratio taken per run)", []string{"N", "shape"}, figs...)
	log := &runLog{opt: c.run, progress: os.Stderr}
	// The snapshot key: one random key for the whole run, readable by this
	// user only, as --snapshot-key requires.
	snapKey := filepath.Join(dir, "snapshot.key")
	if startupSnapshot {
		raw := make([]byte, 32)
		if _, err := rand.Read(raw); err != nil {
			return err
		}
		if err := os.WriteFile(snapKey, []byte(base64.StdEncoding.EncodeToString(raw)), 0o600); err != nil {
			return err
		}
	}
	for _, n := range c.sizes {
		if n == 0 {
			continue
		}
		path := filepath.Join(dir, fmt.Sprintf("stores-%s-%d.json", shapeName(), n))
		if err := writeDataset(path, n); err != nil {
			return err
		}
		key := []string{sizeLabel(n), shapeName()}
		snap := path + ".snapshot"
		// start runs the server once and returns its start-up, CPU and peak
		// RSS; with writes, also when the snapshot it writes once it serves
		// was in place (the CPU and RSS are then read after it).
		start := func(writes bool, extra ...string) (up, written, cpu time.Duration, rss int64, err error) {
			addr, err := freeAddr()
			if err != nil {
				return 0, 0, 0, 0, err
			}
			t0 := time.Now()
			stop, pid, err := startServer(bin, append(append([]string{"--addr", addr, "--data", path}, extra...), c.extra...), "http://"+addr, c.startMax)
			if err != nil {
				return 0, 0, 0, 0, err
			}
			defer stop()
			up = time.Since(t0)
			if writes {
				// The snapshot is renamed into place whole, so its name
				// appears once it is written.
				for _, err := os.Stat(snap); err != nil; _, err = os.Stat(snap) {
					if !os.IsNotExist(err) || time.Since(t0) > c.startMax {
						return 0, 0, 0, 0, fmt.Errorf("the start with --snapshot wrote no snapshot: %v", err)
					}
					time.Sleep(20 * time.Millisecond)
				}
				written = time.Since(t0)
			}
			cpu, rss = cpuTime(pid), peakRSS(pid)
			return up, written, cpu, rss, nil
		}
		err := log.repeat("startup N="+sizeLabel(n), func(int) error {
			var first []string
			if startupSnapshot {
				if err := os.Remove(snap); err != nil && !os.IsNotExist(err) {
					return err
				}
				first = []string{"--snapshot", snap, "--snapshot-key", snapKey}
			}
			up, written, cpu, rss, err := start(startupSnapshot, first...)
			if err != nil {
				return err
			}
			jwall, jcpu, jrss, err := jsonInChild(self, path)
			if err != nil {
				return fmt.Errorf("encoding/json baseline: %w", err)
			}
			t.add(key, figs[0].name, float64(up))
			t.add(key, "server CPU", float64(cpu))
			t.add(key, "server peak RSS", float64(rss))
			t.add(key, "json decode", float64(jwall))
			t.add(key, "json CPU", float64(jcpu))
			t.add(key, "json peak RSS", float64(jrss))
			t.add(key, figs[6].name, runstat.Ratio(float64(up), float64(jwall)))
			if !startupSnapshot {
				return nil
			}
			t.add(key, "snapshot written", float64(written))
			up, _, cpu, rss, err = start(false, first...)
			if err != nil {
				return err
			}
			t.add(key, "from snapshot", float64(up))
			t.add(key, "snapshot CPU", float64(cpu))
			t.add(key, "snapshot peak RSS", float64(rss))
			t.add(key, "snapshot / json", runstat.Ratio(float64(up), float64(jwall)))
			return nil
		})
		if err != nil {
			return err
		}
	}
	return renderAll(out, log, t)
}
