package conform

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMCPFramingFindsEachBreach holds the MCP reader to the framing rules:
// each answer below breaks one (or none) and the breach is named.
func TestMCPFramingFindsEachBreach(t *testing.T) {
	const ucp = `{"ucp":{"version":"2026-08-25"},"locations":[]}`
	text, _ := json.Marshal(ucp)
	good := `{"type":"text","text":` + string(text) + `}`
	cases := []struct {
		name        string
		contentType string
		body        string // %ID% is the request id
		want        string // "" : no breach
	}{
		{"a JSON answer", "application/json", `{"jsonrpc":"2.0","id":%ID%,"result":{"content":[` + good + `],"structuredContent":` + ucp + `}}`, ""},
		{"an event stream", "text/event-stream", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%ID%,\"result\":{\"content\":[" + good + "],\"structuredContent\":" + ucp + "}}\n\n", ""},
		{"another id", "application/json", `{"jsonrpc":"2.0","id":"other","result":{"content":[` + good + `],"structuredContent":` + ucp + `}}`, "does not echo the request id"},
		{"jsonrpc 1.0", "application/json", `{"jsonrpc":"1.0","id":%ID%,"result":{"content":[` + good + `],"structuredContent":` + ucp + `}}`, `not "2.0"`},
		{"result and error", "application/json", `{"jsonrpc":"2.0","id":%ID%,"result":{},"error":{"code":-32602,"message":"x"}}`, "exactly one of result and error"},
		{"no structuredContent", "application/json", `{"jsonrpc":"2.0","id":%ID%,"result":{"content":[` + good + `]}}`, "no structuredContent"},
		{"text differs", "application/json", `{"jsonrpc":"2.0","id":%ID%,"result":{"content":[{"type":"text","text":"{}"}],"structuredContent":` + ucp + `}}`, "no text block with the same JSON"},
		{"a tool error", "application/json", `{"jsonrpc":"2.0","id":%ID%,"result":{"isError":true,"content":[` + good + `],"structuredContent":` + ucp + `}}`, "isError"},
		{"plain text", "text/plain", `oops`, "Content-Type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var req struct {
					ID json.RawMessage `json:"id"`
				}
				_ = json.NewDecoder(r.Body).Decode(&req)
				w.Header().Set("Content-Type", tc.contentType)
				_, _ = w.Write([]byte(strings.ReplaceAll(tc.body, "%ID%", string(req.ID))))
			}))
			defer srv.Close()
			m := &mcpTransport{c: newClient(srv.Client(), 1000, 10), endpoint: srv.URL, agent: "https://platform.example/p"}
			for range 2 { // a number id, then a string id
				r, err := m.call(context.Background(), opSearch, json.RawMessage(`{}`))
				if err != nil {
					t.Fatal(err)
				}
				got := strings.Join(r.framing, "; ")
				if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
					t.Fatalf("framing %q, want it to name %q", got, tc.want)
				}
			}
		})
	}
}

// TestHasPointerAcceptsTheMemberItsParentOrAnEntry pins which JSON
// Pointers in an error name the bad member: the member, its parent (for
// an unknown or missing key) or an entry below it, at any depth of data.
func TestHasPointerAcceptsTheMemberItsParentOrAnEntry(t *testing.T) {
	cases := []struct {
		data, want string
		ok         bool
	}{
		{`{"violations":[{"pointer":"/location/distance/max"}]}`, "/location/distance/max", true},
		{`{"pointer":"/location/distance"}`, "/location/distance/max", true},
		{`{"errors":[{"at":"/filters/items/1"}]}`, "/filters/items", true},
		{`{"pointer":"/location"}`, "/location/distance/max", false},
		{`{"pointer":"/location/distance/maximum"}`, "/location/distance/max", false},
		{`{"message":"distance.max must be >= 0"}`, "/location/distance/max", false},
		{`not json`, "/ids", false},
		{`{"code":"invalid_profile_url"}`, "invalid_profile_url", true},
	}
	for _, tc := range cases {
		if got := hasPointer(json.RawMessage(tc.data), tc.want); got != tc.ok {
			t.Errorf("hasPointer(%s, %q) = %v, want %v", tc.data, tc.want, got, tc.ok)
		}
	}
}
