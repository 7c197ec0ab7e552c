package memory

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/jsonenc"
)

// plainCopy is resp rebuilt member by member, without the memo the
// service left in it, so it encodes every Location afresh.
func plainCopy(resp *location.SearchResponse) *location.SearchResponse {
	return &location.SearchResponse{UCP: resp.UCP, Locations: slices.Clone(resp.Locations), Pagination: resp.Pagination, Messages: resp.Messages, Unknown: resp.Unknown}
}

// encodeSpans is resp's encoding with its spans, and the MCP text block of
// it made from the spans.
func encodeSpans(t *testing.T, resp *location.SearchResponse) (body []byte, spans []jsonenc.Span, text []byte) {
	t.Helper()
	body, err := resp.AppendJSONSpans(nil, nil, &spans)
	if err != nil {
		t.Fatal(err)
	}
	return body, spans, jsonenc.AppendJSONAsStringSpans(nil, body, spans)
}

// TestSearchCopiesKeptEncodings drives a search page through the generated
// encoder as a transport does: the page encodes to the bytes of the same
// Locations encoded afresh, every Location is copied from its kept
// encoding, and a Location changed after the search is encoded afresh.
func TestSearchCopiesKeptEncodings(t *testing.T) {
	ctx := context.Background()
	s := newStore(t, testOptions{})
	req := `{"pagination":{"limit":25}}`
	resp, err := s.Search(ctx, nil, searchReq(t, req))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Locations) != 25 {
		t.Fatalf("%d Locations, want 25", len(resp.Locations))
	}
	want, err := plainCopy(resp).AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	body, spans, text := encodeSpans(t, resp)
	if !bytes.Equal(body, want) {
		t.Fatalf("the page with its memo encodes to\n%s\nwithout it to\n%s", body, want)
	}
	if !bytes.Equal(text, jsonenc.AppendJSONAsString(nil, want)) {
		t.Fatal("the text block made from the spans differs from the escaped body")
	}
	if len(spans) != len(resp.Locations) {
		t.Fatalf("%d spans for %d Locations: not every Location was copied", len(spans), len(resp.Locations))
	}
	for i, sp := range spans {
		one, err := resp.Locations[i].AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(sp.Encoded.JSON(), one) || !bytes.HasPrefix(body[sp.Start:], one) {
			t.Fatalf("span %d does not hold Location %s at its offset", i, resp.Locations[i].ID)
		}
	}

	// The next call for the same page shares the encodings made by the first.
	again, err := s.Search(ctx, nil, searchReq(t, req))
	if err != nil {
		t.Fatal(err)
	}
	_, spans2, _ := encodeSpans(t, again)
	if len(spans2) != len(spans) || spans2[0].Encoded != spans[0].Encoded {
		t.Fatal("a second search made its encodings again")
	}

	// A Location the hooks change after the service is encoded as it now is;
	// the others are still copied.
	resp.Locations[3].Name = "Renamed <&> after the search"
	resp.Locations[7] = resp.Locations[8]
	want, err = plainCopy(resp).AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	body, spans, text = encodeSpans(t, resp)
	if !bytes.Equal(body, want) || !bytes.Equal(text, jsonenc.AppendJSONAsString(nil, want)) {
		t.Fatalf("a changed page encodes to\n%s\nwant\n%s", body, want)
	}
	if len(spans) != len(resp.Locations)-2 {
		t.Fatalf("%d spans after changing 2 of %d Locations", len(spans), len(resp.Locations))
	}
}

// TestSearchWithoutKeptLocationsEncodes: past keepDecodedUpTo a Source
// decodes each candidate again, keeps no encoding, and the page is encoded
// afresh with the same bytes.
func TestSearchWithoutKeptLocationsEncodes(t *testing.T) {
	saved := keepDecodedUpTo
	keepDecodedUpTo = 0
	defer func() { keepDecodedUpTo = saved }()
	s := newStore(t, testOptions{})
	resp, err := s.Search(context.Background(), nil, searchReq(t, `{"pagination":{"limit":25}}`))
	if err != nil {
		t.Fatal(err)
	}
	want, err := plainCopy(resp).AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	body, spans, _ := encodeSpans(t, resp)
	if len(spans) != 0 || !bytes.Equal(body, want) {
		t.Fatalf("%d spans without kept Locations; body equal: %v", len(spans), bytes.Equal(body, want))
	}
}

// TestConcurrentSearchesShareEncodings runs the first searches of a Source
// side by side (under -race in CI): they make the views and encodings
// together, and every page encodes to the same bytes.
func TestConcurrentSearchesShareEncodings(t *testing.T) {
	s := newStore(t, testOptions{})
	req := searchReq(t, `{"pagination":{"limit":40}}`)
	bodies := make([][]byte, 8)
	errs := make(chan error, len(bodies))
	for i := range bodies {
		go func() {
			resp, err := s.Search(context.Background(), nil, req)
			if err == nil {
				bodies[i], err = resp.AppendJSON(nil)
			}
			errs <- err
		}()
	}
	for range bodies {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for i := range bodies {
		if !bytes.Equal(bodies[i], bodies[0]) {
			t.Fatalf("search %d encoded differently from search 0", i)
		}
	}
}
