package main

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/internal/testshared"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// The tests in this file ask a running storefinder, serving both versions,
// the way a Platform would: the MCP endpoint of each version through the Go
// SDK client, its REST binding, and (current version) stdio.

// everyVersion is the storefinder under test with its two versions.
type everyVersion struct {
	base  string
	mcp   map[string]func(tool, loc string) ([]byte, error)
	stdio func(tool, loc string) rpcResult
}

func startEveryVersion(t *testing.T) *everyVersion {
	t.Helper()
	base := startVersions(t, config{supported: prevVersion})
	ev := &everyVersion{base: base, mcp: map[string]func(string, string) ([]byte, error){}}
	for _, v := range []string{location.ProtocolVersion, prevVersion} {
		cs := connectHTTP(t, base+mcpPath(v))
		ev.mcp[v] = func(tool, loc string) ([]byte, error) { return callRaw(t, cs, tool, loc) }
	}
	ev.stdio = stdioCaller(t)
	return ev
}

// stdioCaller serves the current version over an in-process stdio
// transport, as --stdio does, and returns a function making one call.
func stdioCaller(t *testing.T) func(tool, loc string) rpcResult {
	t.Helper()
	send, _ := stdioSession(t, config{}, slog.New(slog.DiscardHandler))
	id := 0
	return func(tool, loc string) rpcResult {
		t.Helper()
		id++
		return send(toolCall(id, tool, "https://platform.example/p.json", loc))
	}
}

// restURL is a version's REST operation for tool.
func (ev *everyVersion) restURL(version, tool string) string {
	op := "/locations/search"
	if tool == "lookup_locations" {
		op = "/locations/lookup"
	}
	return ev.base + restPath(version) + op
}

// violationsOf reads the violations of a -32602's data.
func violationsOf(t *testing.T, data []byte) []rpcerr.Violation {
	t.Helper()
	var list []rpcerr.Violation
	if json.Unmarshal(data, &list) == nil {
		return list
	}
	var obj struct {
		Violations []rpcerr.Violation `json:"violations"`
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatalf("error data %s: %v", data, err)
	}
	return obj.Violations
}

func hasViolation(vs []rpcerr.Violation, pointer, keyword string) bool {
	return slices.ContainsFunc(vs, func(v rpcerr.Violation) bool { return v.Pointer == pointer && v.Keyword == keyword })
}

// refusedEverywhere asserts that loc is refused with -32602 over MCP (and
// stdio, at the current version) at /location+pointer and with 400 over
// REST at pointer, each with keyword.
func (ev *everyVersion) refusedEverywhere(t *testing.T, version, tool, loc, pointer, keyword string) {
	t.Helper()
	if sdkCarries(loc) {
		_, err := ev.mcp[version](tool, loc)
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != -32602 {
			t.Errorf("%s %s over MCP: %v, want -32602", version, loc, err)
		} else if vs := violationsOf(t, je.Data); !hasViolation(vs, "/location"+pointer, keyword) {
			t.Errorf("%s %s over MCP: violations %+v, want %s at /location%s", version, loc, vs, keyword, pointer)
		}
	}
	status, _, rr := rpc(t, http.DefaultClient, ev.base+mcpPath(version), toolCall(1, tool, "https://platform.example/p.json", loc))
	if rr.Error == nil || rr.Error.Code != -32602 || !hasViolation(violationsOf(t, rr.Error.Data), "/location"+pointer, keyword) {
		t.Errorf("%s %s over MCP (plain JSON-RPC): %d %s, want -32602 with %s at /location%s", version, loc, status, clip([]byte(rr.raw)), keyword, pointer)
	}
	r := restPost(t, ev.restURL(version, tool), loc)
	var ref restserverRefusal
	if json.Unmarshal(r.body, &ref) != nil || r.status != http.StatusBadRequest || !hasViolation(ref.Violations, pointer, keyword) {
		t.Errorf("%s %s over REST: %d %s, want 400 with %s at %s", version, loc, r.status, clip(r.body), keyword, pointer)
	}
	if version == location.ProtocolVersion {
		sr := ev.stdio(tool, loc)
		if sr.Error == nil || sr.Error.Code != -32602 || !hasViolation(violationsOf(t, sr.Error.Data), "/location"+pointer, keyword) {
			t.Errorf("%s %s over stdio: %s, want -32602 with %s at /location%s", version, loc, sr.raw, keyword, pointer)
		}
	}
}

// servedEverywhere asserts that loc is answered over every transport of
// version and returns the ids the MCP answer lists.
func (ev *everyVersion) servedEverywhere(t *testing.T, version, tool, loc string) []string {
	t.Helper()
	status, _, rr := rpc(t, http.DefaultClient, ev.base+mcpPath(version), toolCall(1, tool, "https://platform.example/p.json", loc))
	if rr.Result == nil {
		t.Errorf("%s %s over MCP (plain JSON-RPC): %d %s, want an answer", version, loc, status, clip([]byte(rr.raw)))
		return nil
	}
	a := decodeAnswer(t, loc, rr.Result.StructuredContent, version, amenityShape(version))
	if sdkCarries(loc) {
		body, err := ev.mcp[version](tool, loc)
		if err != nil {
			t.Errorf("%s %s over MCP: %v, want an answer", version, loc, err)
		} else if b := decodeAnswer(t, loc, body, version, amenityShape(version)); !slices.Equal(a.ids(), b.ids()) {
			t.Errorf("%s %s: the Go SDK client gets %v, plain JSON-RPC %v", version, loc, b.ids(), a.ids())
		}
	}
	r := restPost(t, ev.restURL(version, tool), loc)
	if r.status != http.StatusOK {
		t.Errorf("%s %s over REST: %d %s, want 200", version, loc, r.status, clip(r.body))
	} else if b := decodeAnswer(t, loc, r.body, version, amenityShape(version)); !slices.Equal(a.ids(), b.ids()) {
		t.Errorf("%s %s: REST answers %v, MCP %v", version, loc, b.ids(), a.ids())
	}
	if version == location.ProtocolVersion {
		if sr := ev.stdio(tool, loc); sr.Result == nil {
			t.Errorf("%s %s over stdio: %s, want an answer", version, loc, sr.raw)
		} else if b := decodeAnswer(t, loc, sr.Result.StructuredContent, version, amenityShape(version)); !slices.Equal(a.ids(), b.ids()) {
			t.Errorf("%s %s: stdio answers %v, MCP %v", version, loc, b.ids(), a.ids())
		}
	}
	return a.ids()
}

// sdkCarries reports whether the Go SDK client can send loc: it holds tool
// arguments as Go values, so a number beyond float64 never leaves it (the
// call fails in the client). Such requests go as plain JSON-RPC only.
func sdkCarries(loc string) bool {
	d := json.NewDecoder(strings.NewReader(loc))
	d.UseNumber()
	for {
		tok, err := d.Token()
		if err != nil {
			return err == io.EOF
		}
		if n, ok := tok.(json.Number); ok {
			if _, err := n.Float64(); err != nil {
				return false
			}
		}
	}
}

type restserverRefusal struct {
	Code       string             `json:"code"`
	Violations []rpcerr.Violation `json:"violations"`
}

var bothVersions = []string{location.ProtocolVersion, prevVersion}

// A radius beyond the float64 range is valid JSON that decodes to +Inf; it
// is refused at its pointer by both tools, at both versions, over every
// transport, instead of failing the search's cursor digest as an internal
// error.
func TestHugeDistanceIsRefusedAtItsPointer(t *testing.T) {
	ev := startEveryVersion(t)
	for _, v := range bothVersions {
		for _, max := range []string{"1e400", "1.8e308", "1e309", "-1e400"} {
			d := `"distance":{"center":{"latitude":51.5,"longitude":-0.12},"max":` + max + `}`
			keyword := "unsupported"
			if strings.HasPrefix(max, "-") {
				keyword = "minimum" // the schema's own bound comes first
			}
			ev.refusedEverywhere(t, v, "search_locations", `{`+d+`}`, "/distance/max", keyword)
			ev.refusedEverywhere(t, v, "lookup_locations", `{"ids":["a"],`+d+`}`, "/distance/max", keyword)
		}
		// The largest finite radius is served.
		ev.servedEverywhere(t, v, "search_locations", `{"distance":{"center":{"latitude":51.5,"longitude":-0.12},"max":1.7976931348623157e308},"pagination":{"limit":2}}`)
	}
}

// A page limit beyond 64 bits is lowered to the maximum page size, as any
// limit above it is, instead of being refused with a maximum the schema
// does not state.
func TestHugePageLimitIsCapped(t *testing.T) {
	ev := startEveryVersion(t)
	for _, v := range bothVersions {
		want := ev.servedEverywhere(t, v, "search_locations", `{"pagination":{"limit":100000}}`)
		if len(want) == 0 {
			t.Fatalf("%s: limit 100000 answered no Location", v)
		}
		// Every limit is the same path through the server with the whole
		// dataset in its answer: the race pass sends two.
		limits := testshared.RaceCases([]string{"9223372036854775807", "9223372036854775808", "1e19", "1e30", "1e400"}, []string{"9223372036854775808", "1e400"})
		for _, limit := range limits {
			if got := ev.servedEverywhere(t, v, "search_locations", `{"pagination":{"limit":`+limit+`}}`); !slices.Equal(got, want) {
				t.Errorf("%s: limit %s answers %d Locations, limit 100000 %d", v, limit, len(got), len(want))
			}
		}
	}
}

// A member an operand's schema leaves open but the engine does not read is
// refused at its pointer with "unsupported", in every operand, at both
// versions, over every transport: ignoring it could change the question
// (distance.unit "km" beside max 5 would be a 5 m radius).
func TestUnknownOperandMembersAreRefused(t *testing.T) {
	ev := startEveryVersion(t)
	center := `{"latitude":51.5,"longitude":-0.12}`
	cases := []struct{ loc, pointer string }{
		{`{"distance":{"center":` + center + `,"max":5,"unit":"km"}}`, "/distance/unit"},
		{`{"distance":{"center":{"latitude":51.5,"longitude":-0.12,"datum":"NAD27"},"max":5}}`, "/distance/center/datum"},
		{`{"serves":{"point":{"latitude":51.5,"longitude":-0.12,"radius":100}}}`, "/serves/point/radius"},
		{`{"serves":{"address":{"address_country":"GB","locality":"London"}}}`, "/serves/address/locality"},
		{`{"filters":{"hours":{"open_at":"2026-08-25T10:00:00Z","tz":"Europe/London"}}}`, "/filters/hours/tz"},
		{`{"filters":{"hours":{"open_at":"2026-08-25T10:00:00Z","a/b":1}}}`, "/filters/hours/a~1b"},
	}
	for _, v := range bothVersions {
		for _, c := range cases {
			ev.refusedEverywhere(t, v, "search_locations", c.loc, c.pointer, "unsupported")
		}
	}
	ev.refusedEverywhere(t, prevVersion, "search_locations", `{"filters":{"inventory":[{"id":"a","quantity":3}]}}`, "/filters/inventory/0/quantity", "unsupported")
	ev.refusedEverywhere(t, location.ProtocolVersion, "lookup_locations", `{"ids":["a"],"distance":{"center":`+center+`,"max":5,"unit":"km"}}`, "/distance/unit", "unsupported")
}

// A request valid at 2026-08-21 is answered, whatever 2026-08-25 would say
// of the request it becomes: repeated inventory ids ask no more than one,
// an empty id names no item and matches nothing. A 2026-08-25 member sent
// to 2026-08-21 is refused at that version's pointer, with a keyword.
func TestOlderVersionRequestsAreJudgedAtTheirVersion(t *testing.T) {
	ev := startEveryVersion(t)
	item, _ := itemAndAmenity(t)
	one := ev.servedEverywhere(t, prevVersion, "search_locations", `{"filters":{"inventory":[{"id":"`+item+`"}]}}`)
	if len(one) == 0 {
		t.Fatalf("inventory %s matched nothing", item)
	}
	if got := ev.servedEverywhere(t, prevVersion, "search_locations", `{"filters":{"inventory":[{"id":"`+item+`"},{"id":"`+item+`","availability_status":"in_stock"}]}}`); !slices.Equal(got, one) {
		t.Errorf("repeated inventory id answers %v, the id once %v", got, one)
	}
	for _, loc := range []string{
		`{"filters":{"inventory":[{"id":""}]}}`,
		`{"filters":{"inventory":[{"id":"` + item + `"},{"id":""}]}}`,
	} {
		if got := ev.servedEverywhere(t, prevVersion, "search_locations", loc); len(got) != 0 {
			t.Errorf("%s answers %v, want no Location", loc, got)
		}
	}
	ev.refusedEverywhere(t, prevVersion, "search_locations", `{"filters":{"items":["`+item+`"]}}`, "/filters/items", "unsupported")
	ev.refusedEverywhere(t, prevVersion, "search_locations", `{"filters":{"inventory":[{"id":"a","availability_status":"backorder"}]}}`, "/filters/inventory/0/availability_status", "unsupported")
	// The current version still holds its own rules.
	ev.refusedEverywhere(t, location.ProtocolVersion, "search_locations", `{"filters":{"items":["a","a"]}}`, "/filters/items/1", "uniqueItems")
	ev.refusedEverywhere(t, location.ProtocolVersion, "search_locations", `{"filters":{"items":[""]}}`, "/filters/items/0", "minLength")
}

// amenityShape is the first byte of a Location's amenities at version: a
// map at the current version, a list at the older one.
func amenityShape(version string) byte {
	if version == location.ProtocolVersion {
		return '{'
	}
	return '['
}
