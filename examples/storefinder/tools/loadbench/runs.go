package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ucpgen/ucpgen/internal/runstat"
)

// runOptions repeat a whole measurement (-runs), each run with fresh server
// processes, so that every figure loadbench prints is a min / median / max
// with the load average of its runs beside it.
type runOptions struct {
	runs     int
	markdown bool
	every    time.Duration
	// before is a shell command run before each run, untimed: a PostGIS
	// load run needs an empty database every time.
	before string
}

// addRunFlags registers -runs, -markdown and -loadavg-every on fs.
func addRunFlags(fs *flag.FlagSet, o *runOptions) {
	fs.IntVar(&o.runs, "runs", 3, "repeat the whole measurement this many times, each with fresh server processes, and print min / median / max of every figure (latency mix, -loaders, -throughput, -rest, -postgres)")
	fs.BoolVar(&o.markdown, "markdown", false, "print the tables as Markdown, ready for docs/benchmarks.md")
	fs.DurationVar(&o.every, "loadavg-every", 5*time.Second, "how often to sample /proc/loadavg during each run")
	fs.StringVar(&o.before, "before-run", "", "shell command (sh -c) to run before each run, untimed, such as emptying the database for a -postgres load")
}

func (o runOptions) check() error {
	if o.runs < 1 {
		return fmt.Errorf("-runs: %d: must be at least 1", o.runs)
	}
	if o.every <= 0 {
		return fmt.Errorf("-loadavg-every: %s: must be positive", o.every)
	}
	return nil
}

// runLog repeats measurements and keeps the load average seen in each run.
type runLog struct {
	opt      runOptions
	progress io.Writer
	lines    [][]string
	all      runstat.LoadRange
}

// repeat calls one once per run, sampling the load average meanwhile.
func (l *runLog) repeat(label string, one func(run int) error) error {
	for i := range l.opt.runs {
		fmt.Fprintf(l.progress, "loadbench: %s, run %d of %d\n", label, i+1, l.opt.runs)
		if l.opt.before != "" {
			cmd := exec.Command("sh", "-c", l.opt.before)
			cmd.Stdout, cmd.Stderr = l.progress, l.progress
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("%s, run %d: -before-run: %w", label, i+1, err)
			}
		}
		s := runstat.SampleLoad(runstat.ReadLoadavg, l.opt.every)
		t0 := time.Now()
		err := one(i)
		r := runstat.RangeOf(s.Stop())
		if err != nil {
			return fmt.Errorf("%s, run %d: %w", label, i+1, err)
		}
		l.all = l.all.Merge(r)
		l.lines = append(l.lines, []string{label, strconv.Itoa(i + 1), time.Since(t0).Round(time.Second).String(), r.String(), strconv.Itoa(r.Samples)})
	}
	return nil
}

// render prints the load average of every run and over all of them.
func (l *runLog) render(w io.Writer) error {
	lines := append([][]string{{"measurement", "run", "wall", "1-min load average (min-max)", "samples"}}, l.lines...)
	title := fmt.Sprintf("Load average during the runs (sampled every %s): %s overall", l.opt.every, l.all)
	return renderLines(w, title, lines, l.opt.markdown)
}

func sizeLabel(n int) string {
	if n == 0 {
		return "default"
	}
	return strconv.Itoa(n)
}

// runLatency times the query mix at every size, -runs times, each run on a
// fresh server (and, with -brute, its own brute-force baseline, so the
// ratio is taken inside the run).
func runLatency(out io.Writer, c config, bin, dir string) error {
	source := "memory"
	if c.postgres != "" {
		source = "postgis"
	}
	fmt.Fprintf(out, "source: %s; %d runs, each on a fresh server; %d timed requests per query after %d warm-up; one request in flight\n", source, c.run.runs, c.reps, c.warmup)
	// p50 and p99 are timed by a go-sdk client session; http p50 and p99
	// by a plain HTTP client (plainCall), the same calls interleaved.
	figs := []figure{{"p50", fmtDurFig}, {"p99", fmtDurFig}, {"http p50", fmtDurFig}, {"http p99", fmtDurFig}}
	if c.brute {
		figs = append(figs, figure{"brute p50", fmtDurFig}, figure{"p50 / brute", fmtRatioFig})
	}
	lat := newRunTable("Latency, min / median / max over runs (ratios taken per run)", []string{"N", "query"}, figs...)
	start := newRunTable("Start-up, min / median / max over runs", []string{"N"}, figure{"start-up", fmtSecFig}, figure{"server CPU", fmtSecFig}, figure{"peak RSS", fmtMBFig})
	log := &runLog{opt: c.run, progress: os.Stderr}
	for _, n := range c.sizes {
		data := ""
		if n > 0 {
			data = filepath.Join(dir, fmt.Sprintf("stores-%d.json", n))
			if err := writeDataset(data, n); err != nil {
				return err
			}
		}
		label := sizeLabel(n)
		err := log.repeat("N="+label, func(int) error {
			res, err := measure(c, bin, data)
			if err != nil {
				return err
			}
			var brute map[string]time.Duration
			if c.brute {
				if brute, err = bruteForce(data, c.reps); err != nil {
					return fmt.Errorf("brute force: %w", err)
				}
			}
			for _, q := range queryMix {
				key := []string{label, q.name}
				p50 := percentile(res.lat[q.name], 50)
				lat.add(key, "p50", float64(p50))
				lat.add(key, "p99", float64(percentile(res.lat[q.name], 99)))
				lat.add(key, "http p50", float64(percentile(res.latHTTP[q.name], 50)))
				lat.add(key, "http p99", float64(percentile(res.latHTTP[q.name], 99)))
				if c.brute {
					lat.add(key, "brute p50", float64(brute[q.name]))
					lat.add(key, "p50 / brute", runstat.Ratio(float64(p50), float64(brute[q.name])))
				}
			}
			start.add([]string{label}, "start-up", float64(res.startup))
			start.add([]string{label}, "server CPU", float64(res.startCPU))
			start.add([]string{label}, "peak RSS", float64(res.peakRSSKB))
			return nil
		})
		if err != nil {
			return err
		}
	}
	return renderAll(out, log, lat, start)
}

func renderAll(out io.Writer, log *runLog, tables ...*runTable) error {
	for _, t := range tables {
		if err := t.render(out, log.opt.markdown); err != nil {
			return err
		}
	}
	return log.render(out)
}

// compareLoadersRuns loads every generated size with every loader in a
// process of its own, -runs times.
func compareLoadersRuns(out io.Writer, c config, dir string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	t := newRunTable("Loaders, min / median / max over runs", []string{"N", "loader"}, figure{"load + index wall", fmtSecFig}, figure{"CPU", fmtSecFig}, figure{"peak RSS", fmtMBFig})
	log := &runLog{opt: c.run, progress: os.Stderr}
	for _, n := range c.sizes {
		if n == 0 {
			continue
		}
		path := filepath.Join(dir, fmt.Sprintf("stores-%d.json", n))
		if err := writeDataset(path, n); err != nil {
			return err
		}
		err := log.repeat("loaders N="+sizeLabel(n), func(int) error {
			for k, l := range loaders {
				wall, cpu, rss, err := loadInChild(self, k, path)
				if err != nil {
					return fmt.Errorf("size %d, %s: %w", n, l.name, err)
				}
				key := []string{sizeLabel(n), l.name}
				t.add(key, "load + index wall", float64(wall))
				t.add(key, "CPU", float64(cpu))
				t.add(key, "peak RSS", float64(rss))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return renderAll(out, log, t)
}

// runThroughputRuns repeats the throughput run (and -rest), each run with
// fresh servers, and prints one table per load client kind.
func runThroughputRuns(out io.Writer, c config, bin string) error {
	log := &runLog{opt: c.run, progress: os.Stderr}
	tables := map[string]*runTable{}
	var order []*runTable
	restT := newRunTable("REST, http load clients, same store finder process; min / median / max over runs (ratios per run)", []string{"clients"},
		figure{"REST req/s", fmtRateFig}, figure{"direct MCP req/s", fmtRateFig}, figure{"go-sdk floor req/s", fmtRateFig},
		figure{"REST / direct MCP", fmtRatioFig}, figure{"REST / floor", fmtRatioFig})
	var sizes string
	err := log.repeat("throughput", func(int) error {
		res, err := runThroughput(bin, c.clients, c.clientKinds, c.duration, c.extra, c.rest)
		if err != nil {
			return err
		}
		sizes = fmt.Sprintf("small floor result %d bytes; storefinder result %d bytes", res.floorBytes, res.answerBytes)
		for _, r := range res.rows {
			t, ok := tables[r.kind]
			if !ok {
				t = newRunTable("load clients: "+r.kind+"; min / median / max over runs (ratios per run)", []string{"clients"},
					figure{"storefinder req/s", fmtRateFig}, figure{"go-sdk floor req/s", fmtRateFig}, figure{"storefinder / floor", fmtPercentFig},
					figure{"floor, same payload, req/s", fmtRateFig}, figure{"storefinder / same-payload floor", fmtPercentFig},
					figure{"storefinder via the SDK req/s", fmtRateFig}, figure{"direct / via SDK", fmtRatioFig},
					figure{"payload ceiling req/s", fmtRateFig}, figure{"storefinder / ceiling", fmtPercentFig}, figure{"ceiling / floor", fmtPercentFig},
					figure{"storefinder CPU µs/call", fmtRateFig}, figure{"ceiling CPU µs/call", fmtRateFig})
				tables[r.kind] = t
				order = append(order, t)
			}
			key := []string{strconv.Itoa(r.clients)}
			t.add(key, "storefinder req/s", r.direct)
			t.add(key, "go-sdk floor req/s", r.floor)
			t.add(key, "storefinder / floor", runstat.Ratio(r.direct, r.floor))
			t.add(key, "floor, same payload, req/s", r.sameFloor)
			t.add(key, "storefinder / same-payload floor", runstat.Ratio(r.direct, r.sameFloor))
			t.add(key, "storefinder via the SDK req/s", r.viaSDK)
			t.add(key, "direct / via SDK", runstat.Ratio(r.direct, r.viaSDK))
			t.add(key, "payload ceiling req/s", r.ceiling)
			t.add(key, "storefinder / ceiling", runstat.Ratio(r.direct, r.ceiling))
			t.add(key, "ceiling / floor", runstat.Ratio(r.ceiling, r.floor))
			t.add(key, "storefinder CPU µs/call", r.directCPU)
			t.add(key, "ceiling CPU µs/call", r.ceilingCPU)
			if c.rest && r.kind == "http" {
				restT.add(key, "REST req/s", r.rest)
				restT.add(key, "direct MCP req/s", r.direct)
				restT.add(key, "go-sdk floor req/s", r.floor)
				restT.add(key, "REST / direct MCP", runstat.Ratio(r.rest, r.direct))
				restT.add(key, "REST / floor", runstat.Ratio(r.rest, r.floor))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s; %d runs, each with fresh servers; %s per measurement\n", sizes, c.run.runs, c.duration)
	if c.rest {
		order = append(order, restT)
	}
	return renderAll(out, log, order...)
}
