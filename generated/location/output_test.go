package location_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/mcpserver"
	"github.com/ucpgen/ucpgen/runtime/opt"
)

// badHooks answers with payloads that break the response schemas: a
// latitude beyond 90, and a lookup Location whose required inputs were left
// nil (encoding/json writes null).
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
		{"lookup_locations", `{"meta":` + goodMeta + `,"location":{"ids":["loc_1"]}}`, "/locations/0/inputs: must be array, got null"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			var logs bytes.Buffer
			on := connect(t, badHooks{}, &mcpserver.Options{ValidateOutput: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
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
