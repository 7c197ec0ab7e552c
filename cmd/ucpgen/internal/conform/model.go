package conform

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/generated/location20260821"
)

// dialect is what differs between the UCP versions the checker knows: the
// generated validators of each version's payloads and the shape of the
// items filter (2026-08-21 has filters.inventory instead).
type dialect struct {
	version        string
	validateSearch func([]byte) error
	validateLookup func([]byte) error
	// itemsKey and items build the filter that asks for items by id.
	itemsKey string
	items    func(ids []string) any
}

// dialects are the versions this build of the checker has schemas for.
var dialects = map[string]dialect{
	location.ProtocolVersion: {
		version:        location.ProtocolVersion,
		validateSearch: func(b []byte) error { _, err := location.DecodeSearchResponse(b); return err },
		validateLookup: func(b []byte) error { _, err := location.DecodeLookupResponse(b); return err },
		itemsKey:       "items",
		items:          func(ids []string) any { return ids },
	},
	location20260821.ProtocolVersion: {
		version:        location20260821.ProtocolVersion,
		validateSearch: func(b []byte) error { _, err := location20260821.DecodeSearchResponse(b); return err },
		validateLookup: func(b []byte) error { _, err := location20260821.DecodeLookupResponse(b); return err },
		itemsKey:       "inventory",
		items: func(ids []string) any {
			out := make([]map[string]string, len(ids))
			for i, id := range ids {
				out[i] = map[string]string{"id": id}
			}
			return out
		},
	},
}

// loc is a returned Location as the checks see it, whatever the version.
type loc struct {
	ID       string
	HasGeo   bool
	Lat, Lon float64
	// Amenities are the amenity identifiers (map keys from 2026-08-25, list
	// entries before).
	Amenities map[string]bool
	Sched     schedule
	Country   string
	Region    string
	// Inputs are lookup's inputs[].id, in order.
	Inputs []string
	// Raw is the Location's JSON as returned, for parity.
	Raw json.RawMessage
}

// message is one entry of a response's messages.
type message struct {
	Type, Code, Content string
}

// page is one decoded success of search or lookup.
type page struct {
	Version      string
	Status       string
	Capabilities map[string]bool
	Locations    []loc
	HasPage      bool // pagination present
	HasNext      bool
	Cursor       string
	HasCursor    bool
	Messages     []message
}

type wireLoc struct {
	ID  string `json:"id"`
	Geo *struct {
		Latitude  float64 `json:"latitude"`
		Longitude float64 `json:"longitude"`
	} `json:"geo"`
	Address *struct {
		Country string `json:"address_country"`
		Region  string `json:"address_region"`
	} `json:"address"`
	Amenities json.RawMessage `json:"amenities"`
	Hours     *[]struct {
		Day    string `json:"day"`
		Opens  string `json:"opens"`
		Closes string `json:"closes"`
	} `json:"hours"`
	Exceptions []struct {
		From    string `json:"valid_from"`
		Through string `json:"valid_through"`
		Opens   string `json:"opens"`
		Closes  string `json:"closes"`
	} `json:"exception_hours"`
	Timezone string `json:"timezone"`
	Inputs   []struct {
		ID string `json:"id"`
	} `json:"inputs"`
}

type wirePage struct {
	UCP struct {
		Version      string                     `json:"version"`
		Status       string                     `json:"status"`
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	} `json:"ucp"`
	Locations  []json.RawMessage `json:"locations"`
	Pagination *struct {
		HasNext bool    `json:"has_next_page"`
		Cursor  *string `json:"cursor"`
	} `json:"pagination"`
	Messages []message `json:"messages"`
}

// decodePage validates body with the version's generated decoder for op,
// then reads it into the version-neutral page.
func (d dialect) decodePage(op string, body []byte) (page, error) {
	validate := d.validateSearch
	if op == opLookup {
		validate = d.validateLookup
	}
	if err := validate(body); err != nil {
		return page{}, fmt.Errorf("the %s response does not satisfy the %s schema: %w", op, d.version, err)
	}
	var w wirePage
	if err := json.Unmarshal(body, &w); err != nil {
		return page{}, fmt.Errorf("read the %s response: %w", op, err)
	}
	p := page{Version: w.UCP.Version, Status: w.UCP.Status, Capabilities: map[string]bool{}, Messages: w.Messages}
	for k := range w.UCP.Capabilities {
		p.Capabilities[k] = true
	}
	if w.Pagination != nil {
		p.HasPage, p.HasNext = true, w.Pagination.HasNext
		if w.Pagination.Cursor != nil {
			p.HasCursor, p.Cursor = true, *w.Pagination.Cursor
		}
	}
	for i, raw := range w.Locations {
		l, err := decodeLoc(raw)
		if err != nil {
			return page{}, fmt.Errorf("locations[%d]: %w", i, err)
		}
		p.Locations = append(p.Locations, l)
	}
	return p, nil
}

func decodeLoc(raw json.RawMessage) (loc, error) {
	var w wireLoc
	if err := json.Unmarshal(raw, &w); err != nil {
		return loc{}, err
	}
	l := loc{ID: w.ID, Raw: raw, Amenities: map[string]bool{}}
	if w.Geo != nil {
		l.HasGeo, l.Lat, l.Lon = true, w.Geo.Latitude, w.Geo.Longitude
	}
	if w.Address != nil {
		l.Country, l.Region = w.Address.Country, w.Address.Region
	}
	if len(w.Amenities) > 0 {
		var asMap map[string]json.RawMessage
		var asList []string
		switch {
		case json.Unmarshal(w.Amenities, &asMap) == nil:
			for k := range asMap {
				l.Amenities[k] = true
			}
		case json.Unmarshal(w.Amenities, &asList) == nil:
			for _, k := range asList {
				l.Amenities[k] = true
			}
		default:
			return loc{}, fmt.Errorf("amenities is neither a map nor a list")
		}
	}
	l.Sched = schedule{Timezone: w.Timezone, HasHours: w.Hours != nil}
	if w.Hours != nil {
		for _, h := range *w.Hours {
			l.Sched.Hours = append(l.Sched.Hours, weekly{h.Day, h.Opens, h.Closes})
		}
	}
	for _, e := range w.Exceptions {
		l.Sched.Exceptions = append(l.Sched.Exceptions, exception{e.From, e.Through, e.Opens, e.Closes})
	}
	for _, in := range w.Inputs {
		l.Inputs = append(l.Inputs, in.ID)
	}
	return l, nil
}

// idSet is a set of Location ids.
type idSet map[string]bool

// diff describes how got differs from want, or "" when they are equal.
func (s idSet) diff(want idSet) string {
	var extra, missing []string
	for id := range s {
		if !want[id] {
			extra = append(extra, id)
		}
	}
	for id := range want {
		if !s[id] {
			missing = append(missing, id)
		}
	}
	if len(extra) == 0 && len(missing) == 0 {
		return ""
	}
	sort.Strings(extra)
	sort.Strings(missing)
	return fmt.Sprintf("returned but not due %v; due but not returned %v", head(extra), head(missing))
}

// head keeps a message short.
func head(ids []string) []string {
	if len(ids) > 5 {
		return append(ids[:5:5], fmt.Sprintf("... %d more", len(ids)-5))
	}
	return ids
}
