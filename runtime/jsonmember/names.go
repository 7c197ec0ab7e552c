package jsonmember

import "slices"

// Names is the set of member names a walk has seen, to find a repeated
// one. A request's objects have a handful of members, so it holds them in
// a list, without allocating, until an object brings many; then in a map,
// so that no body makes the search quadratic. The zero value is empty.
type Names struct {
	few  [8]string
	n    int
	many map[string]bool
}

// Add records name and reports whether it was already there.
func (s *Names) Add(name string) (repeated bool) {
	if s.many != nil {
		repeated = s.many[name]
		s.many[name] = true
		return repeated
	}
	if slices.Contains(s.few[:s.n], name) {
		return true
	}
	if s.n < len(s.few) {
		s.few[s.n] = name
		s.n++
		return false
	}
	s.many = make(map[string]bool, 4*len(s.few))
	for _, k := range s.few {
		s.many[k] = true
	}
	s.many[name] = true
	return false
}
