// Command benchfig turns repeated `go test -bench` runs into the figures
// docs/benchmarks.md prints: per benchmark the min / median / max of its
// time, its ratio to a named baseline taken inside each run and then
// summarised, and the 1-minute load average seen during the runs.
//
// It either runs the benchmarks itself, one process per run so that every
// benchmark of a run sees the same moment of a shared machine:
//
//	go run ./internal/benchfig -runs 5 -bench . -benchtime 200ms ./runtime/domain/pagination/
//
// or reads saved output (runs told apart by the order in which a name
// repeats; /proc/loadavg lines in the input count as load samples):
//
//	go run ./internal/benchfig bench.txt
//
// A benchmark's baseline is the sibling (same parent name) whose last
// element matches -base (default ^baseline=), or the name -rename makes
// of it (REGEXP=REPLACEMENT, as regexp.ReplaceAllString).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/ucpgen/ucpgen/internal/runstat"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "benchfig:", err)
		os.Exit(1)
	}
}

type options struct {
	runs      int
	bench     string
	benchtime string
	base      *regexp.Regexp
	rename    []renameRule
	every     time.Duration
	raw       string
}

type renameRule struct {
	re   *regexp.Regexp
	repl string
}

type renameFlag struct{ rules *[]renameRule }

func (f renameFlag) String() string { return "" }

func (f renameFlag) Set(s string) error {
	from, to, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("%q: want REGEXP=REPLACEMENT", s)
	}
	re, err := regexp.Compile(from)
	if err != nil {
		return err
	}
	*f.rules = append(*f.rules, renameRule{re, to})
	return nil
}

func run(args []string, out, progress io.Writer) error {
	var o options
	fs := flag.NewFlagSet("benchfig", flag.ContinueOnError)
	fs.IntVar(&o.runs, "runs", 5, "with a package: test binary runs, one process each")
	fs.StringVar(&o.bench, "bench", ".", "with a package: -test.bench pattern")
	fs.StringVar(&o.benchtime, "benchtime", "200ms", "with a package: -test.benchtime")
	base := fs.String("base", "^baseline=", "a benchmark's baseline is the sibling whose last name element matches this")
	fs.Var(renameFlag{&o.rename}, "rename", "REGEXP=REPLACEMENT turning a benchmark's name into its baseline's (repeatable; before -base)")
	fs.DurationVar(&o.every, "loadavg-every", 2*time.Second, "with a package: how often to sample /proc/loadavg")
	fs.StringVar(&o.raw, "raw", "", "with a package: also save the runs' output (with load samples) to this file, for a later summary")
	if err := fs.Parse(args); err != nil {
		return err
	}
	re, err := regexp.Compile(*base)
	if err != nil {
		return fmt.Errorf("-base: %w", err)
	}
	o.base = re
	if fs.NArg() != 1 {
		return errors.New("want one package (./dir/) or one saved output file")
	}
	arg := fs.Arg(0)
	var text string
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		if o.runs < 1 {
			return fmt.Errorf("-runs: %d: must be at least 1", o.runs)
		}
		text, err = runPackage(arg, o, progress)
		if err != nil {
			return err
		}
		if o.raw != "" {
			if err := os.WriteFile(o.raw, []byte(text), 0o644); err != nil {
				return err
			}
		}
	} else {
		b, err := os.ReadFile(arg)
		if err != nil {
			return err
		}
		text = string(b)
	}
	set, err := parse(text)
	if err != nil {
		return err
	}
	return report(out, set, o)
}

// runPackage builds the package's test binary once and runs it o.runs
// times in the package folder, as go test would, returning the output of
// every run with load samples between and during them.
func runPackage(dir string, o options, progress io.Writer) (string, error) {
	tmp, err := os.MkdirTemp("", "benchfig-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "bench.test")
	build := exec.Command("go", "test", "-c", "-o", bin, "./"+filepath.Clean(dir))
	build.Stdout, build.Stderr = progress, progress
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("build the test binary of %s: %w", dir, err)
	}
	var all strings.Builder
	for i := range o.runs {
		fmt.Fprintf(progress, "benchfig: %s, run %d of %d\n", dir, i+1, o.runs)
		s := runstat.SampleLoad(runstat.ReadLoadavg, o.every)
		cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", o.bench, "-test.benchmem", "-test.benchtime", o.benchtime, "-test.count", "1")
		cmd.Dir = dir
		cmd.Stderr = progress
		b, err := cmd.Output()
		samples := s.Stop()
		if err != nil {
			return "", fmt.Errorf("run %d: %w\n%s", i+1, err, b)
		}
		all.Write(b)
		for _, v := range samples {
			fmt.Fprintf(&all, "loadavg-1min: %.2f\n", v)
		}
	}
	return all.String(), nil
}
