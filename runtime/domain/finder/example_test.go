package finder_test

import (
	"context"
	"fmt"
	"log"
	"slices"

	"github.com/ucpgen/ucpgen/runtime/domain/finder"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
)

// shop stands in for the generated Location type.
type shop struct {
	ID       string
	Lat, Lng float64
	Alias    string
}

// shops is the smallest honest Source: a slice kept in id order, every hint
// ignored (the engine re-checks every predicate), no serves or items.
type shops []*shop

func (shops) Capabilities() finder.Capabilities { return finder.Capabilities{} }

func (s shops) Candidates(_ context.Context, h finder.Hints) ([]finder.Candidate[shop], error) {
	var out []finder.Candidate[shop]
	for _, l := range s {
		if h.After != nil && l.ID <= h.After.ID {
			continue
		}
		if len(out) == h.Limit {
			break
		}
		out = append(out, finder.Candidate[shop]{Location: l})
	}
	return out, nil
}

func (s shops) Resolve(_ context.Context, keys []string) (map[string][]finder.Candidate[shop], error) {
	out := map[string][]finder.Candidate[shop]{}
	for _, k := range keys {
		for _, l := range s {
			if l.ID == k || l.Alias == k {
				out[k] = append(out[k], finder.Candidate[shop]{Location: l})
			}
		}
	}
	return out, nil
}

func (shops) Serves(context.Context, predicate.Target, []finder.Candidate[shop]) ([]bool, error) {
	return nil, fmt.Errorf("serves: %w", predicate.ErrUnevaluable)
}

func (shops) Items(_ context.Context, _ []string, c []finder.Candidate[shop]) ([]bool, error) {
	return make([]bool, len(c)), nil
}

// binding tells the engine how to read a shop's id and position.
var binding = finder.Binding[shop]{
	ID: func(s *shop) string { return s.ID },
	Candidate: func(s *shop) predicate.Candidate {
		return predicate.Candidate{ID: s.ID, Geo: &predicate.Geo{Lat: s.Lat, Lon: s.Lng}}
	},
}

var london = shops{
	{ID: "loc_covent", Lat: 51.5117, Lng: -0.1240, Alias: "store-12"},
	{ID: "loc_kings", Lat: 51.5308, Lng: -0.1238},
	{ID: "loc_soho", Lat: 51.5136, Lng: -0.1365},
}

// A search within 2 km of Charing Cross: the engine measures each shop on
// the WGS 84 ellipsoid and keeps the ones inside, in id order.
func ExampleEngine_Search() {
	engine, err := finder.New(london, binding, finder.Options{})
	if err != nil {
		log.Fatal(err)
	}
	page, err := engine.Search(context.Background(), finder.SearchRequest{
		Query: predicate.Query{Distance: &predicate.Distance{Center: predicate.Geo{Lat: 51.5073, Lon: -0.1276}, Max: 2000}},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range page.Locations {
		fmt.Println(s.ID)
	}
	fmt.Println("next page:", page.HasNextPage)
	// Output:
	// loc_covent
	// loc_soho
	// next page: false
}

// A lookup by id and alias: both name one shop, which is returned once with
// every input that reached it; an unknown id reaches nothing.
func ExampleEngine_Lookup() {
	engine, err := finder.New(london, binding, finder.Options{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := engine.Lookup(context.Background(), finder.LookupRequest{IDs: []string{"loc_covent", "store-12", "loc_gone"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range res.Entries {
		fmt.Println(e.Location.ID, e.Inputs)
	}
	fmt.Println(slices.Equal(res.Processed, []string{"loc_covent", "store-12", "loc_gone"}))
	// Output:
	// loc_covent [loc_covent store-12]
	// true
}
