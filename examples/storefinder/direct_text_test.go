package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestDirectPagesMatchTheSDK sends search pages to the store finder on its
// direct path, whose text block copies the escaped text of the Locations
// the store keeps encoded, and to one answering through the SDK's session
// (--tool-calls-via-sdk), which escapes the whole answer itself: first
// pages, the next page by cursor, text queries and loadbench's search must
// come back as the same bytes.
func TestDirectPagesMatchTheSDK(t *testing.T) {
	keys := pgKeys(t, "k1", "k1")
	direct := benchHandler(t, "--cursor-keys", keys)
	sdk := benchHandler(t, "--cursor-keys", keys, "--tool-calls-via-sdk")
	args := []string{
		`"location":{"pagination":{"limit":50}}`,
		`"location":{"query":"market","pagination":{"limit":20}}`,
		`"location":{"query":"café"}`,
		`"location":{"distance":{"center":{"latitude":40.7128,"longitude":-74.006},"max":20000},"pagination":{"limit":3}}`,
	}
	for _, b := range hoursAmenitySearches(5000, `,"pagination":{"limit":10}`) {
		args = append(args, b[strings.Index(b, `"location":`):len(b)-3])
	}
	for i, a := range args {
		body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":{"name":"search_locations","arguments":{` + benchMeta + `,` + a + `}}}`
		for page := 0; page < 2 && body != ""; page++ {
			got, want := recordMCP(t, direct, body), recordMCP(t, sdk, body)
			if got != want {
				t.Fatalf("call %d page %d: the direct path differs from the SDK:\ndirect: %.400s\nsdk:    %.400s", i, page, got, want)
			}
			body = nextPage(t, got, body)
		}
	}
}

// recordMCP posts body to h as postMCP does and returns the response body.
func recordMCP(t *testing.T, h http.Handler, body string) string {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/ucp/mcp", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"structuredContent"`) {
		t.Fatalf("%s: %d %.300s", body, w.Code, w.Body.String())
	}
	return w.Body.String()
}

// nextPage is call with the cursor of answer put in its pagination, or ""
// when answer is the last page.
func nextPage(t *testing.T, answer, call string) string {
	t.Helper()
	var msg struct {
		Result struct {
			StructuredContent struct {
				Pagination struct {
					Cursor string `json:"cursor"`
				} `json:"pagination"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(answer), &msg); err != nil {
		t.Fatal(err)
	}
	c := msg.Result.StructuredContent.Pagination.Cursor
	if c == "" {
		return ""
	}
	var req map[string]any
	if err := json.Unmarshal([]byte(call), &req); err != nil {
		t.Fatal(err)
	}
	loc := req["params"].(map[string]any)["arguments"].(map[string]any)["location"].(map[string]any)
	p, _ := loc["pagination"].(map[string]any)
	if p == nil {
		p = map[string]any{}
	}
	p["cursor"] = c
	loc["pagination"] = p
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
