package conform

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// obj is a request under construction.
type obj = map[string]any

// session checks one version over one transport.
type session struct {
	ctx   context.Context
	owner *runner
	r     *Report
	d     dialect
	t     transport
	caps  map[string]bool
	v     string

	framing, envelope, schema, walks *Check

	// known is every Location seen in this session, by id.
	known map[string]loc
	// results summarise each labelled question's answer, for parity.
	results map[string]string

	// anchor, radius and near are the neighbourhood the predicate checks
	// work in: a complete distance walk around a returned Location.
	anchor *loc
	radius float64
	near   walked
	// amenity is the amenity the serves and lookup checks refine with.
	amenity string
}

func newSession(ctx context.Context, run *runner, d dialect, t transport, caps map[string]bool) *session {
	s := &session{ctx: ctx, owner: run, r: run.r, d: d, t: t, caps: caps, v: d.version,
		known: map[string]loc{}, results: map[string]string{}}
	if t.kind() == "mcp" {
		s.framing = s.check("mcp.framing", "1", "MUST", "every answer is JSON-RPC 2.0 echoing the request id, a success carries structuredContent and the same JSON as a text block")
	} else {
		s.framing = s.check("rest.framing", "13", "MUST", "every answer is an application/json object")
	}
	s.schema = s.check("payload.schema", "1", "MUST", "every success satisfies the version's response schema")
	s.envelope = s.check("envelope.ucp", "1", "MUST", "every success states ucp.version of the endpoint's profile and the capability that ran")
	s.walks = s.check("pagination.walk", "9", "MUST", "a walk never returns a Location twice, has_next_page comes with a cursor, and no cursor repeats")
	return s
}

func (s *session) check(id, section, level, title string) *Check {
	return s.r.check(id, section, level, s.v, s.t.kind(), title)
}

// run asks every question of the suite in turn.
func (s *session) run() error {
	steps := []func() error{s.errors, s.sample}
	if s.caps[opSearch] {
		steps = append(steps, s.distance, s.amenities, s.items, s.hours, s.serves, s.implicit, s.paging)
	}
	if s.caps[opLookup] {
		steps = append(steps, s.lookups)
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// call sends one request and judges what every answer must be; page is
// nil when the answer is not a usable success.
func (s *session) call(op string, req any, label string) (reply, *page, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return reply{}, nil, err
	}
	rep, err := s.t.call(s.ctx, op, body)
	if err != nil {
		s.record(label, "no answer")
		return reply{}, nil, lost(s.ctx, s.framing, op+" "+clip(body), err)
	}
	for _, f := range rep.framing {
		s.framing.failf("%s %s: %s", op, clip(body), f)
	}
	if !rep.ok {
		s.record(label, "rejected")
		return rep, nil, nil
	}
	p, err := s.d.decodePage(op, rep.body)
	if err != nil {
		s.schema.failf("%s %s: %v", op, clip(body), err)
		s.record(label, "invalid")
		return rep, nil, nil
	}
	if p.Version != s.v {
		s.envelope.failf("%s %s: ucp.version %q at the %s endpoint", op, clip(body), p.Version, s.v)
	}
	if !p.Capabilities[capOf[op]] {
		s.envelope.failf("%s %s: ucp.capabilities does not name %s", op, clip(body), capOf[op])
	}
	if p.Status == "error" {
		s.envelope.failf("%s %s: ucp.status is error for a request that needs no negotiation", op, clip(body))
	}
	for _, l := range p.Locations {
		if _, seen := s.known[l.ID]; !seen && l.ID != "" {
			k := l
			k.Inputs = nil
			s.known[l.ID] = k
		}
	}
	if label != "" {
		s.record(label, summarise(p.Locations, p.Messages))
	}
	return rep, &p, nil
}

func (s *session) record(label, summary string) {
	if label != "" {
		s.results[label] = summary
	}
}

// summarise is an answer as parity compares it: the Locations by id with
// their JSON, and the messages' types and codes.
func summarise(locs []loc, msgs []message) string {
	parts := make([]string, 0, len(locs)+len(msgs))
	for _, l := range locs {
		var v any
		_ = json.Unmarshal(l.Raw, &v)
		canon, _ := json.Marshal(v)
		sum := sha256.Sum256(canon)
		parts = append(parts, l.ID+"="+hex.EncodeToString(sum[:8])+fmt.Sprint(l.Inputs))
	}
	sort.Strings(parts)
	codes := make([]string, 0, len(msgs))
	for _, m := range msgs {
		codes = append(codes, m.Type+":"+m.Code)
	}
	sort.Strings(codes)
	return strings.Join(parts, ",") + " | " + strings.Join(codes, ",")
}

// walked is the union of a search's pages.
type walked struct {
	ids  idSet
	locs []loc
	// rejected holds the refusal when the first page was refused.
	rejected *reply
	// complete is true when the last page said has_next_page false.
	complete bool
	// first is the first page.
	first *page
}

// walk follows a search's cursors, at most maxPages pages of limit each.
func (s *session) walk(label string, req obj, limit, maxPages int) (walked, error) {
	w := walked{ids: idSet{}}
	seen := map[string]bool{}
	cursor := ""
	for n := 0; n < maxPages; n++ {
		q := clone(req)
		pg := obj{"limit": limit}
		if cursor != "" {
			pg["cursor"] = cursor
		}
		q["pagination"] = pg
		rep, p, err := s.call(opSearch, q, "")
		if err != nil {
			return w, err
		}
		if p == nil {
			if n == 0 {
				w.rejected = &rep
			} else {
				s.walks.failf("%s: page %d with the Business's own cursor was refused: %s", label, n+1, describe(rep))
			}
			break
		}
		if n == 0 {
			w.first = p
		}
		for _, l := range p.Locations {
			if w.ids[l.ID] {
				s.walks.failf("%s: Location %s appears twice in one walk (again on page %d)", label, l.ID, n+1)
				continue
			}
			w.ids[l.ID] = true
			w.locs = append(w.locs, l)
		}
		if !p.HasNext {
			w.complete = true
			break
		}
		if !p.HasCursor || p.Cursor == "" {
			s.walks.failf("%s: page %d has has_next_page true and no cursor", label, n+1)
			break
		}
		if seen[p.Cursor] {
			s.walks.failf("%s: page %d repeats an earlier cursor, so the walk never ends", label, n+1)
			break
		}
		seen[p.Cursor] = true
		cursor = p.Cursor
	}
	if w.rejected != nil {
		s.record(label, "rejected")
	} else {
		s.record(label, summarise(w.locs, nil))
	}
	return w, nil
}

// describe says what a refused answer was.
func describe(r reply) string {
	if r.status == 0 {
		return "no answer (the framing check says why)"
	}
	hint := ""
	if r.status == http.StatusTooManyRequests || r.status == http.StatusServiceUnavailable {
		hint = " (the Business shed load without a Retry-After the checker could wait out; try a lower --rate)"
	}
	if r.code != 0 {
		return fmt.Sprintf("JSON-RPC %d %s%s", r.code, r.message, hint)
	}
	return fmt.Sprintf("HTTP %d %s%s", r.status, clip(r.data), hint)
}

func clone(m obj) obj {
	out := make(obj, len(m)+1)
	for k, v := range m {
		if sub, ok := v.(obj); ok {
			v = clone(sub)
		}
		out[k] = v
	}
	return out
}

// distance is the request member for a radius around l.
func distanceAround(l *loc, max float64) obj {
	return obj{"center": obj{"latitude": l.Lat, "longitude": l.Lon}, "max": max}
}

// geoDistance is the checker's reference distance from a to b, or false
// when either has no geo or the reference declines the pair.
func geoDistance(a, b *loc) (float64, bool) {
	if !a.HasGeo || !b.HasGeo {
		return 0, false
	}
	d, err := geodesicDistance(a.Lat, a.Lon, b.Lat, b.Lon)
	return d, err == nil
}
