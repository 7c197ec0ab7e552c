package openapicheck

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shopDoc is a document of one operation in the shape of UCP's REST
// binding: a required header with a uuid format, a JSON request body, and
// the statuses it may answer.
const shopDoc = `{
  "openapi": "3.1.0",
  "info": {"title": "shop", "version": "1"},
  "paths": {
    "/locations/search": {
      "post": {
        "operationId": "search",
        "parameters": [
          {"name": "Request-Id", "in": "header", "required": true, "schema": {"type": "string", "format": "uuid"}}
        ],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object"}}}},
        "responses": {
          "200": {"description": "found"},
          "400": {"description": "refused"}
        }
      }
    }
  }
}`

func load(t *testing.T, doc string) *Checker {
	t.Helper()
	if !Usable {
		t.Skip("skipping: libopenapi's model builder races inside the library; the plain build runs this test")
	}
	p := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(p)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c
}

func searchRequest() *http.Request {
	req, _ := http.NewRequest(http.MethodPost, "https://shop.example/locations/search", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Request-Id", "0b6f3a52-7f1e-4c36-9d0e-2b1a5f4c8e11")
	return req
}

// TestCheckerRefusesEachSpoiledExchange: a request as the document
// declares it passes, and each single spoiling is refused with an error
// that says what is wrong.
func TestCheckerRefusesEachSpoiledExchange(t *testing.T) {
	c := load(t, shopDoc)
	if err := c.Request(searchRequest()); err != nil {
		t.Fatalf("a declared request is refused: %v", err)
	}
	for _, status := range []int{200, 400} {
		if err := c.Response(searchRequest(), status); err != nil {
			t.Errorf("declared status %d is refused: %v", status, err)
		}
	}
	for _, tc := range []struct {
		name  string
		spoil func(*http.Request)
		want  string
	}{
		{"missing header", func(r *http.Request) { r.Header.Del("Request-Id") }, "Request-Id"},
		{"header not a uuid", func(r *http.Request) { r.Header.Set("Request-Id", "not-a-uuid") }, "Request-Id"},
		{"undeclared media type", func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }, `"text/plain"`},
		{"unknown path", func(r *http.Request) { r.URL.Path = "/locations/nearby" }, "/locations/nearby"},
		{"undeclared method", func(r *http.Request) { r.Method = http.MethodGet }, "GET"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := searchRequest()
			tc.spoil(req)
			err := c.Request(req)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want a refusal naming %s", err, tc.want)
			}
		})
	}
	if err := c.Response(searchRequest(), http.StatusTeapot); err == nil || !strings.Contains(err.Error(), "418") {
		t.Errorf("undeclared status 418: err = %v, want a refusal naming it", err)
	}
}

// TestLoadRefusesWhatIsNotADocument: a missing file and bytes that are not
// an OpenAPI document are errors naming the file, not a Checker.
func TestLoadRefusesWhatIsNotADocument(t *testing.T) {
	if !Usable {
		t.Skip("skipping: libopenapi's model builder races inside the library; the plain build runs this test")
	}
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.json")
	if _, err := Load(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: err = %v, want one naming it", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"swagger": 7}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("not a document: err = %v, want one naming the file", err)
	}
}
