package ucpcore_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// TestProfileHandlerMethods holds that the profile is served to GET and
// HEAD only, and that every other method gets a JSON 405 naming the
// allowed ones, as the Business's other refusals are JSON.
func TestProfileHandlerMethods(t *testing.T) {
	profile := []byte(`{"ucp":{"version":"2026-08-25"}}`)
	srv := httptest.NewServer(ucpcore.ProfileHandler(profile))
	defer srv.Close()
	for _, tc := range []struct {
		method string
		status int
	}{
		{http.MethodGet, 200}, {http.MethodHead, 200},
		{http.MethodPost, 405}, {http.MethodPut, 405}, {http.MethodDelete, 405}, {"PATCH", 405}, {"BREW", 405},
	} {
		t.Run(tc.method, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, srv.URL+"/.well-known/ucp", strings.NewReader(""))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Fatalf("Content-Type %q, want application/json", ct)
			}
			if tc.status == 200 {
				return
			}
			if allow := resp.Header.Get("Allow"); allow != "GET, HEAD" {
				t.Fatalf("Allow %q", allow)
			}
			var body struct{ Code, Content string }
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatalf("405 body is not JSON: %v", err)
			}
			if body.Code != "method_not_allowed" || !strings.Contains(body.Content, "GET or HEAD") {
				t.Fatalf("405 body %+v", body)
			}
		})
	}
}
