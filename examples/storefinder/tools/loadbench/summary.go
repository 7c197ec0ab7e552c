package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ucpgen/ucpgen/internal/runstat"
)

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
	return runstat.Summarize(r.vals[col]).Format(t.figures[col].format)
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
			line = append(line, runstat.Summarize(r.vals[i]).Format(f.format))
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
