package main

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/runstat"
)

const sample = `goos: linux
pkg: example.com/p
BenchmarkCursor/baseline=hmac-2   	   15918	      1000 ns/op	     512 B/op	       6 allocs/op
BenchmarkCursor/sign-2            	   35620	      3000 ns/op	     768 B/op	      11 allocs/op
    bench_test.go:12: a log line
2.00 1.50 1.00 3/120 4567
BenchmarkCursor/baseline=hmac-2   	   15918	      2000 ns/op	     512 B/op	       6 allocs/op
BenchmarkCursor/sign-2            	   35620	      2000 ns/op	     768 B/op	      11 allocs/op
loadavg-1min: 7.5
BenchmarkCursor/baseline=hmac-2   	   15918	      4000 ns/op	     512 B/op	       6 allocs/op
BenchmarkCursor/sign-2            	   35620	      4000 ns/op	     768 B/op	      11 allocs/op
PASS
`

func TestParse(t *testing.T) {
	s, err := parse(sample)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.order) != 2 || len(s.runs["example.com/p\x00BenchmarkCursor/sign"]) != 3 {
		t.Fatalf("order %q, runs %v", s.order, s.runs)
	}
	if got := s.runs["example.com/p\x00BenchmarkCursor/sign"][0].vals["allocs/op"]; got != 11 {
		t.Errorf("allocs/op = %v, want 11", got)
	}
	if len(s.load) != 2 || s.load[0] != 2 || s.load[1] != 7.5 {
		t.Errorf("load = %v, want [2 7.5]", s.load)
	}
	for _, bad := range []string{"", "PASS\n", "BenchmarkX-2 10 abc ns/op\n", "BenchmarkX-2 10 5 B/op\n"} {
		if _, err := parse(bad); err == nil {
			t.Errorf("parse(%q): no error", bad)
		}
	}
}

func TestBaselineOf(t *testing.T) {
	names := []string{"B/baseline=x", "B/a", "B/10km/baseline=scan", "B/10km/index", "U/hashed/1000", "U/pairwise/1000", "HaversineLocal", "DistanceLocal"}
	rename := []renameRule{{regexp.MustCompile(`^U/hashed/`), "U/pairwise/"}}
	for _, tc := range []struct {
		name, base, want string
	}{
		{"B/a", "^baseline=", "B/baseline=x"},
		{"B/baseline=x", "^baseline=", ""},
		{"B/10km/index", "^baseline=", "B/10km/baseline=scan"},
		{"U/hashed/1000", "^baseline=", "U/pairwise/1000"},
		{"U/pairwise/1000", "^baseline=", ""},
		{"DistanceLocal", "^HaversineLocal$", "HaversineLocal"},
	} {
		if got := baselineOf(tc.name, names, regexp.MustCompile(tc.base), rename); got != tc.want {
			t.Errorf("baselineOf(%q, %q) = %q, want %q", tc.name, tc.base, got, tc.want)
		}
	}
}

func TestSummaryAndPerRunRatios(t *testing.T) {
	mk := func(ns ...float64) []result {
		var rs []result
		for _, v := range ns {
			rs = append(rs, result{vals: map[string]float64{"ns/op": v}})
		}
		return rs
	}
	for _, tc := range []struct {
		name     string
		num, den []result
		want     runstat.Summary
	}{
		// Median of per-run ratios (1) is not median/median (3000/2000).
		{"per run", mk(3000, 2000, 4000), mk(1000, 2000, 4000), runstat.Summary{Min: 1, Median: 1, Max: 3, N: 3}},
		{"shorter baseline", mk(2, 4, 6), mk(1, 1), runstat.Summary{Min: 2, Median: 3, Max: 4, N: 2}},
		{"zero baseline skipped", mk(2, 4), mk(0, 2), runstat.Summary{Min: 2, Median: 2, Max: 2, N: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := runstat.Summarize(perRunRatios(tc.num, tc.den, "ns/op")); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	if s := runstat.Summarize([]float64{math.NaN()}); s.N != 0 || s.Format(fmtNs) != "-" {
		t.Errorf("all-NaN summary = %+v", s)
	}
}

func TestReport(t *testing.T) {
	s, err := parse(sample)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := report(&b, s, options{base: regexp.MustCompile("^baseline=")}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"3 runs;",
		"| BenchmarkCursor/sign | 2 µs / 3 µs / 4 µs | baseline=hmac | 1x / 1x / 3x | 768 | 11 |",
		"load average during the runs: 2.00-7.50 (2 samples)",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}
