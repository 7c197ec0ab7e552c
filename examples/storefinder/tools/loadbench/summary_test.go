package main

import (
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/runstat"
)

// TestRunTableRatiosPerRun checks that a ratio cell summarises the ratios
// of each run, not the ratio of the summarised columns: with these runs
// the median ratio (2) differs from median/median (20/15 = 1.33).
func TestRunTableRatiosPerRun(t *testing.T) {
	runs := []struct{ sf, floor float64 }{{10, 5}, {20, 40}, {90, 15}}
	tb := newRunTable("t", []string{"clients"}, figure{"sf", fmtRateFig}, figure{"floor", fmtRateFig}, figure{"sf / floor", fmtRatioFig})
	for _, r := range runs {
		key := []string{"8"}
		tb.add(key, "sf", r.sf)
		tb.add(key, "floor", r.floor)
		tb.add(key, "sf / floor", runstat.Ratio(r.sf, r.floor))
	}
	for _, tc := range []struct{ fig, want string }{
		{"sf", "10 / 20 / 90"},
		{"floor", "5 / 15 / 40"},
		{"sf / floor", "0.5x / 2x / 6x"},
	} {
		if got := tb.cell([]string{"8"}, tc.fig); got != tc.want {
			t.Errorf("cell %q = %q, want %q", tc.fig, got, tc.want)
		}
	}
	if got := tb.cell([]string{"64"}, "sf"); got != "-" {
		t.Errorf("cell of a row never added = %q, want -", got)
	}
}

func TestRunTableRender(t *testing.T) {
	tb := newRunTable("Latency", []string{"N", "query"}, figure{"p50", fmtDurFig}, figure{"peak RSS", fmtMBFig})
	for _, v := range []float64{3e6, 1e6, 2e6} {
		tb.add([]string{"default", "10 km"}, "p50", v)
	}
	tb.add([]string{"default", "10 km"}, "peak RSS", 2048)
	tb.add([]string{"100000", "browse"}, "p50", 500e3)
	for _, tc := range []struct {
		name     string
		markdown bool
		want     []string
	}{
		{"markdown", true, []string{
			"| N | query | p50 | peak RSS |",
			"|---|---|---|---|",
			"| default | 10 km | 1.00 ms / 2.00 ms / 3.00 ms | 2 MB |",
			"| 100000 | browse | 500 µs | - |",
		}},
		{"plain", false, []string{
			"N        query   p50                          peak RSS",
			"default  10 km   1.00 ms / 2.00 ms / 3.00 ms  2 MB",
			"100000   browse  500 µs                       -",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := tb.render(&b, tc.markdown); err != nil {
				t.Fatal(err)
			}
			want := "\nLatency\n\n" + strings.Join(tc.want, "\n") + "\n"
			if b.String() != want {
				t.Errorf("render:\n%s\nwant:\n%s", b.String(), want)
			}
		})
	}
}

func TestRunTableUnknownFigurePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("add of an undeclared figure did not panic")
		}
	}()
	newRunTable("t", []string{"k"}, figure{"a", fmtRateFig}).add([]string{"x"}, "b", 1)
}
