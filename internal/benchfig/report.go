package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/ucpgen/ucpgen/internal/runstat"
)

// perRunRatios divides run k of num by run k of den, for as many runs as
// both have: the ratio is taken inside a run, then summarised.
func perRunRatios(num, den []result, unit string) []float64 {
	out := make([]float64, 0, min(len(num), len(den)))
	for k := range min(len(num), len(den)) {
		a, okA := num[k].vals[unit]
		b, okB := den[k].vals[unit]
		if !okA || !okB || b == 0 {
			out = append(out, math.NaN())
			continue
		}
		out = append(out, a/b)
	}
	return out
}

func fmtNs(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.3g s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.3g ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3g µs", ns/1e3)
	}
	return fmt.Sprintf("%.3g ns", ns)
}

func fmtRatio(v float64) string { return fmt.Sprintf("%.3gx", v) }

func fmtCount(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// report prints one table per package: time, ratio to baseline, and the
// median B/op and allocs/op (which do not depend on load), then the load.
func report(w io.Writer, s benchSet, o options) error {
	var names []string
	byName := map[string]string{}
	for _, id := range s.order {
		_, n, _ := strings.Cut(id, "\x00")
		names = append(names, n)
		byName[n] = id
	}
	pkg := "\x01"
	runs := 0
	for _, id := range s.order {
		runs = max(runs, len(s.runs[id]))
	}
	fmt.Fprintf(w, "%d runs; min / median / max; ratios taken per run\n", runs)
	for _, id := range s.order {
		p, name, _ := strings.Cut(id, "\x00")
		if p != pkg {
			pkg = p
			fmt.Fprintf(w, "\n%s\n\n| benchmark | time/op | baseline | ratio to baseline | B/op | allocs/op |\n|---|---|---|---|---|---|\n", p)
		}
		rs := s.runs[id]
		col := func(unit string) []float64 {
			var v []float64
			for _, r := range rs {
				if x, ok := r.vals[unit]; ok {
					v = append(v, x)
				}
			}
			return v
		}
		base, ratio := "-", "-"
		if b := baselineOf(name, names, o.base, o.rename); b != "" {
			if bid, ok := byName[b]; ok {
				base = b[strings.LastIndexByte(b, '/')+1:]
				ratio = runstat.Summarize(perRunRatios(rs, s.runs[bid], "ns/op")).Format(fmtRatio)
			}
		}
		bop, allocs := "-", "-"
		if v := col("B/op"); len(v) > 0 {
			bop = fmtCount(runstat.Summarize(v).Median)
		}
		if v := col("allocs/op"); len(v) > 0 {
			allocs = fmtCount(runstat.Summarize(v).Median)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", name, runstat.Summarize(col("ns/op")).Format(fmtNs), base, ratio, bop, allocs)
	}
	if len(s.load) > 0 {
		l := runstat.Summarize(s.load)
		fmt.Fprintf(w, "\n1-minute load average during the runs: %.2f-%.2f (%d samples)\n", l.Min, l.Max, l.N)
	} else {
		fmt.Fprintln(w, "\n1-minute load average: not recorded")
	}
	return nil
}
