package conform

import (
	"fmt"
	"sort"
	"time"

	"golang.org/x/text/language"
)

// distanceSlack is how close to max a distance may be before the checker
// stops judging it: its reference agrees with GeographicLib to 0.1 mm, and
// a spherical or planar shortcut is off by far more than this near max.
const distanceSlack = 1e-3

// Walk sizes: pages of walkLimit, at most walkPages of them.
const (
	walkLimit = 50
	walkPages = 4
)

// unknownAmenity is an amenity id no Business has; it must match nothing.
const unknownAmenity = "org.example.conform.amenity.no_such_amenity"

// sample browses with {} and finds the neighbourhood the predicate checks
// work in.
func (s *session) sample() error {
	if !s.caps[opSearch] {
		return nil
	}
	c := s.check("search.browse", "3", "MUST", "a request with no spatial relation ({}) is a valid, paginated browse")
	w, err := s.walk("browse", obj{}, 10, 3)
	if err != nil {
		return err
	}
	if w.rejected != nil {
		c.failf("{} was refused: %s", describe(*w.rejected))
		return nil
	}
	for i := range w.locs {
		if w.locs[i].HasGeo {
			a := w.locs[i]
			s.anchor = &a
			break
		}
	}
	if s.anchor == nil {
		c.skipf("the browse returned no Location with geo, so the spatial checks have no anchor")
		return nil
	}
	// Find a radius whose walk is complete and holds a few Locations.
	var best walked
	var bestR float64
	r := 5000.0
	for try := 0; try < 5; try++ {
		near, err := s.distanceWalk(fmt.Sprintf("near %.0f", r), obj{"distance": distanceAround(s.anchor, r)}, r, true)
		if err != nil {
			return err
		}
		if near.rejected != nil {
			return nil // distanceWalk failed the distance check
		}
		if !near.complete {
			r /= 4
			continue
		}
		best, bestR = near, r
		if len(near.ids) >= 6 || r >= 1e6 {
			break
		}
		r *= 8
	}
	if bestR == 0 {
		c.skipf("no radius around %s gave a walk of at most %d pages", s.anchor.ID, walkPages)
		return nil
	}
	s.radius, s.near = bestR, best
	return nil
}

// distanceCheck opens (once) the check every distance answer feeds.
func (s *session) distanceCheck() *Check {
	for _, c := range s.r.Checks {
		if c.ID == "distance.inclusive-geodesic" && c.Version == s.v && c.Transport == s.t.kind() {
			return c
		}
	}
	return s.check("distance.inclusive-geodesic", "4", "MUST", "distance matches iff the WGS 84 geodesic distance is <= max (equality matches), never clamped")
}

// distanceWalk walks a request with distance and judges every answer: no
// returned Location lies beyond max, and, when the request has nothing but
// distance (exhaustive), every Location seen so far within max is returned.
func (s *session) distanceWalk(label string, req obj, max float64, exhaustive bool) (walked, error) {
	c := s.distanceCheck()
	w, err := s.walk(label, req, walkLimit, walkPages)
	if err != nil {
		return w, err
	}
	if w.rejected != nil {
		c.failf("%s: a well-formed distance was refused: %s", label, describe(*w.rejected))
		return w, nil
	}
	for i := range w.locs {
		l := &w.locs[i]
		if !l.HasGeo {
			c.failf("%s: %s has no geo, so it cannot match distance", label, l.ID)
			continue
		}
		if d, ok := geoDistance(s.anchor, l); ok && d > max+distanceSlack {
			c.failf("%s: %s is %.4f m from the center, beyond max %.4f m", label, l.ID, d, max)
		}
	}
	if !w.complete || !exhaustive {
		return w, nil
	}
	for _, id := range knownOrder(s.known) {
		l := s.known[id]
		if d, ok := geoDistance(s.anchor, &l); ok && d <= max-distanceSlack && !w.ids[id] {
			c.failf("%s: %s is %.4f m from the center, within max %.4f m, and was not returned", label, id, d, max)
		}
	}
	return w, nil
}

// knownOrder returns the ids of m in order.
func knownOrder(m map[string]loc) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// distance asks the boundary questions: a zero radius at a Location's own
// coordinates includes it, and for a few neighbours at distance d a radius
// of d+2 mm includes them and d-2 mm excludes them.
func (s *session) distance() error {
	if s.near.ids == nil {
		return nil
	}
	c := s.distanceCheck()
	zero, err := s.distanceWalk("zero radius", obj{"distance": distanceAround(s.anchor, 0)}, 0, true)
	if err != nil {
		return err
	}
	if zero.rejected == nil && !zero.ids[s.anchor.ID] {
		c.failf("max 0 at %s's own coordinates did not return it (distance 0 <= 0 matches)", s.anchor.ID)
	}
	type pair struct {
		l loc
		d float64
	}
	var pairs []pair
	for _, l := range s.near.locs {
		if d, ok := geoDistance(s.anchor, &l); ok && d > 10*distanceSlack {
			pairs = append(pairs, pair{l, d})
		}
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i].d < pairs[j].d })
	var picks []pair
	if n := len(pairs); n > 0 {
		picks = append(picks, pairs[0])
		if n > 2 {
			picks = append(picks, pairs[n/2])
		}
		if n > 1 {
			picks = append(picks, pairs[n-1])
		}
	}
	if len(picks) == 0 {
		c.skipf("no other Location near %s to test the boundary with", s.anchor.ID)
	}
	for _, p := range picks {
		in := p.d + 2*distanceSlack
		w, err := s.distanceWalk(fmt.Sprintf("just past %s", p.l.ID), obj{"distance": distanceAround(s.anchor, in)}, in, true)
		if err != nil {
			return err
		}
		if w.complete && !w.ids[p.l.ID] {
			c.failf("max %.4f m: %s at %.4f m (WGS 84) was not returned", in, p.l.ID, p.d)
		}
		out := p.d - 2*distanceSlack
		w, err = s.distanceWalk(fmt.Sprintf("just short of %s", p.l.ID), obj{"distance": distanceAround(s.anchor, out)}, out, true)
		if err != nil {
			return err
		}
		if w.ids[p.l.ID] {
			c.failf("max %.4f m: %s at %.4f m (WGS 84) was returned", out, p.l.ID, p.d)
		}
	}
	return nil
}

// nearWith is the neighbourhood's request with extra members.
func (s *session) nearWith(extra obj) obj {
	q := obj{"distance": distanceAround(s.anchor, s.radius)}
	for k, v := range extra {
		q[k] = v
	}
	return q
}

// expectSet walks q and holds its answer to want, the part of the
// neighbourhood the rule says must come back (nil: only walk).
func (s *session) expectSet(c *Check, label string, q obj, want idSet) (walked, error) {
	w, err := s.distanceWalk(label, q, s.radius, false)
	if err != nil {
		return w, err
	}
	if w.rejected != nil {
		c.failf("%s: refused: %s", label, describe(*w.rejected))
		return w, nil
	}
	if !w.complete {
		c.skipf("%s: the walk did not end within %d pages", label, walkPages)
		return w, nil
	}
	if d := w.ids.diff(want); want != nil && d != "" {
		c.failf("%s: %s", label, d)
	}
	return w, nil
}

// subsetOfNear fails c for every Location of w that the same radius
// without w's extra members did not return: a filter or hint only narrows.
func (s *session) subsetOfNear(c *Check, label string, w walked) {
	for _, id := range w.ids.sortedKeys() {
		if !s.near.ids[id] {
			c.failf("%s: %s is returned, but not by the same radius without it", label, id)
		}
	}
}

// sortedKeys returns the ids in order.
func (ids idSet) sortedKeys() []string {
	out := make([]string, 0, len(ids))
	for id := range ids {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// where is the part of the neighbourhood that satisfies keep.
func (s *session) where(keep func(*loc) bool) idSet {
	out := idSet{}
	for i := range s.near.locs {
		if keep(&s.near.locs[i]) {
			out[s.near.locs[i].ID] = true
		}
	}
	return out
}

// amenities checks AND and exact keys: amenities [a, b] returns exactly the
// neighbours whose amenities hold both keys, an unknown id matches nothing.
func (s *session) amenities() error {
	if s.near.ids == nil {
		return nil
	}
	c := s.check("filters.amenities-and", "5", "MUST", "amenities match iff every requested id is an exact key of the Location's amenities (AND); unknown ids match nothing")
	count := map[string]int{}
	for _, l := range s.near.locs {
		for k := range l.Amenities {
			count[k]++
		}
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if count[keys[i]] != count[keys[j]] {
			return count[keys[i]] > count[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) == 0 {
		c.skipf("no Location near %s has amenities", s.anchor.ID)
		return nil
	}
	a := keys[0]
	s.amenity = a
	b := ""
	// Prefer a b that some holders of a lack, so AND and OR differ.
	for _, k := range keys[1:] {
		both := len(s.where(func(l *loc) bool { return l.Amenities[a] && l.Amenities[k] }))
		if both > 0 && (both < count[a] || both < count[k]) {
			b = k
			break
		}
	}
	if b == "" && len(keys) > 1 {
		b = keys[1]
	}
	filter := func(ids ...string) obj { return obj{"filters": obj{"amenities": ids}} }
	if _, err := s.expectSet(c, "amenities ["+a+"]", s.nearWith(filter(a)), s.where(func(l *loc) bool { return l.Amenities[a] })); err != nil {
		return err
	}
	if b != "" {
		if _, err := s.expectSet(c, "amenities ["+a+", "+b+"]", s.nearWith(filter(a, b)),
			s.where(func(l *loc) bool { return l.Amenities[a] && l.Amenities[b] })); err != nil {
			return err
		}
	} else {
		c.skipf("only one amenity id occurs near %s; AND of two was not tried", s.anchor.ID)
	}
	_, err := s.expectSet(c, "amenities [unknown id]", s.nearWith(filter(a, unknownAmenity)), idSet{})
	return err
}

// items checks that items combine with AND: the answer for [x, y] is the
// intersection of the answers for [x] and [y].
func (s *session) items() error {
	if s.near.ids == nil {
		return nil
	}
	c := s.check("filters.items-and", "5", "MUST", "items match iff the Business can provide every listed item there (AND); a filter only narrows")
	items := s.owner.o.Items
	if len(items) == 0 {
		c.skipf("no --item given; the checker cannot know the Business's item ids")
		return nil
	}
	if len(items) > 3 {
		items = items[:3]
	}
	filter := func(ids ...string) obj { return obj{"filters": obj{s.d.itemsKey: s.d.items(ids)}} }
	single := map[string]idSet{}
	for _, it := range items {
		w, err := s.expectSet(c, "items ["+it+"] within the neighbourhood", s.nearWith(filter(it)), nil)
		if err != nil {
			return err
		}
		if w.rejected != nil || !w.complete {
			return nil
		}
		s.subsetOfNear(c, "items ["+it+"]", w)
		single[it] = w.ids
	}
	distinct := false
	for i, x := range items {
		for _, y := range items[i+1:] {
			want := idSet{}
			for id := range single[x] {
				if single[y][id] {
					want[id] = true
				}
			}
			if len(want) != len(single[x]) || len(want) != len(single[y]) {
				distinct = true
			}
			if _, err := s.expectSet(c, "items ["+x+", "+y+"]", s.nearWith(filter(x, y)), want); err != nil {
				return err
			}
		}
	}
	if len(items) < 2 {
		c.skipf("one --item given; AND needs two")
	} else if !distinct {
		c.notef("every --item is held by the same Locations near %s, so AND and OR give the same answer here", s.anchor.ID)
	}
	return nil
}

// hours checks that open_at is evaluated in each Location's own IANA zone:
// at several instants, the answer is exactly the neighbours whose returned
// schedule is open then, by the checker's own evaluation.
func (s *session) hours() error {
	if s.near.ids == nil {
		return nil
	}
	c := s.check("filters.hours-zone", "6", "MUST", "hours.open_at matches iff the Location's schedule, read in its own IANA timezone, is open at that instant")
	base := s.owner.o.At.Truncate(time.Minute) // Run fixed it for every session
	zones := []*time.Location{time.UTC, time.FixedZone("", 5*3600+1800), time.FixedZone("", -8*3600), time.FixedZone("", 9*3600), time.UTC}
	for i, z := range zones {
		at := base.Add(time.Duration(i*5) * time.Hour).In(z)
		text := at.Format(time.RFC3339)
		if _, err := s.expectSet(c, "hours open_at "+text, s.nearWith(obj{"filters": obj{"hours": obj{"open_at": text}}}),
			s.where(func(l *loc) bool { return l.Sched.openAt(at) })); err != nil {
			return err
		}
	}
	return nil
}

// serves checks what a Platform can see of serves: it only narrows, and
// it combines with a filter by AND.
func (s *session) serves() error {
	if s.near.ids == nil {
		return nil
	}
	c := s.check("serves.and", "4", "MUST", "serves only narrows the same request without it, and combines with filters by AND")
	targets := []struct {
		name   string
		target obj
	}{{"serves.point at the anchor", obj{"point": obj{"latitude": s.anchor.Lat, "longitude": s.anchor.Lon}}}}
	var alpha3 *Check
	if s.anchor.Country != "" {
		addr := obj{"address_country": s.anchor.Country}
		if s.anchor.Region != "" {
			addr["address_region"] = s.anchor.Region
		}
		targets = append(targets, struct {
			name   string
			target obj
		}{addressTarget, obj{"address": addr}})
		alpha3 = s.check("serves.country-forms", "4", "MUST", "serves.address_country as an alpha-3 code is understood (same answer as alpha-2) or refused, never answered empty")
	}
	for _, t := range targets {
		w, err := s.distanceWalk(t.name, s.nearWith(obj{"serves": t.target}), s.radius, false)
		if err != nil {
			return err
		}
		if w.rejected != nil {
			c.failf("%s: a well-formed target was refused: %s", t.name, describe(*w.rejected))
			continue
		}
		if !w.complete {
			continue
		}
		s.subsetOfNear(c, t.name, w)
		if alpha3 != nil && t.name == addressTarget {
			if err := s.countryForms(alpha3, t.target, w); err != nil {
				return err
			}
		}
		if s.amenity == "" {
			continue
		}
		a := s.amenity
		want := idSet{}
		for i := range w.locs {
			if w.locs[i].Amenities[a] {
				want[w.locs[i].ID] = true
			}
		}
		if _, err := s.expectSet(c, t.name+" and amenities ["+a+"]", s.nearWith(obj{"serves": t.target, "filters": obj{"amenities": []string{a}}}), want); err != nil {
			return err
		}
	}
	return nil
}

// addressTarget names the serves.address question.
const addressTarget = "serves.address of the anchor"

// countryForms asks target again with the country as ISO 3166-1 alpha-3:
// the Business either understands it (the same answer) or refuses it.
func (s *session) countryForms(c *Check, target obj, alpha2 walked) error {
	if len(alpha2.ids) == 0 {
		c.skipf("the alpha-2 target matched nothing near %s, so an empty alpha-3 answer would prove nothing", s.anchor.ID)
		return nil
	}
	region, err := language.ParseRegion(s.anchor.Country)
	if err != nil || region.ISO3() == "" || region.ISO3() == "ZZZ" {
		c.skipf("the anchor's address_country %q is not an ISO 3166-1 code this checker can convert", s.anchor.Country)
		return nil
	}
	addr := clone(target["address"].(obj))
	addr["address_country"] = region.ISO3()
	label := "serves.address with address_country " + region.ISO3()
	w, err := s.distanceWalk(label, s.nearWith(obj{"serves": obj{"address": addr}}), s.radius, false)
	if err != nil || w.rejected != nil {
		return err
	}
	if !w.complete {
		c.skipf("%s: the walk did not end within %d pages", label, walkPages)
		return nil
	}
	if d := w.ids.diff(alpha2.ids); d != "" {
		c.failf("%s was accepted but answered unlike %s: %s", region.ISO3(), s.anchor.Country, d)
	}
	return nil
}

// implicit checks that nothing the request did not send narrows it:
// context and signals change no membership, and the filter-free
// neighbourhood holds every Location seen within its radius.
func (s *session) implicit() error {
	if s.near.ids == nil {
		return nil
	}
	c := s.check("search.no-implicit-operands", "3", "MUST", "a filter the request did not send never narrows it; context and signals are hints, never operands")
	hints := obj{
		"context": obj{"address_country": "JP", "intent": "ucpgen conformance check"},
		"signals": obj{"dev.ucp.user_agent": "ucpgen-conform"},
	}
	if _, err := s.expectSet(c, "the neighbourhood with context and signals", s.nearWith(hints), s.near.ids); err != nil {
		return err
	}
	// Free text may rank or narrow, never widen: "near me" proves nothing.
	label := "the neighbourhood with query text"
	w, err := s.distanceWalk(label, s.nearWith(obj{"query": "open now near me, anywhere in the world"}), s.radius, false)
	if err != nil {
		return err
	}
	if w.rejected != nil {
		c.failf("%s: refused: %s", label, describe(*w.rejected))
	} else {
		s.subsetOfNear(c, label, w)
	}
	for _, id := range knownOrder(s.known) {
		l := s.known[id]
		if d, ok := geoDistance(s.anchor, &l); ok && d <= s.radius-distanceSlack && !s.near.ids[id] {
			c.failf("%s (seen elsewhere in this run) is %.1f m from %s, within %.0f m, and the filter-free search did not return it", id, d, s.anchor.ID, s.radius)
		}
	}
	return nil
}
