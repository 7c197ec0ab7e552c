package unidiff

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestDiffExact(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"one line changed in the middle",
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n",
			"--- old\n+++ new\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n"},
		{"line appended",
			"a\nb\n", "a\nb\nc\n",
			"--- old\n+++ new\n@@ -1,2 +1,3 @@\n a\n b\n+c\n"},
		{"from empty",
			"", "x\n",
			"--- old\n+++ new\n@@ -0,0 +1 @@\n+x\n"},
		{"missing final newline",
			"a\nb", "a\nb\n",
			"--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"two distant changes make two hunks",
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\nY\n",
			"--- old\n+++ new\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+Y\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Diff("old", "new", []byte(tc.old), []byte(tc.new)); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// apply rebuilds the new text from old and a diff, checking every context
// and removed line against old, so a wrong hunk header or line fails.
func apply(t *testing.T, old, diff string) string {
	t.Helper()
	a := lines(old)
	var out []string
	pos := 0
	dl := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	for k := 2; k < len(dl); k++ {
		l := dl[k]
		if strings.HasPrefix(l, "@@") {
			f := strings.Fields(l)
			start, _ := strconv.Atoi(strings.Split(strings.TrimPrefix(f[1], "-"), ",")[0])
			if strings.HasSuffix(f[1], ",0") {
				start++
			}
			for pos < start-1 {
				out = append(out, a[pos])
				pos++
			}
			continue
		}
		text := l[1:]
		if k+1 < len(dl) && strings.HasPrefix(dl[k+1], `\`) {
			text += "\n" + dl[k+1]
			k++
		}
		switch l[0] {
		case ' ', '-':
			if pos >= len(a) || a[pos] != text {
				t.Fatalf("line %d: diff says %q, old has %q\n%s", pos+1, text, a[min(pos, len(a)-1)], diff)
			}
			if l[0] == ' ' {
				out = append(out, text)
			}
			pos++
		case '+':
			out = append(out, text)
		default:
			t.Fatalf("bad diff line %q", l)
		}
	}
	out = append(out, a[pos:]...)
	s := strings.Join(out, "\n")
	if s != "" && !strings.HasSuffix(s, "\\ No newline at end of file") {
		s += "\n"
	}
	return strings.ReplaceAll(s, "\n\\ No newline at end of file", "")
}

func TestDiffAppliesBack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		var a []string
		for j := r.IntN(40); j > 0; j-- {
			a = append(a, fmt.Sprint(r.IntN(6)))
		}
		b := append([]string(nil), a...)
		for k := r.IntN(5); k > 0; k-- {
			switch p := r.IntN(len(b) + 1); r.IntN(3) {
			case 0:
				b = append(b[:p], append([]string{"new" + fmt.Sprint(k)}, b[p:]...)...)
			case 1:
				if p < len(b) {
					b = append(b[:p], b[p+1:]...)
				}
			default:
				if p < len(b) {
					b[p] = "chg"
				}
			}
		}
		old, new := join(a), join(b)
		d := Diff("a", "b", []byte(old), []byte(new))
		if old == new {
			if d != "" {
				t.Fatalf("equal texts gave a diff:\n%s", d)
			}
			continue
		}
		if got := apply(t, old, d); got != new {
			t.Fatalf("case %d: applying the diff gave %q, want %q\n%s", i, got, new, d)
		}
	}
}

func join(l []string) string {
	if len(l) == 0 {
		return ""
	}
	return strings.Join(l, "\n") + "\n"
}

func TestTruncate(t *testing.T) {
	d := "1\n2\n3\n4\n5\n"
	if got := Truncate(d, 5); got != d {
		t.Errorf("no cut needed: %q", got)
	}
	if got, want := Truncate(d, 2), "1\n2\n... 3 more lines\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestDiffLargeMiddleStaysCorrect(t *testing.T) {
	var a, b []string
	for i := 0; i < 3000; i++ {
		a = append(a, fmt.Sprint("a", i))
		b = append(b, fmt.Sprint("b", i))
	}
	old, new := join(a), join(b)
	if got := apply(t, old, Diff("a", "b", []byte(old), []byte(new))); got != new {
		t.Fatal("coarse diff of a large middle does not apply")
	}
}

// TestDiffFirstAndLastLineOfLargeFile is the common stale case (a new
// version in the header and a change far below it): prefix and suffix
// trimming alone would leave the whole file as the middle.
func TestDiffFirstAndLastLineOfLargeFile(t *testing.T) {
	var a []string
	for i := 0; i < 20000; i++ {
		a = append(a, fmt.Sprint("line ", i))
	}
	b := append([]string(nil), a...)
	b[0] = "header v2"
	b[len(b)-1] = "last changed"
	b = append(b[:10000], append([]string{"inserted"}, b[10000:]...)...)
	old, new := join(a), join(b)
	d := Diff("a", "b", []byte(old), []byte(new))
	if got := strings.Count(d, "\n@@ -"); got != 3 {
		t.Errorf("want 3 hunks, got %d:\n%s", got, d)
	}
	if n := strings.Count(d, "\n"); n > 40 {
		t.Errorf("diff of three one-line edits is %d lines:\n%s", n, d)
	}
	if got := apply(t, old, d); got != new {
		t.Fatal("diff does not apply")
	}
}
