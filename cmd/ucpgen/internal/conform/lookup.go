package conform

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// maxLookupIDs bounds the ids of the batch-limit question.
const maxLookupIDs = 100

// unknownID is an id no Business has.
const unknownID = "ucpgen-conform-no-such-location"

// lookupAnswer is one lookup as the lookup checks read it.
type lookupAnswer struct {
	page *page
	// resolved maps each request id to the Locations whose inputs hold it.
	resolved map[string][]string
}

// lookup sends ids and judges what every lookup answer must be: each
// Location once, each with inputs that copy request ids exactly, once.
func (s *session) lookup(label string, ids []string, extra obj, inputs *Check) (lookupAnswer, error) {
	req := obj{"ids": ids}
	for k, v := range extra {
		req[k] = v
	}
	rep, p, err := s.call(opLookup, req, label)
	if err != nil || p == nil {
		if err == nil {
			inputs.failf("%s: refused: %s", label, describe(rep))
		}
		return lookupAnswer{}, err
	}
	a := lookupAnswer{page: p, resolved: map[string][]string{}}
	sent := map[string]bool{}
	for _, id := range ids {
		sent[id] = true
	}
	seen := map[string]bool{}
	for _, l := range p.Locations {
		if seen[l.ID] {
			inputs.failf("%s: Location %s is returned twice; one resolved by several ids is returned once with all their inputs", label, l.ID)
		}
		seen[l.ID] = true
		if len(l.Inputs) == 0 {
			inputs.failf("%s: Location %s has no inputs", label, l.ID)
		}
		dup := map[string]bool{}
		for _, in := range l.Inputs {
			if !sent[in] {
				inputs.failf("%s: Location %s has input %q, which is not a request id byte for byte", label, l.ID, in)
			}
			if dup[in] {
				inputs.failf("%s: Location %s lists input %q twice; ids are deduplicated first", label, l.ID, in)
			}
			dup[in] = true
			a.resolved[in] = append(a.resolved[in], l.ID)
		}
	}
	return a, nil
}

// knownIDs are the ids seen so far, the neighbourhood's first.
func (s *session) knownIDs() []string {
	var out []string
	have := map[string]bool{}
	for _, l := range s.near.locs {
		out = append(out, l.ID)
		have[l.ID] = true
	}
	for _, id := range knownOrder(s.known) {
		if !have[id] {
			out = append(out, id)
		}
	}
	return out
}

var integers = regexp.MustCompile(`\d+`)

// lookups asks the lookup questions.
func (s *session) lookups() error {
	inputs := s.check("lookup.inputs", "7", "MUST", "each Location is returned once, with inputs copying every request id that resolved to it, once each")
	ids := s.knownIDs()
	if len(ids) == 0 {
		inputs.skipf("search returned no Location, so no id is known to look up")
		return nil
	}
	canon := s.check("lookup.canonical-ids", "7", "MUST", "a canonical Location.id returned by search resolves to that Location")
	few := ids[:min(5, len(ids))]
	a, err := s.lookup("lookup of search's ids", few, nil, inputs)
	if err != nil {
		return err
	}
	if a.page != nil {
		for _, id := range few {
			if !slices.Contains(a.resolved[id], id) {
				canon.failf("id %s, returned by search, did not resolve to its Location (resolved to %v)", id, a.resolved[id])
			}
		}
	}

	dedupe := s.check("lookup.dedupe", "7", "MUST", "repeated ids are deduplicated first: each Location once, each input once")
	if len(ids) >= 2 {
		x, y := ids[0], ids[1]
		a, err := s.lookup("lookup with repeated ids", []string{x, y, x, y, x}, nil, dedupe)
		if err != nil {
			return err
		}
		if a.page != nil {
			for _, id := range []string{x, y} {
				if got := a.resolved[id]; !slices.Equal(got, []string{id}) {
					dedupe.failf("ids [%s %s %s %s %s]: id %s gave inputs on %v, want once on %s", x, y, x, y, x, id, got, id)
				}
			}
		}
	} else {
		dedupe.skipf("only one id is known")
	}

	if err := s.batchLimit(ids, inputs); err != nil {
		return err
	}
	if err := s.notFound(ids[0], inputs); err != nil {
		return err
	}
	return s.refinement(ids, inputs)
}

// batchLimit sends every known id (each twice, so a limit applied before
// dedupe shows) and holds the answer to the rule: all of them resolve, or
// the first N distinct do and a batch_limit_applied message says N and how
// many were left.
func (s *session) batchLimit(ids []string, inputs *Check) error {
	c := s.check("lookup.batch-limit", "7", "MUST", "over its batch maximum a Business processes the first N distinct ids and says so in an info batch_limit_applied message")
	ids = ids[:min(len(ids), maxLookupIDs)]
	var req []string
	for _, id := range ids {
		req = append(req, id, id)
	}
	a, err := s.lookup("lookup of every known id", req, nil, inputs)
	if err != nil || a.page == nil {
		return err
	}
	processed := 0
	for i, id := range ids {
		if len(a.resolved[id]) == 0 {
			break
		}
		processed = i + 1
	}
	for _, id := range ids[processed:] {
		if len(a.resolved[id]) > 0 {
			c.failf("%d distinct ids sent: %s resolved after the unresolved %s; a limit keeps the first N in request order", len(ids), id, ids[processed])
			break
		}
	}
	var note *message
	for i, m := range a.page.Messages {
		if m.Code == "batch_limit_applied" {
			note = &a.page.Messages[i]
		}
	}
	switch {
	case note == nil && processed < len(ids):
		c.failf("%d distinct ids sent (each twice), %d processed, and no batch_limit_applied message", len(ids), processed)
	case note == nil:
		if len(ids) <= 10 {
			c.notef("only %d ids are known; the batch maximum was not reached", len(ids))
		}
	default:
		if note.Type != "info" {
			c.failf("batch_limit_applied is a %s message; it is info", note.Type)
		}
		nums := map[int]bool{}
		for _, n := range integers.FindAllString(note.Content, -1) {
			v, _ := strconv.Atoi(n)
			nums[v] = true
		}
		if !nums[processed] || !nums[len(ids)-processed] {
			c.failf("batch_limit_applied says %q; with %d distinct ids and %d processed it should state %d and %d", note.Content, len(ids), processed, processed, len(ids)-processed)
		}
		if processed == len(ids) {
			c.failf("batch_limit_applied sent though all %d distinct ids were processed", len(ids))
		}
		if processed < 10 {
			s.check("lookup.batch-at-least-10", "7", "SHOULD", "a Business accepts at least 10 distinct ids per lookup").
				failf("the batch maximum is %d", processed)
		}
	}
	return nil
}

// notFound checks that an unknown id resolves to nothing and that
// not_found names only ids that did not resolve, never one removed by
// refinement.
func (s *session) notFound(id string, inputs *Check) error {
	c := s.check("lookup.not-found", "7", "MUST", "an unknown id is still a success with fewer Locations; not_found is only for ids that did not resolve")
	a, err := s.lookup("lookup with an unknown id", []string{id, unknownID}, nil, inputs)
	if err != nil || a.page == nil {
		return err
	}
	if len(a.resolved[unknownID]) > 0 {
		c.failf("id %q resolved to %v", unknownID, a.resolved[unknownID])
	}
	for _, m := range a.page.Messages {
		if m.Code == "not_found" && strings.Contains(m.Content, id) && !strings.Contains(m.Content, unknownID) {
			c.failf("not_found names %s, which resolved: %q", id, m.Content)
		}
	}
	l, ok := s.known[id]
	if !ok || !l.HasGeo {
		return nil
	}
	// A radius of 0 around a point 1 degree of latitude away removes it.
	far := l
	far.Lat = l.Lat + 1
	if far.Lat > 89 {
		far.Lat = l.Lat - 1
	}
	a, err = s.lookup("lookup refined away", []string{id}, obj{"distance": distanceAround(&far, 0)}, inputs)
	if err != nil || a.page == nil {
		return err
	}
	if len(a.page.Locations) > 0 {
		c.failf("lookup [%s] with distance max 0 one degree away returned %s", id, a.page.Locations[0].ID)
	}
	for _, m := range a.page.Messages {
		if m.Code == "not_found" {
			c.failf("not_found (%q) for %s, which resolved and was removed by the distance refinement", m.Content, id)
		}
	}
	return nil
}

// refinement checks that lookup's filters apply, with AND, to the
// resolved set.
func (s *session) refinement(ids []string, inputs *Check) error {
	if s.amenity == "" {
		return nil
	}
	c := s.check("lookup.refinement", "7", "MUST", "lookup applies filters to the resolved set as search does")
	ids = ids[:min(len(ids), 10)]
	a, err := s.lookup("lookup refined by amenity", ids, obj{"filters": obj{"amenities": []string{s.amenity}}}, inputs)
	if err != nil || a.page == nil {
		return err
	}
	got := idSet{}
	for _, l := range a.page.Locations {
		got[l.ID] = true
		if !l.Amenities[s.amenity] {
			c.failf("%s is returned without amenity %s", l.ID, s.amenity)
		}
	}
	want := idSet{}
	for _, id := range ids {
		if l, ok := s.known[id]; ok && l.Amenities[s.amenity] {
			want[id] = true
		}
	}
	if d := got.diff(want); d != "" {
		c.failf("ids %v with amenities [%s]: %s", ids, s.amenity, d)
	}
	return nil
}

// parity holds the two transports of one version to the same answers.
func parity(r *Report, version string, a, b *session) {
	c := r.check("parity.mcp-rest", "13", "MUST", version, "", fmt.Sprintf("%s and %s answer every question the same", a.t.kind(), b.t.kind()))
	labels := map[string]bool{}
	for l := range a.results {
		labels[l] = true
	}
	for l := range b.results {
		labels[l] = true
	}
	keys := make([]string, 0, len(labels))
	for l := range labels {
		keys = append(keys, l)
	}
	slices.Sort(keys)
	for _, l := range keys {
		x, okA := a.results[l]
		y, okB := b.results[l]
		switch {
		case !okA || !okB:
			c.failf("%q was asked over only one transport (the answers before it differed)", l)
		case x != y:
			c.failf("%q: %s answered %s; %s answered %s", l, a.t.kind(), clip([]byte(x)), b.t.kind(), clip([]byte(y)))
		}
	}
}
