package main

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	vconfig "github.com/pb33f/libopenapi-validator/config"
	valerrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/parameters"
	"github.com/pb33f/libopenapi-validator/paths"
	"github.com/pb33f/libopenapi/datamodel"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// openAPICheck holds REST exchanges to the release's published OpenAPI
// document with libopenapi-validator, which shares no code with ucpgen's
// generated validators or its REST handler: the path and method, every
// declared header parameter, the request media type and the response
// status. Bodies are held to the release's JSON Schemas with santhosh-tekuri
// (releaseCheck) instead: the document's body schemas are absolute $refs
// into the release's schema tree, and once libopenapi inlines them the
// validator's schema compiler refuses the result for duplicate $ids (for
// example types/geo.json, used by both distance.center and serves.point).
type openAPICheck struct {
	model  *v3.Document
	params parameters.ParameterValidator
	opts   *vconfig.ValidationOptions
}

var (
	openAPIOnce  sync.Once
	openAPIModel openAPICheck
	openAPIErr   error
)

// publishedOpenAPI builds the checker once per test binary from the
// published document in ../shared.
func publishedOpenAPI(t *testing.T) openAPICheck {
	t.Helper()
	doc := testshared.Path(t, "ucp-upstream", "2026-08-25", "published", "services", "common", "rest.openapi.json")
	openAPIOnce.Do(func() { openAPIModel, openAPIErr = buildOpenAPI(doc) })
	if openAPIErr != nil {
		t.Fatalf("OpenAPI checker from %s: %v", doc, openAPIErr)
	}
	return openAPIModel
}

// buildOpenAPI reads the document at path. External $refs (the body
// schemas, which releaseCheck covers) are left unresolved.
func buildOpenAPI(path string) (openAPICheck, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return openAPICheck{}, err
	}
	d, err := libopenapi.NewDocumentWithConfiguration(raw, &datamodel.DocumentConfiguration{SkipExternalRefResolution: true})
	if err != nil {
		return openAPICheck{}, fmt.Errorf("parse: %w", err)
	}
	m, err := d.BuildV3Model()
	if err != nil {
		return openAPICheck{}, fmt.Errorf("model: %w", err)
	}
	opts := vconfig.NewValidationOptions(vconfig.WithFormatAssertions())
	return openAPICheck{model: &m.Model, params: parameters.NewParameterValidator(&m.Model, vconfig.WithFormatAssertions()), opts: opts}, nil
}

// operation finds the document's operation for req, or says why none.
func (c openAPICheck) operation(req *http.Request) (*v3.Operation, error) {
	item, errs, found := paths.FindPath(req, c.model, c.opts)
	if len(errs) > 0 {
		return nil, validationErrors(errs)
	}
	op := item.GetOperations().GetOrZero(strings.ToLower(req.Method))
	if op == nil {
		return nil, fmt.Errorf("%s %s: no such operation in the document", req.Method, found)
	}
	return op, nil
}

// request reports what the document refuses in a REST request as sent.
func (c openAPICheck) request(req *http.Request) error {
	op, err := c.operation(req)
	if err != nil {
		return err
	}
	item, _, found := paths.FindPath(req, c.model, c.opts)
	if ok, errs := c.params.ValidateHeaderParamsWithPathItem(req, item, found); !ok {
		return validationErrors(errs)
	}
	if op.RequestBody == nil || op.RequestBody.Content == nil {
		return fmt.Errorf("%s %s declares no request body", req.Method, found)
	}
	mt := strings.TrimSpace(strings.Split(req.Header.Get("Content-Type"), ";")[0])
	if _, ok := op.RequestBody.Content.Get(mt); !ok {
		return fmt.Errorf("%s %s: Content-Type %q is not a declared request media type", req.Method, found, mt)
	}
	return nil
}

// response reports whether the document declares status for req's operation.
func (c openAPICheck) response(req *http.Request, status int) error {
	op, err := c.operation(req)
	if err != nil {
		return err
	}
	if op.Responses == nil {
		return fmt.Errorf("%s %s declares no responses", req.Method, req.URL.Path)
	}
	if _, ok := op.Responses.Codes.Get(strconv.Itoa(status)); !ok && op.Responses.Default == nil {
		return fmt.Errorf("%s %s: status %d is not a declared response", req.Method, req.URL.Path, status)
	}
	return nil
}

func validationErrors(errs []*valerrors.ValidationError) error {
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Message+": "+e.Reason)
	}
	return fmt.Errorf("%s", strings.Join(msgs, "; "))
}

// TestRESTCheckerRefuses shows the OpenAPI checker and the release body
// check are not vacuous: each refuses a bad request or body it is given.
func TestRESTCheckerRefuses(t *testing.T) {
	if !openAPIChecked() {
		t.Skip("the OpenAPI checker is off under the race detector (see race_on_test.go)")
	}
	c := publishedOpenAPI(t)
	good := func() *http.Request {
		req, _ := http.NewRequest(http.MethodPost, "https://business.example/locations/search", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("UCP-Agent", `profile="`+restProfile+`"`)
		req.Header.Set("Request-Id", nextRequestID())
		return req
	}
	if err := c.request(good()); err != nil {
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
		if err := c.request(req); err == nil {
			t.Errorf("%s: the checker accepts it", name)
		}
	}
	if err := c.response(good(), http.StatusTeapot); err == nil {
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
