package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestBothVersionsFromOneSource runs the README's two-version program as a
// Platform meets it: the current profile points at the previous version's
// leaf profile, and each endpoint answers one search in its own version's
// shapes (amenities a map now, a list before) from the same Location.
func TestBothVersionsFromOneSource(t *testing.T) {
	ts := httptest.NewUnstartedServer(nil)
	origin := "http://" + ts.Listener.Addr().String()
	h, err := business(origin)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = h
	ts.Start()
	defer ts.Close()

	var profile struct {
		UCP struct {
			Version           string
			SupportedVersions map[string]string `json:"supported_versions"`
		}
	}
	resp, err := http.Get(ts.URL + "/.well-known/ucp")
	if err != nil {
		t.Fatal(err)
	}
	err = json.NewDecoder(resp.Body).Decode(&profile)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := profile.UCP.SupportedVersions["2026-08-21"], origin+"/.well-known/ucp/2026-08-21"; got != want {
		t.Errorf("supported_versions[2026-08-21] = %q, want %q (profile %+v)", got, want, profile)
	}

	for _, tc := range []struct{ path, version, amenities string }{
		{"/ucp/mcp", "2026-08-25", `{"dev.ucp.amenity.wi_fi":{"description":"Free Wi-Fi"}}`},
		{"/ucp/2026-08-21/mcp", "2026-08-21", `["dev.ucp.amenity.wi_fi"]`},
	} {
		t.Run(tc.version, func(t *testing.T) {
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "platform", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + tc.path}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_locations", Arguments: json.RawMessage(
				`{"meta":{"ucp-agent":{"profile":"https://platform.example/profile.json"}},"location":{}}`)})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(res.StructuredContent)
			var got struct {
				UCP       struct{ Version string }
				Locations []struct {
					ID        string
					Amenities json.RawMessage
				}
			}
			if err := json.Unmarshal(b, &got); err != nil || res.IsError {
				t.Fatalf("answer %s (error %v)", b, err)
			}
			if got.UCP.Version != tc.version || len(got.Locations) != 1 || string(got.Locations[0].Amenities) != tc.amenities {
				t.Errorf("answer %s, want version %s and amenities %s", b, tc.version, tc.amenities)
			}
		})
	}
}

// TestReadmeShowsThisProgram keeps the README's "Keep serving the previous
// version" program identical to main.go up to the generated packages'
// import paths, so the README cannot rot.
func TestReadmeShowsThisProgram(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	want := string(src)
	for own, user := range map[string]string{
		`ucploc "github.com/ucpgen/ucpgen/generated/location"`:      `"example.com/shop/internal/ucploc"`,
		`old "github.com/ucpgen/ucpgen/generated/location20260821"`: `old "example.com/shop/internal/ucploc20260821"`,
	} {
		if strings.Count(want, own) != 1 {
			t.Fatalf("main.go does not import %s exactly once", own)
		}
		want = strings.Replace(want, own, user, 1)
	}
	if !strings.Contains(string(readme), "```go\n"+want+"```\n") {
		t.Error("README.md does not contain examples/twoversions/main.go, with the example.com/shop import paths, verbatim in a go code block; copy the file into the README")
	}
}
