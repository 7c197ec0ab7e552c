package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestLookupEchoIsBounded checks the store finder's lookup echo: a lookup of
// 50 unknown 12,000-byte ids (600 KB of '<', which JSON escapes to six bytes
// each) gets an answer of a few kilobytes, naming each id by its start and
// length, instead of a 7.8 MB echo.
func TestLookupEchoIsBounded(t *testing.T) {
	s := startHTTP(t, config{limits: defaultLimits(t)})
	ids := make([]string, 50)
	for i := range ids {
		ids[i] = strings.Repeat("<", 11990) + strings.Repeat("0", 10-len(itoa(i))) + itoa(i)
	}
	// Written by hand: encoding/json would send '<' escaped.
	loc := `{"ids":["` + strings.Join(ids, `","`) + `"]}`
	body := toolCall(1, "lookup_locations", "https://a.example/agent.json", loc)
	status, _, r := rpc(t, http.DefaultClient, s.url, body)
	if status != 200 || r.Result == nil {
		t.Fatalf("%d: %.300s", status, r.raw)
	}
	if len(r.raw) > 64<<10 {
		t.Fatalf("answer of %d bytes to a %d-byte lookup", len(r.raw), len(body))
	}
	var res struct {
		Messages []struct{ Code, Content string }
	}
	if err := json.Unmarshal(r.Result.StructuredContent, &res); err != nil {
		t.Fatal(err)
	}
	var notFound int
	for _, m := range res.Messages {
		if m.Code == "not_found" {
			notFound++
			if !strings.Contains(m.Content, `"<<<<`) || !strings.Contains(m.Content, "(12000 bytes)") {
				t.Errorf("not_found message %q does not name the id by its start and length", m.Content)
			}
		}
	}
	if notFound != 50 {
		t.Errorf("%d not_found messages, want 50", notFound)
	}
}

// TestRefusalIsBounded checks that a request with thousands of faults gets
// a -32602 that lists at most 50 violations (and a count of the rest) with
// a short message, not one that grows with the request.
func TestRefusalIsBounded(t *testing.T) {
	s := startHTTP(t, config{limits: defaultLimits(t)})
	loc := `{"ids":[` + strings.Repeat(`7,`, 4999) + `7]}`
	status, _, r := rpc(t, http.DefaultClient, s.url, toolCall(1, "lookup_locations", "https://a.example/agent.json", loc))
	if r.Error == nil || r.Error.Code != -32602 {
		t.Fatalf("%d: %.300s", status, r.raw)
	}
	var d struct {
		Violations []struct{ Pointer, Message string }
	}
	if err := json.Unmarshal(r.Error.Data, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Violations) > 51 || len(r.Error.Message) > 300 || len(r.raw) > 32<<10 {
		t.Fatalf("refusal lists %d violations, message %d bytes, %d bytes in all", len(d.Violations), len(r.Error.Message), len(r.raw))
	}
}

// TestToolsListIsLimited checks that tools/list and the other requests that
// run no tool draw from --other-rate per remote address, so a caller cannot
// make them without end against --rate 1.
func TestToolsListIsLimited(t *testing.T) {
	l := defaultLimits(t)
	l.rate, l.rateBurst, l.otherRate, l.otherBurst = 1, 1, 0.001, 5
	s := startHTTP(t, config{limits: l})
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	for i := range 5 {
		if status, _, r := rpc(t, http.DefaultClient, s.url, list); status != 200 {
			t.Fatalf("tools/list %d within --other-burst: %d %.200s", i, status, r.raw)
		}
	}
	status, retry, r := rpc(t, http.DefaultClient, s.url, list)
	if status != http.StatusTooManyRequests || retry == "" || r.Error == nil || r.Error.Code != -32000 {
		t.Fatalf("tools/list over --other-burst: %d Retry-After %q %.200s", status, retry, r.raw)
	}
	// Tool calls keep their own bucket.
	if status, _, r := rpc(t, http.DefaultClient, s.url, toolCall(2, "search_locations", "https://a.example/agent.json", nearNewYork)); status != 200 {
		t.Fatalf("tool call after tools/list was limited: %d %.200s", status, r.raw)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
