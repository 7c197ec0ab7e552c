// Package unidiff renders the difference between two texts as a unified
// diff, so `ucpgen generate --check` can show what is stale instead of only
// naming the file. It needs no external diff program.
package unidiff

import (
	"fmt"
	"strings"
)

// maxCells bounds the LCS table (lines after trimming the common prefix and
// suffix, old times new); beyond it the changed middle is shown as one
// replacement, which is still a correct diff, only a coarser one.
const maxCells = 4 << 20

// context is the number of unchanged lines shown around each change.
const context = 3

type op struct {
	kind byte // ' ', '-', '+'
	text string
}

// Diff returns a unified diff from old to new labelled with the two names,
// or "" when the texts are equal.
func Diff(oldName, newName string, old, new []byte) string {
	if string(old) == string(new) {
		return ""
	}
	a, b := lines(string(old)), lines(string(new))
	ops := edits(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	// Walk the edit script, cutting it into hunks of changes with context.
	i := 0
	for i < len(ops) {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		oldLine, newLine := 1, 1
		for _, o := range ops[:start] {
			if o.kind != '+' {
				oldLine++
			}
			if o.kind != '-' {
				newLine++
			}
		}
		oldN, newN := 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				oldN++
			}
			if o.kind != '-' {
				newN++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", span(oldLine, oldN), span(newLine, newN))
		for _, o := range ops[start:end] {
			out.WriteByte(o.kind)
			out.WriteString(o.text)
			out.WriteByte('\n')
		}
		i = end
	}
	return out.String()
}

// span formats a hunk range; an empty range names the line before it.
func span(line, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", line-1)
	}
	if n == 1 {
		return fmt.Sprint(line)
	}
	return fmt.Sprintf("%d,%d", line, n)
}

// lines splits text into lines; a missing final newline is marked the way
// diff(1) marks it, so a changed last byte is visible.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	l := strings.Split(s, "\n")
	if l[len(l)-1] == "" {
		return l[:len(l)-1]
	}
	l[len(l)-1] += "\n\\ No newline at end of file"
	return l
}

// edits computes an edit script from a to b: common prefix and suffix, and
// a longest-common-subsequence alignment of the middle when it is small.
func edits(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for _, s := range a[:pre] {
		ops = append(ops, op{' ', s})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)*len(mb) > maxCells {
		for _, s := range ma {
			ops = append(ops, op{'-', s})
		}
		for _, s := range mb {
			ops = append(ops, op{'+', s})
		}
	} else {
		ops = append(ops, lcs(ma, mb)...)
	}
	for _, s := range a[len(a)-suf:] {
		ops = append(ops, op{' ', s})
	}
	return ops
}

// lcs aligns a and b by dynamic programming over suffixes.
func lcs(a, b []string) []op {
	n, m := len(a), len(b)
	w := m + 1
	t := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i*w+j] = t[(i+1)*w+j+1] + 1
			} else {
				t[i*w+j] = max(t[(i+1)*w+j], t[i*w+j+1])
			}
		}
	}
	var ops []op
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			ops = append(ops, op{' ', a[i]})
			i++
			j++
		case t[(i+1)*w+j] >= t[i*w+j+1]:
			ops = append(ops, op{'-', a[i]})
			i++
		default:
			ops = append(ops, op{'+', b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		ops = append(ops, op{'-', a[i]})
	}
	for ; j < m; j++ {
		ops = append(ops, op{'+', b[j]})
	}
	return ops
}

// Truncate keeps the first n lines of a diff and replaces the rest with one
// "... N more lines" line, so a badly stale file cannot flood a CI log.
func Truncate(diff string, n int) string {
	l := strings.SplitAfter(diff, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	if len(l) <= n {
		return diff
	}
	return strings.Join(l[:n], "") + fmt.Sprintf("... %d more lines\n", len(l)-n)
}
