package hours

import (
	"fmt"
	"sync"
	"time"

	// Embedded IANA data, so zones resolve the same way on machines without
	// a system zoneinfo database.
	_ "time/tzdata"
)

// zones caches successfully loaded locations by name: every schedule of a
// Business names one of a handful of zones, and LoadLocation reads and parses
// zone data on each call. Failures are not cached, so the cache only grows
// with real zone names.
var zones sync.Map // string -> *time.Location

// loadZone resolves an IANA zone name. "Local" is refused: it names the
// server's own zone, not a zone of the Location.
func loadZone(name string) (*time.Location, error) {
	if v, ok := zones.Load(name); ok {
		return v.(*time.Location), nil
	}
	if name == "Local" {
		return nil, fmt.Errorf("%q is not an IANA zone name", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("unknown IANA zone %q: %w", name, err)
	}
	v, _ := zones.LoadOrStore(name, loc)
	return v.(*time.Location), nil
}
