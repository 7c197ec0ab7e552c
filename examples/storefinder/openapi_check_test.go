package main

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/internal/openapicheck"
	"github.com/ucpgen/ucpgen/internal/testshared"
)

// The REST exchanges are held to the release's published OpenAPI document
// by openapicheck (path, method, header parameters, media type, status),
// and their bodies to the release's JSON Schemas with santhosh-tekuri
// (releaseCheck): the document's body schemas are absolute $refs into the
// release's schema tree, and once libopenapi inlines them the validator's
// schema compiler refuses the result for duplicate $ids (for example
// types/geo.json, used by both distance.center and serves.point).

var (
	openAPIOnce    sync.Once
	openAPIChecker *openapicheck.Checker
	openAPIErr     error
)

// publishedOpenAPI builds the checker once per test binary from the
// published document in ../shared.
func publishedOpenAPI(t *testing.T) *openapicheck.Checker {
	t.Helper()
	doc := testshared.Path(t, "ucp-upstream", "2026-08-25", "published", "services", "common", "rest.openapi.json")
	openAPIOnce.Do(func() { openAPIChecker, openAPIErr = openapicheck.Load(doc) })
	if openAPIErr != nil {
		t.Fatalf("OpenAPI checker from %s: %v", doc, openAPIErr)
	}
	return openAPIChecker
}

// TestRESTCheckerRefuses shows the OpenAPI checker and the release body
// check are not vacuous: each refuses a bad request or body it is given.
func TestRESTCheckerRefuses(t *testing.T) {
	if !openapicheck.Usable {
		t.Skip("the OpenAPI checker is off under the race detector (see openapicheck.Usable)")
	}
	c := publishedOpenAPI(t)
	good := func() *http.Request {
		req, _ := http.NewRequest(http.MethodPost, "https://business.example/locations/search", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("UCP-Agent", `profile="`+restProfile+`"`)
		req.Header.Set("Request-Id", nextRequestID())
		return req
	}
	if err := c.Request(good()); err != nil {
		t.Fatalf("a good request is refused: %v", err)
	}
	for name, spoil := range map[string]func(*http.Request){
		"no Request-Id":      func(r *http.Request) { r.Header.Del("Request-Id") },
		"Request-Id no UUID": func(r *http.Request) { r.Header.Set("Request-Id", "not-a-uuid") },
		"no UCP-Agent":       func(r *http.Request) { r.Header.Del("UCP-Agent") },
		"text/plain":         func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") },
		"unknown path":       func(r *http.Request) { r.URL.Path = "/locations/nearby" },
		"GET":                func(r *http.Request) { r.Method = http.MethodGet },
	} {
		req := good()
		spoil(req)
		if err := c.Request(req); err == nil {
			t.Errorf("%s: the checker accepts it", name)
		}
	}
	if err := c.Response(good(), http.StatusTeapot); err == nil {
		t.Error("status 418: the checker accepts it")
	}
	bodies := releaseSchemas(t)
	for name, doc := range map[string]string{
		"search_request":   `{"distance":{"max":-1}}`,
		"search_locations": `{"ucp":{"version":"2026-08-25"},"locations":[{"name":7}]}`,
		"lookup_locations": `{"locations":"none"}`,
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if bodies[name].Validate(v) == nil {
			t.Errorf("%s %s: the release schema accepts it", name, doc)
		}
	}
}
