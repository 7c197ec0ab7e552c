package hours

import (
	"fmt"
	"strings"
	"sync"
	"time"

	// Embedded IANA data, so zones resolve the same way on machines without
	// a system zoneinfo database.
	_ "time/tzdata"
)

// zones caches successfully loaded locations by name: every schedule of a
// Business names one of a handful of zones, and LoadLocation reads and parses
// zone data on each call. Failures are not cached, so the cache only grows
// with real zone names, of which the embedded database has a few hundred.
// It holds data, never request state.
var zones = struct {
	mu     sync.RWMutex
	byName map[string]*time.Location
}{byName: map[string]*time.Location{}}

// loadZone resolves an IANA zone name. "Local" is refused: it names the
// server's own zone, not a zone of the Location.
func loadZone(name string) (*time.Location, error) {
	zones.mu.RLock()
	loc, ok := zones.byName[name]
	zones.mu.RUnlock()
	if ok {
		return loc, nil
	}
	if name == "Local" {
		return nil, fmt.Errorf("%q is not an IANA zone name", name)
	}
	// A copy: name may be part of a larger text the cache must not keep.
	name = strings.Clone(name)
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("unknown IANA zone %q: %w", name, err)
	}
	zones.mu.Lock()
	defer zones.mu.Unlock()
	if have, ok := zones.byName[name]; ok {
		return have, nil
	}
	zones.byName[name] = loc
	return loc, nil
}
