package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/domain/negotiation"
)

// brandsHandler is a payment handler whose instrument constraints are a
// plain map: valid at 2026-08-21, where constraints are any object, and
// invalid at 2026-08-25, where they are a constraint expression.
const brandsHandler = `{"com.example.pay":[{"id":"h1","version":"2026-01-01","spec":"https://pay.example/spec","schema":"https://pay.example/schema.json",
	  "available_instruments":[{"type":"card","constraints":{"brands":["visa"]}}]}]}`

// platformAt is a Platform profile at version offering search and lookup at
// that version; name is the version, or the version and "-brands" for a
// profile that also carries brandsHandler.
func platformAt(name string) string {
	version, brands := strings.CutSuffix(name, "-brands")
	handlers := "{}"
	if brands {
		handlers = brandsHandler
	}
	cap := func(name string) string {
		return `"dev.ucp.common.location.` + name + `":[{"version":"` + version + `","spec":"https://ucp.dev/` + version + `/specification/common/location/` + name +
			`","schema":"https://ucp.dev/` + version + `/schemas/common/location_` + name + `.json"}]`
	}
	return `{"ucp":{"version":"` + version + `",
	  "services":{"dev.ucp.common":[{"version":"` + version + `","spec":"https://ucp.dev/` + version + `/specification/overview","transport":"mcp","schema":"https://ucp.dev/` + version + `/services/common/mcp.openrpc.json"}]},
	  "capabilities":{` + cap("search") + `,` + cap("lookup") + `},
	  "payment_handlers":` + handlers + `}}`
}

// TestNegotiatedVersions runs the storefinder with --supported-versions
// and discovery on, against Platforms at each version: a supported one is
// answered at the version of the endpoint it calls, another supported one
// at that endpoint gets capabilities_incompatible, and any other version
// gets -32001 version_unsupported at every endpoint. A profile is checked
// by its own version's schema: one only 2026-08-21 allows passes there and
// is profile_malformed at 2026-08-25.
func TestNegotiatedVersions(t *testing.T) {
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(platformAt(strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), ".json"))))
	}))
	defer ts.Close()
	src, err := negotiation.NewHTTPSource(negotiation.HTTPOptions{AllowPrivateNetworks: true, TLSConfig: ts.Client().Transport.(*http.Transport).TLSClientConfig})
	if err != nil {
		t.Fatal(err)
	}
	older, err := olderBusinesses([]string{prevVersion}, notedHooks{})
	if err != nil {
		t.Fatal(err)
	}
	neg := &negotiation.ProfileNegotiator{Source: src, Current: negotiation.Business{Version: location.ProtocolVersion, Capabilities: offered(t)}, Older: older}
	base := startVersions(t, config{supported: prevVersion, negotiator: neg})
	endpoints := map[string]*mcp.ClientSession{
		location.ProtocolVersion: connectHTTP(t, base+mcpPath(location.ProtocolVersion)),
		prevVersion:              connectHTTP(t, base+mcpPath(prevVersion)),
	}
	tests := []struct {
		endpoint, platform string
		wantVersion        string // "" : a -32001 error with wantCode
		wantCompatible     bool
		wantCode           string
	}{
		{location.ProtocolVersion, location.ProtocolVersion, location.ProtocolVersion, true, ""},
		{prevVersion, prevVersion, prevVersion, true, ""},
		{location.ProtocolVersion, prevVersion, location.ProtocolVersion, false, ""},
		{prevVersion, location.ProtocolVersion, prevVersion, false, ""},
		{location.ProtocolVersion, "2026-01-11", "", false, "version_unsupported"},
		{prevVersion, "2026-01-11", "", false, "version_unsupported"},
		{prevVersion, "2027-01-01", "", false, "version_unsupported"},
		// Each Platform is checked by the profile schema of its version.
		{prevVersion, prevVersion + "-brands", prevVersion, true, ""},
		{location.ProtocolVersion, location.ProtocolVersion + "-brands", "", false, "profile_malformed"},
	}
	for _, tt := range tests {
		t.Run("platform "+tt.platform+" at "+tt.endpoint, func(t *testing.T) {
			meta := `{"ucp-agent":{"profile":"` + ts.URL + `/` + tt.platform + `.json"}}`
			res, err := endpoints[tt.endpoint].CallTool(t.Context(), &mcp.CallToolParams{Name: "lookup_locations", Arguments: json.RawMessage(`{"meta":` + meta + `,"location":{"ids":["no-such-store"]}}`)})
			if tt.wantVersion == "" {
				var rpcErr *jsonrpc.Error
				if !errors.As(err, &rpcErr) || rpcErr.Code != -32001 || !strings.Contains(string(rpcErr.Data), `"`+tt.wantCode+`"`) {
					t.Fatalf("err = %v, want -32001 %s", err, tt.wantCode)
				}
				if tt.wantCode == "profile_malformed" {
					if !strings.Contains(rpcErr.Message, "constraints") {
						t.Errorf("message %q does not name constraints", rpcErr.Message)
					}
					return
				}
				for _, v := range []string{tt.platform, location.ProtocolVersion, prevVersion} {
					if !strings.Contains(rpcErr.Message, v) {
						t.Errorf("message %q does not name %s", rpcErr.Message, v)
					}
				}
				return
			}
			if err != nil || res.IsError {
				t.Fatalf("lookup: %v %+v", err, res)
			}
			var out struct {
				UCP struct {
					Version string `json:"version"`
					Status  string `json:"status"`
				} `json:"ucp"`
				Messages []struct{ Code string } `json:"messages"`
			}
			b, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(b, &out); err != nil {
				t.Fatal(err)
			}
			if out.UCP.Version != tt.wantVersion {
				t.Errorf("ucp.version %q, want %s: %s", out.UCP.Version, tt.wantVersion, b)
			}
			incompatible := out.UCP.Status == "error" && len(out.Messages) == 1 && out.Messages[0].Code == "capabilities_incompatible"
			if incompatible == tt.wantCompatible {
				t.Errorf("compatible = %v, want %v: %s", !incompatible, tt.wantCompatible, b)
			}
		})
	}
}
