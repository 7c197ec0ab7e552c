package schemacheck

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"
)

// Matcher is a compiled schema pattern. UCP's patterns are small and
// anchored, so Pattern turns them into a deterministic automaton that reads
// each input rune once; a pattern the automaton cannot express (word
// boundaries, case folding, too many states) keeps Go's regexp.
type Matcher struct {
	re  *regexp.Regexp
	dfa *dfa
}

// MatchString reports whether s contains a match, as regexp.MatchString.
func (m *Matcher) MatchString(s string) bool {
	if m.dfa != nil {
		return m.dfa.match(s)
	}
	return m.re.MatchString(s)
}

// String is the Go form of the pattern.
func (m *Matcher) String() string { return m.re.String() }

// maxDFAStates bounds subset construction; beyond it the regexp is kept.
const maxDFAStates = 512

// dfa is a subset-construction automaton over rune classes. State 0 is the
// start (position 0); every state already includes the unanchored restart,
// so the automaton decides "contains a match" in one left-to-right pass.
type dfa struct {
	ascii  [utf8.RuneSelf]uint16
	bounds []rune // class i covers [bounds[i], bounds[i+1]) above ASCII too
	nclass int
	next   []int32 // state*nclass+class; -1 is the dead state
	accept []bool  // a match ends here: the input contains a match
	atEnd  []bool  // a match ends here if the input ends here
}

func (d *dfa) classOf(r rune) int {
	return sort.Search(len(d.bounds)-1, func(i int) bool { return d.bounds[i+1] > r })
}

func (d *dfa) match(s string) bool {
	st := int32(0)
	if d.accept[0] {
		return true
	}
	for i := 0; i < len(s); {
		var cls int
		if c := s[i]; c < utf8.RuneSelf {
			cls = int(d.ascii[c])
			i++
		} else {
			r, n := utf8.DecodeRuneInString(s[i:])
			cls = d.classOf(r)
			i += n
		}
		st = d.next[int(st)*d.nclass+cls]
		if st < 0 {
			return false
		}
		if d.accept[st] {
			return true
		}
	}
	return d.atEnd[st]
}

// buildDFA compiles a Go-syntax pattern, or returns nil when it uses what
// the automaton does not model.
func buildDFA(pattern string) *dfa {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil
	}
	b := dfaBuilder{prog: prog, index: map[string]int32{}}
	if !b.classes() {
		return nil
	}
	return b.build()
}

type dfaBuilder struct {
	prog   *syntax.Prog
	d      dfa
	reps   []rune // one representative rune per class
	states [][]uint32
	index  map[string]int32
}

// classes partitions the rune space at every range boundary the program
// mentions, so all runes of one class behave the same in every instruction.
func (b *dfaBuilder) classes() bool {
	cuts := map[rune]bool{0: true, utf8.MaxRune + 1: true}
	for _, in := range b.prog.Inst {
		switch in.Op {
		case syntax.InstRune, syntax.InstRune1:
			rs := in.Rune
			if in.Op == syntax.InstRune1 || len(rs) == 1 {
				rs = []rune{rs[0], rs[0]}
				if syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
					// [Zz] parses as a case-folded z: every rune of the
					// fold orbit needs its own boundaries.
					for f := unicode.SimpleFold(in.Rune[0]); f != in.Rune[0]; f = unicode.SimpleFold(f) {
						rs = append(rs, f, f)
					}
				}
			}
			for i := 0; i+1 < len(rs); i += 2 {
				cuts[rs[i]] = true
				cuts[rs[i+1]+1] = true
			}
		case syntax.InstRuneAnyNotNL:
			cuts['\n'] = true
			cuts['\n'+1] = true
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&^(syntax.EmptyBeginText|syntax.EmptyEndText) != 0 {
				return false
			}
		}
	}
	for r := range cuts {
		b.d.bounds = append(b.d.bounds, r)
	}
	slices.Sort(b.d.bounds)
	b.d.nclass = len(b.d.bounds) - 1
	if b.d.nclass > 0xffff {
		return false
	}
	b.reps = b.d.bounds[:b.d.nclass]
	for c := rune(0); c < utf8.RuneSelf; c++ {
		b.d.ascii[c] = uint16(b.d.classOf(c))
	}
	return true
}

// closure adds pc and everything reachable from it without reading a rune.
// Begin-of-text assertions pass only at position 0; end-of-text assertions
// stay in the set, to be resolved when the input ends.
func (b *dfaBuilder) closure(set map[uint32]bool, pc uint32, atStart, atEnd bool) {
	if set[pc] {
		return
	}
	in := &b.prog.Inst[pc]
	if in.Op == syntax.InstEmptyWidth && syntax.EmptyOp(in.Arg)&syntax.EmptyBeginText != 0 && !atStart {
		return // can never hold again: not even a pending member
	}
	set[pc] = true
	switch in.Op {
	case syntax.InstAlt, syntax.InstAltMatch:
		b.closure(set, in.Out, atStart, atEnd)
		b.closure(set, in.Arg, atStart, atEnd)
	case syntax.InstCapture, syntax.InstNop:
		b.closure(set, in.Out, atStart, atEnd)
	case syntax.InstEmptyWidth:
		if syntax.EmptyOp(in.Arg)&syntax.EmptyEndText != 0 && !atEnd {
			return
		}
		b.closure(set, in.Out, atStart, atEnd)
	}
}

func (b *dfaBuilder) state(set map[uint32]bool, initial bool) int32 {
	pcs := make([]uint32, 0, len(set))
	for pc := range set {
		pcs = append(pcs, pc)
	}
	slices.Sort(pcs)
	key := make([]byte, 0, 4*len(pcs)+1)
	if initial {
		// The start state resolves begin-of-text assertions; a later set
		// with the same members must not share its identity.
		key = append(key, 'S')
	}
	for _, pc := range pcs {
		key = append(key, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	if id, ok := b.index[string(key)]; ok {
		return id
	}
	id := int32(len(b.states))
	b.index[string(key)] = id
	b.states = append(b.states, pcs)
	return id
}

func (b *dfaBuilder) has(pcs []uint32, op syntax.InstOp) bool {
	for _, pc := range pcs {
		if b.prog.Inst[pc].Op == op {
			return true
		}
	}
	return false
}

// acceptsAtEnd reports whether resolving the pending end-of-text assertions
// of a state reaches a match.
func (b *dfaBuilder) acceptsAtEnd(pcs []uint32, atStart bool) bool {
	set := map[uint32]bool{}
	for _, pc := range pcs {
		b.closure(set, pc, atStart, true)
	}
	for pc := range set {
		if b.prog.Inst[pc].Op == syntax.InstMatch {
			return true
		}
	}
	return false
}

func (b *dfaBuilder) build() *dfa {
	start := uint32(b.prog.Start)
	first := map[uint32]bool{}
	b.closure(first, start, true, false)
	b.state(first, true)
	restart := map[uint32]bool{}
	b.closure(restart, start, false, false)
	for s := 0; s < len(b.states); s++ {
		if len(b.states) > maxDFAStates {
			return nil
		}
		pcs := b.states[s]
		b.d.accept = append(b.d.accept, b.has(pcs, syntax.InstMatch))
		b.d.atEnd = append(b.d.atEnd, b.acceptsAtEnd(pcs, s == 0))
		for _, r := range b.reps {
			next := map[uint32]bool{}
			for _, pc := range pcs {
				in := &b.prog.Inst[pc]
				switch in.Op {
				case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
					if in.MatchRune(r) {
						b.closure(next, in.Out, false, false)
					}
				}
			}
			for pc := range restart {
				next[pc] = true
			}
			id := int32(-1)
			if b.live(next) {
				id = b.state(next, false)
			}
			b.d.next = append(b.d.next, id)
		}
	}
	return &b.d
}

// live reports whether a set can still lead to a match: it reads a rune,
// matches, or waits on an end-of-text assertion.
func (b *dfaBuilder) live(set map[uint32]bool) bool {
	for pc := range set {
		switch b.prog.Inst[pc].Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL, syntax.InstMatch, syntax.InstEmptyWidth:
			return true
		}
	}
	return false
}
