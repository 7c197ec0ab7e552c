package location_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/sampledata"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// appender is what every generated struct and union has.
type appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// updatePins rewrites testdata/encoded/*.sha256 from the current encoders.
var updatePins = flag.Bool("update", false, "rewrite testdata/encoded from the current encoders")

// pins holds the SHA-256 of every encoding a test checks, recorded from the
// encoders before MarshalJSON became a call of AppendJSON, so that the bytes
// of both are held to what they were and not only to each other.
type pins struct {
	file string
	want map[string]string
	got  map[string]string
}

// loadPins reads testdata/encoded/<set>.sha256, or with -update arranges to
// write it when the test ends.
func loadPins(t *testing.T, set string) *pins {
	t.Helper()
	p := &pins{file: filepath.Join("testdata", "encoded", set+".sha256"), want: map[string]string{}, got: map[string]string{}}
	if *updatePins {
		t.Cleanup(func() {
			var lines []string
			for name, sum := range p.got {
				lines = append(lines, sum+"  "+name)
			}
			sort.Strings(lines)
			if err := os.MkdirAll(filepath.Dir(p.file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p.file, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		})
		return p
	}
	data, err := os.ReadFile(p.file)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("%s: bad line %q", p.file, line)
		}
		p.want[name] = sum
	}
	return p
}

// check compares one encoding (nil for an error) with its pinned digest.
func (p *pins) check(t *testing.T, name string, b []byte, err error) {
	t.Helper()
	sum := "error"
	if err == nil {
		h := sha256.Sum256(b)
		sum = hex.EncodeToString(h[:])
	}
	if *updatePins {
		p.got[name] = sum
		return
	}
	want, ok := p.want[name]
	switch {
	case !ok:
		t.Fatalf("%s: no digest pinned in %s (run with -update)", name, p.file)
	case want != sum:
		t.Fatalf("%s: encoding changed: sha256 %s, pinned %s in %s\n%s", name, sum, want, p.file, b)
	}
}

// sameAsMarshal requires AppendJSON to write exactly the bytes json.Marshal
// writes for v, or to fail exactly when json.Marshal fails; with pinned
// digests it also holds both to the bytes recorded in p.
func sameAsMarshal(t *testing.T, p *pins, name string, v appender) []byte {
	t.Helper()
	want, werr := json.Marshal(v)
	got, gerr := v.AppendJSON(nil)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%s: json.Marshal error %v, AppendJSON error %v", name, werr, gerr)
	}
	if werr == nil && !bytes.Equal(got, want) {
		t.Fatalf("%s: AppendJSON differs from json.Marshal\n got: %s\nwant: %s", name, got, want)
	}
	if p != nil {
		p.check(t, name, want, werr)
	}
	return want
}

// TestAppendJSONOnDataset encodes every store of the example dataset as a
// Location, a LookupLocation and inside search and lookup responses.
func TestAppendJSONOnDataset(t *testing.T) {
	recs, err := sampledata.Records()
	if err != nil {
		t.Fatal(err)
	}
	p := loadPins(t, "dataset")
	// One digest per kind over every record keeps the pinned file short.
	var allLocs, allLookups []byte
	var locs []location.Location
	var lookups []location.LookupLocation
	for i, r := range recs {
		var l location.Location
		if err := json.Unmarshal(r.Location, &l); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		allLocs = append(append(allLocs, sameAsMarshal(t, nil, fmt.Sprintf("record %d Location", i), &l)...), '\n')
		locs = append(locs, l)
		withInputs := bytes.TrimSuffix(bytes.TrimSpace(r.Location), []byte("}"))
		withInputs = append(withInputs, []byte(`,"inputs":[{"id":"`+l.ID+`"}]}`)...)
		var ll location.LookupLocation
		if err := json.Unmarshal(withInputs, &ll); err != nil {
			t.Fatalf("record %d as LookupLocation: %v", i, err)
		}
		allLookups = append(append(allLookups, sameAsMarshal(t, nil, fmt.Sprintf("record %d LookupLocation", i), &ll)...), '\n')
		lookups = append(lookups, ll)
	}
	p.check(t, "every record as a Location", allLocs, nil)
	p.check(t, "every record as a LookupLocation", allLookups, nil)
	for start := 0; start < len(locs); start += 50 {
		end := min(start+50, len(locs))
		sr := location.SearchResponse{
			UCP:        location.UCPLocationResponseSchema{Version: "2026-08-25"},
			Locations:  locs[start:end],
			Pagination: opt.Some(location.PaginationResponse{HasNextPage: end < len(locs), Cursor: opt.Some("c<&>"), TotalCount: opt.Some(int64(len(locs)))}),
		}
		sameAsMarshal(t, p, fmt.Sprintf("search page %d", start), &sr)
		lr := location.LookupResponse{
			UCP:       location.UCPLocationResponseSchema{Version: "2026-08-25"},
			Locations: lookups[start:end],
			Messages: opt.Some([]location.Message{{Info: &location.MessageInfo{
				Type: "info", Code: opt.Some(location.InfoCode("not_found")), Content: "Identifier \"x\" <not> found \u2028",
			}}}),
		}
		sameAsMarshal(t, p, fmt.Sprintf("lookup page %d", start), &lr)
	}
}

// TestAppendJSONEdgeCases covers what the dataset never holds: empty and nil
// lists, unknown members with awkward names and values, and invalid unions.
func TestAppendJSONEdgeCases(t *testing.T) {
	cases := map[string]appender{
		"zero search response": &location.SearchResponse{},
		"nil optional list":    &location.SearchResponse{Messages: opt.Some[[]location.Message](nil)},
		"unknown members": &location.SearchResponse{Unknown: map[string]json.RawMessage{
			"z<": json.RawMessage(` { "b" : [ 1 , 2.50 ] } `), "a\u2028": json.RawMessage(`"&"`), "m": nil,
		}},
		"unknown duplicates a member":    &location.SearchResponse{Unknown: map[string]json.RawMessage{"locations": json.RawMessage(`[]`)}},
		"unknown not JSON":               &location.SearchResponse{Unknown: map[string]json.RawMessage{"x": json.RawMessage(`{`)}},
		"union with no variant":          &location.Message{},
		"union with two variants":        &location.Message{Info: &location.MessageInfo{Type: "info"}, Warning: &location.MessageWarning{Type: "warning"}},
		"geo with tiny and huge numbers": &location.Location{ID: "a", Name: "b", Geo: opt.Some(location.Geo{Latitude: 1e-7, Longitude: -1e21})},
	}
	p := loadPins(t, "edge")
	for name, v := range cases {
		sameAsMarshal(t, p, name, v)
	}
}

// TestAppendJSONOnReleaseExamples encodes every release example payload as
// the generated type its annotation names.
func TestAppendJSONOnReleaseExamples(t *testing.T) {
	p := loadPins(t, "examples")
	for _, ex := range releaseExamples(t) {
		v, ok := ex.mk().(appender)
		if !ok {
			t.Fatalf("%s: %T has no AppendJSON", ex.name, ex.mk())
		}
		if err := json.Unmarshal(ex.payload, v); err != nil {
			t.Fatalf("%s: decode into %T: %v", ex.name, v, err)
		}
		sameAsMarshal(t, p, ex.name, v)
	}
}

// FuzzAppendJSON decodes arbitrary input into the response types and
// requires AppendJSON and json.Marshal to agree on every value that decodes.
func FuzzAppendJSON(f *testing.F) {
	f.Add([]byte(`{"ucp":{"version":"v"},"locations":[{"id":"a","name":"<b>","geo":{"latitude":1e-7,"longitude":2}}]}`))
	f.Add([]byte(`{"id":"a","name":"n","amenities":{"x.y":{"description":"\u2028"}},"extra":[1,{"a":null}]}`))
	f.Add([]byte(`{"ucp":{"version":"v"},"locations":[],"messages":[{"type":"info","content":"c"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, v := range []appender{new(location.SearchResponse), new(location.LookupResponse), new(location.Location)} {
			if json.Unmarshal(data, v) == nil {
				sameAsMarshal(t, nil, "fuzz", v)
			}
		}
	})
}

// benchResponses are a search page of 10 and a lookup page of 50 from the
// example dataset, with the ucp member the runtime fills in.
func benchResponses(b *testing.B) (*location.SearchResponse, *location.LookupResponse, []byte) {
	recs, err := sampledata.Records()
	if err != nil {
		b.Fatal(err)
	}
	sr := &location.SearchResponse{Pagination: opt.Some(location.PaginationResponse{HasNextPage: true, Cursor: opt.Some("abc")})}
	lr := &location.LookupResponse{}
	for i, r := range recs[:50] {
		var l location.Location
		if err := json.Unmarshal(r.Location, &l); err != nil {
			b.Fatal(err)
		}
		if i < 10 {
			sr.Locations = append(sr.Locations, l)
		}
		withInputs := append(bytes.TrimSuffix(bytes.TrimSpace(r.Location), []byte("}")), []byte(`,"inputs":[{"id":"`+l.ID+`"}]}`)...)
		var ll location.LookupLocation
		if err := json.Unmarshal(withInputs, &ll); err != nil {
			b.Fatal(err)
		}
		lr.Locations = append(lr.Locations, ll)
	}
	ucp := []byte(`{"version":"2026-08-25","capabilities":{"dev.ucp.common.location.search":[{"version":"2026-08-25"}]}}`)
	return sr, lr, ucp
}

// BenchmarkEncodeResponse compares the one-pass encoder with the previous
// path (json.Marshal through every nested MarshalJSON, then SetMember
// re-reading the body to put ucp in), on the same values in the same run.
func BenchmarkEncodeResponse(b *testing.B) {
	sr, lr, ucp := benchResponses(b)
	for _, c := range []struct {
		name string
		v    interface {
			AppendJSONWithUCP(b, ucp []byte) ([]byte, error)
		}
	}{{"search10", sr}, {"lookup50", lr}} {
		b.Run(c.name+"/marshal+setmember", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				body, err := json.Marshal(c.v)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ucpcore.SetMember(body, "ucp", json.RawMessage(ucp)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/appendjson", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.v.AppendJSONWithUCP(make([]byte, 0, 4096), ucp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
