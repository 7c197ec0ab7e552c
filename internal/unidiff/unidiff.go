// Package unidiff renders the difference between two texts as a unified
// diff, so `ucpgen generate --check` can show what is stale instead of only
// naming the file. It needs no external diff program.
package unidiff

import (
	"fmt"
	"strings"
)

// maxEdits bounds the edit distance (in lines) the diff searches for; the
// search keeps about maxEdits² integers. Beyond it the changed middle is
// shown as one replacement, which is still a correct diff, only a coarser one.
const maxEdits = 2048

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
// a shortest edit script of the middle (Myers' algorithm), so a file whose
// first and last lines both changed still gets a small diff.
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
	if mid, ok := myers(ma, mb); ok {
		ops = append(ops, mid...)
	} else {
		for _, s := range ma {
			ops = append(ops, op{'-', s})
		}
		for _, s := range mb {
			ops = append(ops, op{'+', s})
		}
	}
	for _, s := range a[len(a)-suf:] {
		ops = append(ops, op{' ', s})
	}
	return ops
}

// myers returns a shortest edit script from a to b, or false when it needs
// more than maxEdits insertions and deletions.
func myers(a, b []string) ([]op, bool) {
	n, m := len(a), len(b)
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int, 2*limit+3) // v[off+k]: furthest x on diagonal k
	// trace[d] is v for diagonals -d-1..d+1 before round d, for backtracking.
	var trace [][]int
	found := false
	for d := 0; d <= limit && !found; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // step down: insert b[y]
			} else {
				x = v[off+k-1] + 1 // step right: delete a[x]
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	if !found {
		return nil, false
	}
	// Walk back from (n, m), collecting the script in reverse.
	var rev []op
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		tv := trace[d]
		at := func(k int) int { return tv[k+d+1] }
		k := x - y
		var prevK int
		if k == -d || k != d && at(k-1) < at(k+1) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		if d == 0 {
			prevX, prevY = 0, 0
		}
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, op{' ', a[x]})
		}
		if d > 0 {
			if x == prevX {
				rev = append(rev, op{'+', b[prevY]})
			} else {
				rev = append(rev, op{'-', a[prevX]})
			}
		}
		x, y = prevX, prevY
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev, true
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
