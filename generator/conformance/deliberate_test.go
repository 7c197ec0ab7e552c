package conformance_test

import (
	"strings"
	"testing"
)

// TestDeliberateDifferences pins each place where the generated decoders
// refuse what the reference accepts, so the list in the README stays true:
// if either side changes, this fails.
func TestDeliberateDifferences(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 600) + `1` + strings.Repeat(`}`, 600)
	for _, tc := range []struct {
		name, target, payload, ours string
	}{
		{"duplicate member name", "common/location_search request", `{"query":"a","query":"b"}`, "duplicate member name"},
		{"invalid UTF-8", "common/location_search request", "{\"query\":\"\xff\"}", "invalid UTF-8"},
		{"signed time field", "common/location_search request", `{"filters":{"hours":{"open_at":"2026-08-25T+1:00:00Z"}}}`, "two digits each"},
		{"nesting deeper than 512", "common/location_search request", `{"signals":{"dev.ucp.x":` + deep + `}}`, "nesting deeper than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := targets[tc.target]
			if err := referenceVerdict(reference(t, tg), []byte(tc.payload)); err != nil {
				t.Fatalf("the reference now rejects too (%v): drop this from the deliberate differences", firstLine(err))
			}
			err := tg.decode([]byte(tc.payload))
			if err == nil || !strings.Contains(err.Error(), tc.ours) {
				t.Fatalf("ours: %v, want a rejection mentioning %q", err, tc.ours)
			}
		})
	}
}
