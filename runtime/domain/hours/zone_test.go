package hours

import (
	"testing"
	"unsafe"
)

// TestLoadZoneKeepsItsOwnName: the zone cache keeps a copy of the name it
// is given, not the caller's memory, which a loader parsing a million
// records in one reused buffer overwrites with the next record.
func TestLoadZoneKeepsItsOwnName(t *testing.T) {
	buf := []byte("Pacific/Chatham")
	loc, err := loadZone(unsafe.String(&buf[0], len(buf)))
	if err != nil {
		t.Fatal(err)
	}
	copy(buf, "Europe/Budapest")
	if got := loc.String(); got != "Pacific/Chatham" {
		t.Fatalf("the cached zone's name became %q when the caller's text changed", got)
	}
	again, err := loadZone("Pacific/Chatham")
	if err != nil || again != loc {
		t.Fatalf("the zone was not found again by its name: %v", err)
	}
}
