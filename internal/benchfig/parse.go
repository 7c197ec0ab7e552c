package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// result is one benchmark line: its name without the -GOMAXPROCS suffix
// and its per-op values by unit.
type result struct {
	pkg, name string
	vals      map[string]float64
}

// benchSet is a parsed output: every benchmark's results in run order,
// the names in first-seen order, and the load samples.
type benchSet struct {
	order []string // pkg + "\x00" + name
	runs  map[string][]result
	load  []float64
}

var (
	procSuffix = regexp.MustCompile(`-\d+$`)
	// /proc/loadavg as cat prints it, or the line runPackage writes.
	loadavgLine = regexp.MustCompile(`^(\d+\.\d+) \d+\.\d+ \d+\.\d+ \d+/\d+ \d+$`)
	ownLoadLine = regexp.MustCompile(`^loadavg-1min: (\d+(?:\.\d+)?)$`)
)

// parse reads go test -bench output. A benchmark's k-th line is its k-th run.
func parse(text string) (benchSet, error) {
	s := benchSet{runs: map[string][]result{}}
	pkg := ""
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if m := loadavgLine.FindStringSubmatch(line); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			s.load = append(s.load, v)
			continue
		}
		if m := ownLoadLine.FindStringSubmatch(line); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			s.load = append(s.load, v)
			continue
		}
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = p
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || len(f)%2 != 0 {
			continue // a benchmark's own log line, not a result
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue
		}
		r := result{pkg: pkg, name: procSuffix.ReplaceAllString(f[0], ""), vals: map[string]float64{}}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return s, fmt.Errorf("line %d: %q: value %q is not a number", n+1, line, f[i])
			}
			r.vals[f[i+1]] = v
		}
		if _, ok := r.vals["ns/op"]; !ok {
			return s, fmt.Errorf("line %d: %q: no ns/op", n+1, line)
		}
		id := pkg + "\x00" + r.name
		if _, ok := s.runs[id]; !ok {
			s.order = append(s.order, id)
		}
		s.runs[id] = append(s.runs[id], r)
	}
	if len(s.order) == 0 {
		return s, fmt.Errorf("no benchmark results in the input")
	}
	return s, nil
}

// baselineOf names the baseline of a benchmark: a -rename rule's result,
// else the sibling whose last element matches base; "" when there is none
// or the benchmark is a baseline itself.
func baselineOf(name string, names []string, base *regexp.Regexp, rename []renameRule) string {
	for _, r := range rename {
		if r.re.MatchString(name) {
			b := r.re.ReplaceAllString(name, r.repl)
			if b != name {
				return b
			}
		}
	}
	parent, last := "", name
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		parent, last = name[:i+1], name[i+1:]
	}
	if base.MatchString(last) {
		return ""
	}
	for _, n := range names {
		p, l := "", n
		if i := strings.LastIndexByte(n, '/'); i >= 0 {
			p, l = n[:i+1], n[i+1:]
		}
		if p == parent && n != name && base.MatchString(l) {
			return n
		}
	}
	return ""
}
