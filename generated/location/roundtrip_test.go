package location_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/testshared"
)

// roundTrip decodes data into a fresh value from mk, encodes it again and
// requires semantically equal JSON (unknown members included).
func roundTrip(t *testing.T, name string, data []byte, mk func() any) {
	t.Helper()
	v := mk()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: decode into %T: %v", name, v, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: encode %T: %v", name, v, err)
	}
	var a, b any
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("%s: round trip through %T changed the JSON\n in: %s\nout: %s", name, v, data, out)
	}
}

func target(schema, direction string) func() any {
	switch schema + " " + direction {
	case "common/location_search request":
		return func() any { return new(location.SearchRequest) }
	case "common/location_search response":
		return func() any { return new(location.SearchResponse) }
	case "common/location_lookup request":
		return func() any { return new(location.LookupRequest) }
	case "common/location_lookup response":
		return func() any { return new(location.LookupResponse) }
	case "common/types/location response":
		return func() any { return new(location.Location) }
	}
	return nil
}

// releaseExample is one release example that is a tool payload: the UCP
// value extracted from its envelope and a constructor of its generated type.
type releaseExample struct {
	name    string
	payload json.RawMessage
	mk      func() any
}

// releaseExamples reads every release example and keeps the tool payloads;
// discovery profiles, which no generated type models, are logged and left out.
func releaseExamples(t *testing.T) []releaseExample {
	t.Helper()
	dir := testshared.Path(t, "ucp-upstream", "2026-08-25", "examples")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	var out []releaseExample
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ex struct {
			Annotation struct{ Schema, Direction, Extract string }
			Payload    json.RawMessage
		}
		if err := json.Unmarshal(data, &ex); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		mk := target(ex.Annotation.Schema, ex.Annotation.Direction)
		if mk == nil {
			t.Logf("%s: %s is a discovery profile, not a tool payload; not a generated type", filepath.Base(f), ex.Annotation.Schema)
			continue
		}
		out = append(out, releaseExample{filepath.Base(f), testshared.Extract(t, ex.Payload, ex.Annotation.Extract), mk})
	}
	if len(out) < 16 {
		t.Fatalf("only %d tool-payload examples found", len(out))
	}
	return out
}

func TestRoundTripReleaseExamples(t *testing.T) {
	exs := releaseExamples(t)
	for _, ex := range exs {
		roundTrip(t, ex.name, ex.payload, ex.mk)
	}
	t.Logf("%d release examples round-tripped", len(exs))
}

// seedEnvelopes pulls the JSON-RPC envelopes out of the seed binding text.
func seedEnvelopes(t *testing.T) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(testshared.Path(t, "seed", "location-mcp-binding-2026-08-25.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	for i := 0; i < len(data); i++ {
		if data[i] != '{' {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(data[i:]))
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			continue
		}
		if bytes.Contains(raw, []byte(`"jsonrpc"`)) {
			out = append(out, raw)
			i += int(dec.InputOffset()) - 1
		}
	}
	return out
}

func TestRoundTripSeedEnvelopes(t *testing.T) {
	envs := seedEnvelopes(t)
	if len(envs) != 4 {
		t.Fatalf("found %d JSON-RPC envelopes in the seed, want 4 (two requests, two responses)", len(envs))
	}
	for i, env := range envs {
		var e struct {
			Params *struct {
				Name      string
				Arguments struct{ Meta, Location json.RawMessage }
			}
			Result *struct{ StructuredContent json.RawMessage }
		}
		if err := json.Unmarshal(env, &e); err != nil {
			t.Fatal(err)
		}
		switch {
		case e.Params != nil && e.Params.Name == "search_locations":
			roundTrip(t, "seed meta", e.Params.Arguments.Meta, func() any { return new(location.Meta) })
			roundTrip(t, "seed search request", e.Params.Arguments.Location, func() any { return new(location.SearchRequest) })
		case e.Params != nil && e.Params.Name == "lookup_locations":
			roundTrip(t, "seed meta", e.Params.Arguments.Meta, func() any { return new(location.Meta) })
			roundTrip(t, "seed lookup request", e.Params.Arguments.Location, func() any { return new(location.LookupRequest) })
		case e.Result != nil && bytes.Contains(e.Result.StructuredContent, []byte("inputs")):
			roundTrip(t, "seed lookup response", e.Result.StructuredContent, func() any { return new(location.LookupResponse) })
		case e.Result != nil:
			roundTrip(t, "seed search response", e.Result.StructuredContent, func() any { return new(location.SearchResponse) })
		default:
			t.Fatalf("envelope %d is neither a tools/call nor a result", i)
		}
	}
}

// TestUnknownMembersSurvive covers open objects at several depths.
func TestUnknownMembersSurvive(t *testing.T) {
	in := `{"ids":["a"],"x-extra":{"k":[1,2]},"filters":{"com.example.open_late":true,"items":["i1"]},"context":{"address_country":"US","com.example.hint":"x"}}`
	roundTrip(t, "unknowns", []byte(in), func() any { return new(location.LookupRequest) })
	in = `{"id":"l1","name":"N","amenities":{"dev.ucp.amenity.parking":{"description":"P","com.example.note":"n"}},"hours":[],"timezone":"UTC","z":null}`
	roundTrip(t, "location", []byte(in), func() any { return new(location.Location) })
}
