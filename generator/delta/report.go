package delta

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Heading is the report's first line, naming the two versions so a log
// shows which bump the report describes.
func (d *Delta) Heading() string {
	return fmt.Sprintf("ucpgen: what UCP %s -> %s brings:", d.From, d.To)
}

// Line renders one change as the report prints it: a sign (+ added,
// - removed, ~ changed), what and which, the detail, and a [breaking] mark.
func (c Change) Line() string {
	var b strings.Builder
	b.WriteString(c.Op.sign() + " " + c.Kind)
	if c.Subject != "" {
		b.WriteString(" " + c.Subject)
	}
	if c.Detail != "" {
		b.WriteString(": " + c.Detail)
	}
	if c.Breaking {
		b.WriteString(" [breaking]")
	}
	return b.String()
}

// Summary is the report's last line, how many changes and how many of
// them breaking, so a long report ends with its verdict.
func (d *Delta) Summary() string {
	n := 0
	for _, c := range d.Changes {
		if c.Breaking {
			n++
		}
	}
	changes := count(len(d.Changes), "change")
	if n == 0 {
		return changes + ", none breaking"
	}
	return fmt.Sprintf("%s, %d breaking", changes, n)
}

// WriteText writes the report for a reader: the heading, one indented line
// per change in a stable order, and the summary. An empty delta writes
// nothing, since there is nothing the bump brings.
func (d *Delta) WriteText(w io.Writer) error {
	if d.Empty() {
		return nil
	}
	var b strings.Builder
	b.WriteString(d.Heading() + "\n")
	for _, c := range d.Changes {
		b.WriteString("  " + c.Line() + "\n")
	}
	b.WriteString("  " + d.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonReport is the machine-readable form of a Delta: the changes with the
// verdict, so a script need not scan them for it.
type jsonReport struct {
	From     string   `json:"from"`
	To       string   `json:"to"`
	Breaking bool     `json:"breaking"`
	Changes  []Change `json:"changes"`
}

// WriteJSON writes the delta as indented JSON, for scripts and CI steps
// that act on the changes rather than read them.
func (d *Delta) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(jsonReport{From: d.From, To: d.To, Breaking: d.Breaking(), Changes: d.Changes}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the delta: %w", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
