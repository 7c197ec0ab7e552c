package memory

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
)

// TestLazyDecodingAnswersTheSame proves that a source which keeps only the
// Locations' JSON (as it does for large datasets) answers searches and
// lookups with exactly the Locations of one that keeps them decoded.
func TestLazyDecodingAnswersTheSame(t *testing.T) {
	kept := newStore(t, testOptions{PageMax: 100})
	saved := keepDecodedUpTo
	keepDecodedUpTo = 0
	lazy := newStore(t, testOptions{PageMax: 100})
	keepDecodedUpTo = saved
	if lazy.src.ents[0].loc != nil || kept.src.ents[0].loc == nil {
		t.Fatal("the two sources do not differ in what they keep")
	}
	ctx := context.Background()
	for _, req := range []string{
		`{}`,
		`{"query":"electronics","pagination":{"limit":50}}`,
		`{"distance":{"center":{"latitude":40.75,"longitude":-73.98},"max":25000},"filters":{"hours":{"open_at":"2026-09-07T14:30:00Z"}}}`,
	} {
		a, err := kept.Search(ctx, nil, searchReq(t, req))
		if err != nil {
			t.Fatal(err)
		}
		b, err := lazy.Search(ctx, nil, searchReq(t, req))
		if err != nil {
			t.Fatal(err)
		}
		if ja, jb := mustJSON(t, a.Locations), mustJSON(t, b.Locations); ja != jb || len(a.Locations) == 0 {
			t.Errorf("%s: %d Locations kept, %d lazy, or they differ", req, len(a.Locations), len(b.Locations))
		}
	}
	ids := []string{}
	for _, r := range records(t)[:40] {
		ids = append(ids, r.ID)
		ids = append(ids, r.Aliases...)
	}
	var lreq location.LookupRequest
	if err := json.Unmarshal([]byte(`{"ids":`+mustJSON(t, ids[:min(len(ids), 50)])+`}`), &lreq); err != nil {
		t.Fatal(err)
	}
	a, err := kept.Lookup(ctx, nil, &lreq)
	if err != nil {
		t.Fatal(err)
	}
	b, err := lazy.Lookup(ctx, nil, &lreq)
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("lookup answers differ:\n%s\n%s", ja, jb)
	}
}
