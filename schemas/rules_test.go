package schemas

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/ucpgen/ucpgen/internal/testshared"
)

// Schema URLs the rule cases below validate against.
var (
	searchRequestURL  = schemaURL("schemas/common/location_search.json", "/$defs/search_request")
	searchResponseURL = schemaURL("schemas/common/location_search.json", "/$defs/search_response")
	lookupRequestURL  = schemaURL("schemas/common/location_lookup.json", "/$defs/lookup_request")
	lookupResponseURL = schemaURL("schemas/common/location_lookup.json", "/$defs/lookup_response")
	locationURL       = schemaURL("schemas/common/types/location.json", "")
	messageURL        = schemaURL("schemas/common/types/message.json", "")
	metaURL           = schemaURL(OpenRPCPath, "/components/schemas/meta")
)

// validateJSON compiles url from the embedded tree and validates the JSON
// text instance against it.
func validateJSON(t *testing.T, c *jsonschema.Compiler, url, instance string) error {
	t.Helper()
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compile %s: %v", url, err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(instance))
	if err != nil {
		t.Fatalf("decode instance %s: %v", instance, err)
	}
	return sch.Validate(v)
}

// TestSchemasEnforceLocationRules checks that the tree, used as a validator,
// accepts and rejects requests and responses as the schema-level rules of the
// Location capability (LOCATION.md sections 3-9) say, so the files are not
// only equal to upstream on paper but behave as validators.
func TestSchemasEnforceLocationRules(t *testing.T) {
	const geo = `{"latitude": 48.1, "longitude": 11.5}`
	const ucpOK = `{"version": "2026-08-25", "capabilities": {"dev.ucp.common.location.lookup": [{"version": "2026-08-25"}]}}`
	tests := []struct {
		name     string
		url      string
		instance string
		valid    bool
	}{
		{"empty search is a bounded browse", searchRequestURL, `{}`, true},
		{"query must be text", searchRequestURL, `{"query": 7}`, false},
		{"distance with center and max", searchRequestURL, `{"distance": {"center": ` + geo + `, "max": 500}}`, true},
		{"distance max zero matches only the center", searchRequestURL, `{"distance": {"center": ` + geo + `, "max": 0}}`, true},
		{"distance without center", searchRequestURL, `{"distance": {"max": 500}}`, false},
		{"distance without max", searchRequestURL, `{"distance": {"center": ` + geo + `}}`, false},
		{"distance max negative", searchRequestURL, `{"distance": {"center": ` + geo + `, "max": -1}}`, false},
		{"latitude beyond the pole", searchRequestURL, `{"distance": {"center": {"latitude": 90.5, "longitude": 0}, "max": 1}}`, false},
		{"longitude beyond the antimeridian", searchRequestURL, `{"distance": {"center": {"latitude": 0, "longitude": -180.01}, "max": 1}}`, false},
		{"serves point", searchRequestURL, `{"serves": {"point": ` + geo + `}}`, true},
		{"serves empty map", searchRequestURL, `{"serves": {}}`, false},
		{"serves two targets", searchRequestURL, `{"serves": {"point": ` + geo + `, "address": {"postal_code": "80331"}}}`, false},
		{"serves address by country", searchRequestURL, `{"serves": {"address": {"address_country": "DE"}}}`, true},
		{"serves address with only empty fields", searchRequestURL, `{"serves": {"address": {"postal_code": "", "address_region": ""}}}`, false},
		{"serves address with only unrecognised fields", searchRequestURL, `{"serves": {"address": {"city": "Munich"}}}`, false},
		{"serves extension key in reverse-domain form", searchRequestURL, `{"serves": {"org.example.zone": {"id": "z1"}}}`, true},
		{"serves key that is no reverse-domain name", searchRequestURL, `{"serves": {"Zone": {}}}`, false},
		{"hours filter with Z", searchRequestURL, `{"filters": {"hours": {"open_at": "2026-09-01T08:00:00Z"}}}`, true},
		{"hours filter with offset", searchRequestURL, `{"filters": {"hours": {"open_at": "2026-09-01T10:00:00+02:00"}}}`, true},
		{"hours filter without offset", searchRequestURL, `{"filters": {"hours": {"open_at": "2026-09-01T10:00:00"}}}`, false},
		{"hours filter without open_at", searchRequestURL, `{"filters": {"hours": {}}}`, false},
		{"amenities filter", searchRequestURL, `{"filters": {"amenities": ["dev.ucp.amenity.wi_fi"]}}`, true},
		{"amenity id with one segment", searchRequestURL, `{"filters": {"amenities": ["wifi"]}}`, false},
		{"items filter", searchRequestURL, `{"filters": {"items": ["sku-1", "sku-2"]}}`, true},
		{"items filter empty", searchRequestURL, `{"filters": {"items": []}}`, false},
		{"items filter repeated id", searchRequestURL, `{"filters": {"items": ["sku-1", "sku-1"]}}`, false},
		{"items filter empty id", searchRequestURL, `{"filters": {"items": [""]}}`, false},
		{"pagination limit one", searchRequestURL, `{"pagination": {"limit": 1, "cursor": "c"}}`, true},
		{"pagination limit zero", searchRequestURL, `{"pagination": {"limit": 0}}`, false},
		{"signals with reverse-domain keys", searchRequestURL, `{"signals": {"dev.ucp.buyer_ip": "192.0.2.1"}}`, true},
		{"signals with a plain key", searchRequestURL, `{"signals": {"ip": "192.0.2.1"}}`, false},
		{"lookup with ids", lookupRequestURL, `{"ids": ["loc_1", "loc_1"]}`, true},
		{"lookup without ids", lookupRequestURL, `{}`, false},
		{"lookup with empty ids", lookupRequestURL, `{"ids": []}`, false},
		{"location with hours and timezone", locationURL, `{"id": "a", "name": "A", "timezone": "Europe/Berlin", "hours": [{"day": "monday", "opens": "22:00", "closes": "02:00"}]}`, true},
		{"location with hours but no timezone", locationURL, `{"id": "a", "name": "A", "hours": [{"day": "monday", "opens": "09:00", "closes": "17:00"}]}`, false},
		{"location with exceptions but no timezone", locationURL, `{"id": "a", "name": "A", "exception_hours": [{"valid_from": "2026-12-25", "valid_through": "2026-12-25"}]}`, false},
		{"location without name", locationURL, `{"id": "a"}`, false},
		{"weekday capitalised", locationURL, `{"id": "a", "name": "A", "timezone": "UTC", "hours": [{"day": "Monday", "opens": "09:00", "closes": "17:00"}]}`, false},
		{"daily hour without closes", locationURL, `{"id": "a", "name": "A", "timezone": "UTC", "hours": [{"day": "monday", "opens": "09:00"}]}`, false},
		{"time 24:00", locationURL, `{"id": "a", "name": "A", "timezone": "UTC", "hours": [{"day": "monday", "opens": "09:00", "closes": "24:00"}]}`, false},
		{"exception full closure", locationURL, `{"id": "a", "name": "A", "timezone": "UTC", "exception_hours": [{"valid_from": "2026-12-25", "valid_through": "2026-12-26", "title": "Holidays"}]}`, true},
		{"exception with opens only", locationURL, `{"id": "a", "name": "A", "timezone": "UTC", "exception_hours": [{"valid_from": "2026-12-24", "valid_through": "2026-12-24", "opens": "09:00"}]}`, false},
		{"exception date not a date", locationURL, `{"id": "a", "name": "A", "timezone": "UTC", "exception_hours": [{"valid_from": "24.12.2026", "valid_through": "2026-12-24"}]}`, false},
		{"amenity map", locationURL, `{"id": "a", "name": "A", "amenities": {"dev.ucp.amenity.parking": {"description": "Parking"}}}`, true},
		{"amenity without description", locationURL, `{"id": "a", "name": "A", "amenities": {"dev.ucp.amenity.parking": {}}}`, false},
		{"amenity with empty description", locationURL, `{"id": "a", "name": "A", "amenities": {"dev.ucp.amenity.parking": {"description": ""}}}`, false},
		{"amenity keyed by a plain word", locationURL, `{"id": "a", "name": "A", "amenities": {"parking": {"description": "Parking"}}}`, false},
		{"lookup response with inputs", lookupResponseURL, `{"ucp": ` + ucpOK + `, "locations": [{"id": "a", "name": "A", "inputs": [{"id": "A-1"}]}]}`, true},
		{"lookup response location without inputs", lookupResponseURL, `{"ucp": ` + ucpOK + `, "locations": [{"id": "a", "name": "A"}]}`, false},
		{"lookup response with empty inputs", lookupResponseURL, `{"ucp": ` + ucpOK + `, "locations": [{"id": "a", "name": "A", "inputs": []}]}`, false},
		{"lookup response without ucp", lookupResponseURL, `{"locations": []}`, false},
		{"search response next page with cursor", searchResponseURL, `{"ucp": ` + ucpOK + `, "locations": [], "pagination": {"has_next_page": true, "cursor": "n"}}`, true},
		{"search response next page without cursor", searchResponseURL, `{"ucp": ` + ucpOK + `, "locations": [], "pagination": {"has_next_page": true}}`, false},
		{"search response last page without cursor", searchResponseURL, `{"ucp": ` + ucpOK + `, "locations": [], "pagination": {"has_next_page": false}}`, true},
		{"ucp status outside the enum", searchResponseURL, `{"ucp": {"version": "2026-08-25", "status": "partial"}, "locations": []}`, false},
		{"ucp version not a date", searchResponseURL, `{"ucp": {"version": "v1"}, "locations": []}`, false},
		{"info message without code", messageURL, `{"type": "info", "content": "2 ids were not processed"}`, true},
		{"info message without content", messageURL, `{"type": "info", "code": "not_found"}`, false},
		{"warning message without code", messageURL, `{"type": "warning", "content": "c"}`, false},
		{"error message without severity", messageURL, `{"type": "error", "code": "capabilities_incompatible", "content": "c"}`, false},
		{"error message complete", messageURL, `{"type": "error", "code": "capabilities_incompatible", "content": "c", "severity": "unrecoverable"}`, true},
		{"message of unknown type", messageURL, `{"type": "debug", "content": "c"}`, false},
		{"meta with profile", metaURL, `{"ucp-agent": {"profile": "https://platform.example/profile.json"}}`, true},
		{"meta without ucp-agent", metaURL, `{}`, false},
		{"meta without profile", metaURL, `{"ucp-agent": {}}`, false},
	}
	c := newCompiler()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := validateJSON(t, c, tc.url, tc.instance)
			var ve *jsonschema.ValidationError
			switch {
			case tc.valid && err != nil:
				t.Errorf("%s rejected %s: %v", tc.url, tc.instance, err)
			case !tc.valid && err == nil:
				t.Errorf("%s accepted %s, want a validation error", tc.url, tc.instance)
			case !tc.valid && !errors.As(err, &ve):
				t.Errorf("%s: want a *jsonschema.ValidationError, got %T: %v", tc.url, err, err)
			}
		})
	}
}

// TestOwnExamplesValidate checks that every value in an `examples` array of
// our tree is valid against the schema that lists it, so the examples we
// wrote ourselves cannot mislead a reader or a generated doc comment.
func TestOwnExamplesValidate(t *testing.T) {
	c := newCompiler()
	seen := 0
	for _, rel := range treeFiles(t, FS) {
		doc := readTree(t, FS, rel)
		for _, s := range annotationSites(rel, doc) {
			ex := s.node.field("examples")
			if !s.schema || ex == nil {
				continue
			}
			if ex.kind != 'a' {
				t.Errorf("%s#%s/examples: must be an array", rel, s.ptr)
				continue
			}
			sch, err := c.Compile(schemaURL(rel, s.ptr))
			if err != nil {
				t.Fatalf("compile %s#%s: %v", rel, s.ptr, err)
			}
			for i, e := range ex.elems {
				seen++
				if err := sch.Validate(e.value()); err != nil {
					t.Errorf("%s#%s/examples/%d: %v", rel, s.ptr, i, err)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no examples found; the tree is expected to carry some")
	}
}

// exampleAnnotation is the header of one worked example in the release.
type exampleAnnotation struct {
	Schema    string `json:"schema"`
	Def       string `json:"def"`
	Direction string `json:"direction"`
	Extract   string `json:"extract"`
}

// exampleTarget maps a release example's annotation to the schema URL it
// documents and the JSON Pointer of the validated part of its payload.
func exampleTarget(a exampleAnnotation) (url, ptr string, err error) {
	requestDefs := map[string]string{"common/location_search": "search_request", "common/location_lookup": "lookup_request"}
	responseDefs := map[string]string{"common/location_search": "search_response", "common/location_lookup": "lookup_response"}
	if a.Extract != "" {
		rest, ok := strings.CutPrefix(a.Extract, "$.")
		if !ok {
			return "", "", fmt.Errorf("extract %q: only $.a.b paths are understood", a.Extract)
		}
		ptr = "/" + strings.ReplaceAll(rest, ".", "/")
	}
	switch {
	case a.Schema == "profile" && a.Def != "":
		return schemaURL("schemas/ucp.json", "/$defs/"+a.Def), ptr + "/ucp", nil
	case a.Schema == "common/types/location":
		return schemaURL("schemas/common/types/location.json", ""), ptr, nil
	case a.Direction == "request" && requestDefs[a.Schema] != "":
		return schemaURL("schemas/"+a.Schema+".json", "/$defs/"+requestDefs[a.Schema]), ptr, nil
	case a.Direction == "response" && responseDefs[a.Schema] != "":
		return schemaURL("schemas/"+a.Schema+".json", "/$defs/"+responseDefs[a.Schema]), ptr, nil
	}
	return "", "", fmt.Errorf("annotation %+v names no schema this test knows", a)
}

// TestReleaseExamplesValidate checks our tree against the worked examples
// published with the release (requests, responses and a profile): equal
// structure should accept every one of them, and the MCP examples' meta
// must satisfy the OpenRPC meta schema.
func TestReleaseExamplesValidate(t *testing.T) {
	dir := os.DirFS(testshared.Path(t, "ucp-upstream", upstreamRelease, "examples"))
	files, err := fs.Glob(dir, "*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no release examples found (err=%v)", err)
	}
	c := newCompiler()
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			doc := readTree(t, dir, rel)
			var a exampleAnnotation
			raw, err := json.Marshal(doc.field("annotation").value())
			if err != nil {
				t.Fatalf("%s: encode annotation: %v", rel, err)
			}
			if err := json.Unmarshal(raw, &a); err != nil {
				t.Fatalf("%s: decode annotation: %v", rel, err)
			}
			url, ptr, err := exampleTarget(a)
			if err != nil {
				t.Fatalf("%s: %v", rel, err)
			}
			payload := doc.field("payload")
			part := payload.at(ptr)
			if part == nil {
				t.Fatalf("%s: payload has nothing at #%s", rel, ptr)
			}
			sch, err := c.Compile(url)
			if err != nil {
				t.Fatalf("compile %s: %v", url, err)
			}
			if err := sch.Validate(part.value()); err != nil {
				t.Errorf("%s#%s against %s: %v", rel, ptr, url, err)
			}
			if meta := payload.at("/params/arguments/meta"); meta != nil {
				msch, err := c.Compile(metaURL)
				if err != nil {
					t.Fatalf("compile %s: %v", metaURL, err)
				}
				if err := msch.Validate(meta.value()); err != nil {
					t.Errorf("%s#/params/arguments/meta: %v", rel, err)
				}
			}
		})
	}
}
