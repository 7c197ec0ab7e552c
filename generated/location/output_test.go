package location_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/opt"
	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// badHooks answers with payloads that break the response schemas: a
// latitude beyond 90, and a lookup Location whose required inputs were left
// nil (written as [], which minItems 1 refuses).
type badHooks struct{}

func (badHooks) SearchLocations(ctx context.Context, meta *location.Meta, req *location.SearchRequest) (*location.SearchResponse, error) {
	return &location.SearchResponse{Locations: []location.Location{{
		ID: "loc_1", Name: "One", Geo: opt.Some(location.Geo{Latitude: 95, Longitude: 0}),
	}}}, nil
}

func (badHooks) LookupLocations(ctx context.Context, meta *location.Meta, req *location.LookupRequest) (*location.LookupResponse, error) {
	return &location.LookupResponse{Locations: []location.LookupLocation{{ID: "loc_1", Name: "One"}}}, nil
}

// TestValidateOutput drives the output-validation option the way a service
// uses it in tests and debug builds: with it on, a hook's invalid response
// becomes -32603 and the log names the pointer and the rule; with it off,
// the same response goes out unchanged.
func TestValidateOutput(t *testing.T) {
	for _, tc := range []struct {
		tool, args, logWant string
	}{
		{"search_locations", `{"meta":` + goodMeta + `,"location":{}}`, "/locations/0/geo/latitude: must be <= 90, got 95"},
		{"lookup_locations", `{"meta":` + goodMeta + `,"location":{"ids":["loc_1"]}}`, "/locations/0/inputs: must have at least 1 item, got 0"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			var logs bytes.Buffer
			on := connect(t, badHooks{}, &ucpcore.Options{ValidateOutput: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			_, err := call(t, on, tc.tool, tc.args)
			je := wireError(t, err)
			if je.Code != -32603 {
				t.Fatalf("validated output: client saw %d %s, want -32603", je.Code, je.Message)
			}
			if strings.Contains(je.Message, "latitude") || strings.Contains(string(je.Data), "latitude") {
				t.Errorf("the schema failure leaked to the client: %s %s", je.Message, je.Data)
			}
			if !strings.Contains(logs.String(), tc.logWant) {
				t.Errorf("log does not name the violation %q:\n%s", tc.logWant, logs.String())
			}

			off := connect(t, badHooks{}, nil)
			res, err := call(t, off, tc.tool, tc.args)
			if err != nil || res.IsError {
				t.Fatalf("without the option the response should go out: %v %+v", err, res)
			}
			body, _ := json.Marshal(res.StructuredContent)
			if !strings.Contains(string(body), `"loc_1"`) {
				t.Errorf("unexpected response without validation: %s", body)
			}
		})
	}
}

// TestEmptyResultsEncodeAsEmptyLists checks the answer a hook gives when it
// finds nothing, a response with its required list left nil: it must encode
// as [] (the schema refuses null) and pass the response schema.
func TestEmptyResultsEncodeAsEmptyLists(t *testing.T) {
	ucp := location.UCPLocationResponseSchema{Version: location.ProtocolVersion}
	for name, v := range map[string]interface{ Validate() error }{
		"search": &location.SearchResponse{UCP: ucp},
		"lookup": &location.LookupResponse{UCP: ucp},
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"locations":[]`) {
			t.Errorf("%s: empty response encodes as %s, want \"locations\":[]", name, b)
		}
		if err := v.Validate(); err != nil {
			t.Errorf("%s: empty response fails its schema: %v", name, err)
		}
	}
}
