package conform

import (
	"fmt"
	"net/http"
)

// paging checks that page size never changes the set, and that a cursor
// is bound to the query it came from.
func (s *session) paging() error {
	if s.near.ids == nil {
		return nil
	}
	q := s.nearWith(nil)
	small, err := s.walk("the neighbourhood two at a time", q, 2, len(s.near.ids)/2+3)
	if err != nil {
		return err
	}
	if small.rejected == nil {
		if !small.complete {
			s.walks.failf("the neighbourhood two at a time: %d pages did not reach has_next_page false for %d Locations", len(s.near.ids)/2+3, len(s.near.ids))
		} else if d := small.ids.diff(s.near.ids); d != "" {
			s.walks.failf("the neighbourhood two at a time differs from %d at a time: %s", walkLimit, d)
		}
	}

	c := s.check("pagination.cursor-bound", "9", "MUST", "a cursor continues only the query it came from: with another query it is refused or answers that query")
	first, p, err := s.call(opSearch, withPage(q, 2, ""), "")
	if err != nil {
		return err
	}
	if p == nil || !p.HasNext || p.Cursor == "" {
		c.skipf("the neighbourhood fits one page of 2 (%s), so there is no cursor to reuse", describeFirst(first, p))
		return nil
	}
	// The other query matches nothing: an unknown amenity id.
	other := s.nearWith(obj{"filters": obj{"amenities": []string{unknownAmenity}}})
	rep, p2, err := s.call(opSearch, withPage(other, 2, p.Cursor), "")
	if err != nil {
		return err
	}
	switch {
	case p2 == nil:
		if rep.code != 0 && rep.code != -32602 || rep.code == 0 && rep.status != http.StatusBadRequest {
			c.failf("a cursor used with another query was refused with %s, want -32602 / HTTP 400", describe(rep))
		}
	case len(p2.Locations) > 0:
		c.failf("a cursor from the plain neighbourhood, sent with amenities [%s] that match nothing, returned %d Locations (%s...): the cursor carried its own query", unknownAmenity, len(p2.Locations), p2.Locations[0].ID)
	}

	junk := s.check("pagination.cursor-invalid", "9", "SHOULD", "a cursor the Business never issued is refused as invalid parameters")
	rep, p3, err := s.call(opSearch, withPage(q, 2, "ucpgen-conform-not-a-cursor"), "")
	if err != nil {
		return err
	}
	if p3 != nil {
		junk.failf("an invented cursor was accepted with %d Locations", len(p3.Locations))
	} else if rep.code != 0 && rep.code != -32602 || rep.code == 0 && rep.status != http.StatusBadRequest {
		junk.failf("an invented cursor got %s, want -32602 / HTTP 400", describe(rep))
	}
	return nil
}

func withPage(q obj, limit int, cursor string) obj {
	out := clone(q)
	pg := obj{"limit": limit}
	if cursor != "" {
		pg["cursor"] = cursor
	}
	out["pagination"] = pg
	return out
}

func describeFirst(r reply, p *page) string {
	if p == nil {
		return describe(r)
	}
	return fmt.Sprintf("%d Locations, has_next_page %v", len(p.Locations), p.HasNext)
}
