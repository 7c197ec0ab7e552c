package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	ucploc "github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/restserver"
)

// TestBusinessServesBothTransports runs the README's program the way a
// Platform meets it: the profile lists both transports and both Location
// capabilities, REST answers a search, a path of no implemented capability
// is a JSON 404, and MCP lists the two tools.
func TestBusinessServesBothTransports(t *testing.T) {
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
			Version      string
			Services     map[string][]struct{ Transport, Endpoint string }
			Capabilities map[string]json.RawMessage
		}
	}
	getJSON(t, ts.URL+"/.well-known/ucp", &profile)
	var transports []string
	for _, s := range profile.UCP.Services["dev.ucp.common"] {
		transports = append(transports, s.Transport+" "+s.Endpoint)
	}
	slices.Sort(transports)
	if want := []string{"mcp " + origin + "/ucp/mcp", "rest " + origin + "/ucp"}; !slices.Equal(transports, want) {
		t.Errorf("profile services = %v, want %v", transports, want)
	}
	for _, c := range []string{"dev.ucp.common.location.search", "dev.ucp.common.location.lookup"} {
		if _, ok := profile.UCP.Capabilities[c]; !ok {
			t.Errorf("profile lacks %s: %v", c, profile.UCP.Capabilities)
		}
	}

	status, _, body := post(t, ts.URL+"/ucp/locations/search", `{"distance":{"center":{"latitude":51.5072,"longitude":-0.1276},"max":4000},"pagination":{"limit":2}}`)
	if status != http.StatusOK || !strings.Contains(body, `"id":"s1"`) {
		t.Errorf("REST search: %d %s", status, body)
	}
	status, ctype, body := post(t, ts.URL+"/ucp/ask", `{}`)
	if status != http.StatusNotFound || ctype != "application/json" {
		t.Errorf("POST /ucp/ask: %d %s %s, want a JSON 404", status, ctype, body)
	}

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/ucp/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if want := []string{"lookup_locations", "search_locations"}; !slices.Equal(names, want) {
		t.Errorf("tools/list = %v, want %v", names, want)
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

func post(t *testing.T, url, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("UCP-Agent", `profile="https://platform.example/profile.json"`)
	req.Header.Set("Request-Id", "8ef9b0c2-78d1-4e4b-91c2-3e2ef0d3ab9f")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// TestRESTRoutesWhatHooksImplement serves the shop's hooks over REST with a
// capability left out: its operation is a JSON 404 like any unknown path,
// the other answers, and hooks that implement nothing are refused.
func TestRESTRoutesWhatHooksImplement(t *testing.T) {
	svc, err := newHooks()
	if err != nil {
		t.Fatal(err)
	}
	h, err := ucploc.RESTHandler(ucploc.Omit(svc, "dev.ucp.common.location.lookup"), nil, &restserver.Options{Base: "/ucp"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	if status, _, body := post(t, ts.URL+"/ucp/locations/search", `{}`); status != http.StatusOK {
		t.Errorf("search: %d %s", status, body)
	}
	if status, ctype, body := post(t, ts.URL+"/ucp/locations/lookup", `{"ids":["s1"]}`); status != http.StatusNotFound || ctype != "application/json" {
		t.Errorf("lookup left out: %d %s %s, want a JSON 404", status, ctype, body)
	}
	if _, err := ucploc.RESTHandler(struct{}{}, nil, nil); err == nil || !strings.Contains(err.Error(), "implement none of the capabilities") {
		t.Errorf("hooks implementing nothing: %v", err)
	}
}
