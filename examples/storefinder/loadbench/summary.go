package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// summary is one figure over repeated runs: what docs/benchmarks.md
// prints for every claim, so that a single lucky or unlucky run cannot
// pass for the figure.
type summary struct {
	min, median, max float64
	n                int
}

// summarize returns the min, median and max of xs, skipping NaN (a run
// that could not produce the figure, such as a ratio over a zero). The
// median of an even count is the mean of the two middle values.
func summarize(xs []float64) summary {
	s := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	if len(s) == 0 {
		return summary{min: math.NaN(), median: math.NaN(), max: math.NaN()}
	}
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return summary{min: s[0], median: m, max: s[len(s)-1], n: len(s)}
}

// ratio is num/den of one run, NaN when the baseline is missing or zero,
// so that a ratio is always taken inside a run and summarised afterwards
// (the median of the ratios, not the ratio of the medians).
func ratio(num, den float64) float64 {
	if den == 0 || math.IsNaN(den) || math.IsNaN(num) {
		return math.NaN()
	}
	return num / den
}

// format prints the summary as "min / median / max" with f, or the one
// value when there was one run.
func (s summary) format(f func(float64) string) string {
	switch {
	case s.n == 0:
		return "-"
	case s.n == 1:
		return f(s.median)
	}
	return f(s.min) + " / " + f(s.median) + " / " + f(s.max)
}

// figure is one measured column of a runTable and how its values print.
type figure struct {
	name   string
	format func(float64) string
}

// Value formats for figures.
func fmtDurFig(ns float64) string    { return fmtDur(time.Duration(ns)) }
func fmtSecFig(ns float64) string    { return fmt.Sprintf("%.2f s", ns/1e9) }
func fmtMBFig(kib float64) string    { return fmt.Sprintf("%.0f MB", kib/1024) }
func fmtRateFig(v float64) string    { return fmt.Sprintf("%.0f", v) }
func fmtRatioFig(v float64) string   { return fmt.Sprintf("%.3gx", v) }
func fmtPercentFig(v float64) string { return fmt.Sprintf("%.0f%%", 100*v) }

// runTable collects the figures of repeated runs, one value per cell and
// run, and prints every cell as min / median / max. Rows keep the order in
// which they were first added.
type runTable struct {
	title   string
	keys    []string
	figures []figure
	order   []string
	rows    map[string]*tableRow
}

type tableRow struct {
	key  []string
	vals [][]float64 // per figure, one value per run
}

func newRunTable(title string, keys []string, figures ...figure) *runTable {
	return &runTable{title: title, keys: keys, figures: figures, rows: map[string]*tableRow{}}
}

// add records one run's value of figure fig in the row named by key.
func (t *runTable) add(key []string, fig string, v float64) {
	col := slices.IndexFunc(t.figures, func(f figure) bool { return f.name == fig })
	if col < 0 {
		panic("loadbench: table " + t.title + " has no figure " + fig)
	}
	id := strings.Join(key, "\x00")
	r, ok := t.rows[id]
	if !ok {
		r = &tableRow{key: slices.Clone(key), vals: make([][]float64, len(t.figures))}
		t.rows[id] = r
		t.order = append(t.order, id)
	}
	r.vals[col] = append(r.vals[col], v)
}

// cell is the printed summary of one figure in one row.
func (t *runTable) cell(key []string, fig string) string {
	r, ok := t.rows[strings.Join(key, "\x00")]
	col := slices.IndexFunc(t.figures, func(f figure) bool { return f.name == fig })
	if !ok || col < 0 {
		return "-"
	}
	return summarize(r.vals[col]).format(t.figures[col].format)
}

// render writes the table as Markdown (for docs/benchmarks.md) or as
// aligned plain text.
func (t *runTable) render(w io.Writer, markdown bool) error {
	header := slices.Clone(t.keys)
	for _, f := range t.figures {
		header = append(header, f.name)
	}
	lines := [][]string{header}
	for _, id := range t.order {
		r := t.rows[id]
		line := slices.Clone(r.key)
		for i, f := range t.figures {
			line = append(line, summarize(r.vals[i]).format(f.format))
		}
		lines = append(lines, line)
	}
	return renderLines(w, t.title, lines, markdown)
}

// renderLines writes a title and a header plus rows, as Markdown or aligned.
func renderLines(w io.Writer, title string, lines [][]string, markdown bool) error {
	if title != "" {
		if _, err := fmt.Fprintf(w, "\n%s\n\n", title); err != nil {
			return err
		}
	}
	if markdown {
		for i, l := range lines {
			if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(l, " | ")); err != nil {
				return err
			}
			if i == 0 {
				if _, err := fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", len(l))); err != nil {
					return err
				}
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, l := range lines {
		if _, err := fmt.Fprintln(tw, strings.Join(l, "\t")); err != nil {
			return err
		}
	}
	return tw.Flush()
}
