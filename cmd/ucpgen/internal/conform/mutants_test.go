package conform

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/runtime/domain/geodesic"
)

// upstreamAnswer is what the real Business answered one Location request.
type upstreamAnswer struct {
	// ok: body is the UCP response object.
	ok   bool
	body map[string]any
}

// forward sends a (possibly rewritten) domain request to the real
// Business over the same transport as the original request.
type forward func(req map[string]any) upstreamAnswer

// mutant is the real storefinder behind a proxy with one defect.
type mutant struct {
	// rewrite, when set, answers a Location request in place of the real
	// Business, calling it as often as it likes.
	rewrite func(op string, req map[string]any, fwd forward) upstreamAnswer
	// rpcError rewrites the code of a JSON-RPC error.
	rpcError func(code int) int
	// restError rewrites a REST error answer (status, body).
	restError func(op, version string, status int, body []byte) (int, []byte)
	// blockREST answers every REST operation with 404 while the profile
	// still advertises REST.
	blockREST bool
	// hangUp, when it returns true, closes the connection unanswered.
	hangUp func(r *http.Request) bool
	// seen, when set, is told of every request the checker sends.
	seen func(r *http.Request, body []byte)
}

// proxy serves m in front of the Business at upstream.
func (m *mutant) proxy(t *testing.T, upstream string) string {
	t.Helper()
	var self string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		path := r.URL.Path
		if m.seen != nil {
			m.seen(r, body)
		}
		if m.hangUp != nil && m.hangUp(r) {
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		switch {
		case strings.HasPrefix(path, "/.well-known/ucp"):
			status, h, out := pass(r, upstream+path, body)
			out = bytes.ReplaceAll(out, []byte(upstream), []byte(self))
			writeBack(w, status, h, out)
		case strings.HasSuffix(path, "/mcp"):
			m.mcp(w, r, upstream+path, body)
		case strings.Contains(path, "/locations/"):
			if m.blockREST {
				http.NotFound(w, r)
				return
			}
			m.rest(w, r, upstream+path, body)
		default:
			status, h, out := pass(r, upstream+path, body)
			writeBack(w, status, h, out)
		}
	}))
	t.Cleanup(srv.Close)
	self = srv.URL
	return self
}

func pass(r *http.Request, url string, body []byte) (int, http.Header, []byte) {
	var rd io.Reader
	if r.Method == http.MethodPost {
		rd = bytes.NewReader(body)
	}
	req, _ := http.NewRequest(r.Method, url, rd)
	req.Header = r.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return http.StatusBadGateway, http.Header{}, []byte(err.Error())
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, out
}

func writeBack(w http.ResponseWriter, status int, h http.Header, body []byte) {
	for k, v := range h {
		if k != "Content-Length" && k != "Content-Digest" {
			w.Header()[k] = v
		}
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func (m *mutant) mcp(w http.ResponseWriter, r *http.Request, url string, body []byte) {
	var msg map[string]any
	if json.Unmarshal(body, &msg) != nil || msg["method"] != "tools/call" {
		status, h, out := pass(r, url, body)
		writeBack(w, status, h, m.mcpErrorCode(out))
		return
	}
	params, _ := msg["params"].(map[string]any)
	args, _ := params["arguments"].(map[string]any)
	op := map[any]string{"search_locations": opSearch, "lookup_locations": opLookup}[params["name"]]
	loc, isObj := args["location"].(map[string]any)
	if m.rewrite == nil || op == "" || !isObj {
		status, h, out := pass(r, url, body)
		writeBack(w, status, h, m.mcpErrorCode(out))
		return
	}
	var lastStatus int
	var lastHeader http.Header
	var lastRaw []byte
	fwd := func(req map[string]any) upstreamAnswer {
		args["location"] = req
		b, _ := json.Marshal(msg)
		lastStatus, lastHeader, lastRaw = pass(r, url, b)
		var resp struct {
			Result struct {
				Structured map[string]any `json:"structuredContent"`
			} `json:"result"`
		}
		if json.Unmarshal(lastRaw, &resp) != nil || resp.Result.Structured == nil {
			return upstreamAnswer{}
		}
		return upstreamAnswer{ok: true, body: resp.Result.Structured}
	}
	a := m.rewrite(op, loc, fwd)
	if !a.ok {
		writeBack(w, lastStatus, lastHeader, m.mcpErrorCode(lastRaw))
		return
	}
	text, _ := json.Marshal(a.body)
	out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": msg["id"], "result": map[string]any{
		"content": []any{map[string]any{"type": "text", "text": string(text)}}, "structuredContent": a.body,
	}})
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	writeBack(w, http.StatusOK, h, out)
}

func (m *mutant) mcpErrorCode(raw []byte) []byte {
	if m.rpcError == nil {
		return raw
	}
	var msg map[string]any
	if json.Unmarshal(raw, &msg) != nil {
		return raw
	}
	e, ok := msg["error"].(map[string]any)
	if !ok {
		return raw
	}
	code, _ := e["code"].(float64)
	e["code"] = m.rpcError(int(code))
	out, _ := json.Marshal(msg)
	return out
}

func (m *mutant) rest(w http.ResponseWriter, r *http.Request, url string, body []byte) {
	op := opSearch
	if strings.HasSuffix(r.URL.Path, "/lookup") {
		op = opLookup
	}
	version := "2026-08-25"
	if strings.Contains(r.URL.Path, "/2026-08-21/") {
		version = "2026-08-21"
	}
	var loc map[string]any
	var lastStatus int
	var lastHeader http.Header
	var lastRaw []byte
	fwd := func(req map[string]any) upstreamAnswer {
		b, _ := json.Marshal(req)
		lastStatus, lastHeader, lastRaw = pass(r, url, b)
		var resp map[string]any
		if lastStatus != http.StatusOK || json.Unmarshal(lastRaw, &resp) != nil {
			return upstreamAnswer{}
		}
		return upstreamAnswer{ok: true, body: resp}
	}
	if m.rewrite == nil || json.Unmarshal(body, &loc) != nil || loc == nil {
		lastStatus, lastHeader, lastRaw = pass(r, url, body)
	} else if a := m.rewrite(op, loc, fwd); a.ok {
		out, _ := json.Marshal(a.body)
		h := http.Header{}
		h.Set("Content-Type", "application/json")
		writeBack(w, http.StatusOK, h, out)
		return
	}
	if lastStatus != http.StatusOK && m.restError != nil {
		lastStatus, lastRaw = m.restError(op, version, lastStatus, lastRaw)
	}
	writeBack(w, lastStatus, lastHeader, lastRaw)
}

// distanceOf reads a request's distance member.
func distanceOf(req map[string]any) (center geodesic.Point, max float64, ok bool) {
	d, ok := req["distance"].(map[string]any)
	if !ok {
		return center, 0, false
	}
	c, _ := d["center"].(map[string]any)
	lat, _ := c["latitude"].(float64)
	lon, _ := c["longitude"].(float64)
	max, _ = d["max"].(float64)
	return geodesic.Point{Lat: lat, Lon: lon}, max, true
}

// keepLocations filters the Locations of a success.
func keepLocations(a upstreamAnswer, keep func(l map[string]any) bool) upstreamAnswer {
	if !a.ok {
		return a
	}
	locs, _ := a.body["locations"].([]any)
	out := []any{}
	for _, l := range locs {
		if lm, _ := l.(map[string]any); keep(lm) {
			out = append(out, l)
		}
	}
	a.body["locations"] = out
	return a
}

func pointOf(l map[string]any) geodesic.Point {
	g, _ := l["geo"].(map[string]any)
	lat, _ := g["latitude"].(float64)
	lon, _ := g["longitude"].(float64)
	return geodesic.Point{Lat: lat, Lon: lon}
}

// haversine is the spherical shortcut a careless Business takes.
func haversine(a, b geodesic.Point) float64 {
	const r = 6371008.8
	rad := math.Pi / 180
	dLat, dLon := (b.Lat-a.Lat)*rad, (b.Lon-a.Lon)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(a.Lat*rad)*math.Cos(b.Lat*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * r * math.Asin(math.Sqrt(h))
}

// orUnion answers a request whose amenities or items list has several
// entries with the union of the answers for each entry alone, in one page.
func orUnion(op string, req map[string]any, fwd forward) upstreamAnswer {
	filters, _ := req["filters"].(map[string]any)
	for _, key := range []string{"amenities", "items", "inventory"} {
		list, _ := filters[key].([]any)
		if len(list) < 2 {
			continue
		}
		distinct := map[any]bool{}
		for _, one := range list {
			if _, isObj := one.(map[string]any); !isObj {
				distinct[one] = true
			}
		}
		if len(distinct) < len(list) && key != "inventory" {
			return fwd(req) // let the Business refuse repeated entries
		}
		var merged upstreamAnswer
		seen := map[any]bool{}
		locs := []any{}
		for _, one := range list {
			q := clone(req)
			f := clone(filters)
			f[key] = []any{one}
			q["filters"] = f
			q["pagination"] = map[string]any{"limit": 100}
			a := fwd(q)
			if !a.ok {
				return a
			}
			merged = a
			ls, _ := a.body["locations"].([]any)
			for _, l := range ls {
				id := l.(map[string]any)["id"]
				if !seen[id] {
					seen[id] = true
					locs = append(locs, l)
				}
			}
		}
		merged.body["locations"] = locs
		merged.body["pagination"] = map[string]any{"has_next_page": false}
		return merged
	}
	return fwd(req)
}

// cursorMemory is a Business whose cursors carry their own query: a cursor
// sent with any request continues the query it was issued for.
type cursorMemory struct {
	mu      sync.Mutex
	queries map[string]map[string]any
}

func (c *cursorMemory) rewrite(op string, req map[string]any, fwd forward) upstreamAnswer {
	pg, _ := req["pagination"].(map[string]any)
	if cur, ok := pg["cursor"].(string); ok {
		c.mu.Lock()
		q, known := c.queries[cur]
		c.mu.Unlock()
		if known {
			req = clone(q)
			req["pagination"] = pg
		}
	}
	a := fwd(req)
	if a.ok {
		if p, _ := a.body["pagination"].(map[string]any); p != nil {
			if cur, ok := p["cursor"].(string); ok {
				q := clone(req)
				delete(q, "pagination")
				c.mu.Lock()
				c.queries[cur] = q
				c.mu.Unlock()
			}
		}
	}
	return a
}

// utcHours rewrites open_at so that a Business whose Locations are all in
// New York evaluates it by the UTC wall clock.
func utcHours(op string, req map[string]any, fwd forward) upstreamAnswer {
	filters, _ := req["filters"].(map[string]any)
	h, _ := filters["hours"].(map[string]any)
	at, ok := h["open_at"].(string)
	if !ok {
		return fwd(req)
	}
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return fwd(req)
	}
	ny, _ := time.LoadLocation("America/New_York")
	u := t.UTC()
	wall := time.Date(u.Year(), u.Month(), u.Day(), u.Hour(), u.Minute(), u.Second(), 0, ny)
	q := clone(req)
	f := clone(filters)
	f["hours"] = map[string]any{"open_at": wall.Format(time.RFC3339)}
	q["filters"] = f
	return fwd(q)
}

// TestConformFailsEachMutant builds non-conforming Businesses from the real
// storefinder, each with one defect, and holds the checker to failing each
// with the check that names that defect, while the same storefinder with no
// defect passes.
func TestConformFailsEachMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds and runs the storefinder (not in -short mode)")
	}
	upstream := startStorefinder(t, "--data", craftedData(t), "--batch-max", "10", "--supported-versions", "2026-08-21")
	reads := &readOnly{}
	cases := []struct {
		name      string
		m         *mutant
		transport string
		version   string
		want      string // the check that must fail ("" : none may)
	}{
		{name: "no defect", m: &mutant{seen: reads.note}, want: ""},
		{name: "OR instead of AND", m: &mutant{rewrite: orUnion}, transport: "mcp", want: "filters.amenities-and"},
		{name: "OR instead of AND for items", m: &mutant{rewrite: orUnion}, transport: "rest", version: "2026-08-25", want: "filters.items-and"},
		{name: "clamped radius", transport: "mcp", version: "2026-08-25", want: "distance.inclusive-geodesic", m: &mutant{rewrite: func(op string, req map[string]any, fwd forward) upstreamAnswer {
			if d, ok := req["distance"].(map[string]any); ok {
				if max, _ := d["max"].(float64); max > 1000 {
					q := clone(req)
					dd := clone(d)
					dd["max"] = 1000.0
					q["distance"] = dd
					return fwd(q)
				}
			}
			return fwd(req)
		}}},
		{name: "exclusive boundary", transport: "rest", version: "2026-08-25", want: "distance.inclusive-geodesic", m: &mutant{rewrite: func(op string, req map[string]any, fwd forward) upstreamAnswer {
			center, max, ok := distanceOf(req)
			a := fwd(req)
			if !ok {
				return a
			}
			return keepLocations(a, func(l map[string]any) bool { return geodesic.Distance(center, pointOf(l)) < max })
		}}},
		{name: "haversine distance", transport: "mcp", version: "2026-08-21", want: "distance.inclusive-geodesic", m: &mutant{rewrite: func(op string, req map[string]any, fwd forward) upstreamAnswer {
			center, max, ok := distanceOf(req)
			if !ok || max < 0 {
				return fwd(req)
			}
			if _, hasMax := req["distance"].(map[string]any)["max"]; !hasMax {
				return fwd(req)
			}
			q := clone(req)
			dd := clone(req["distance"].(map[string]any))
			dd["max"] = max*1.01 + 50
			q["distance"] = dd
			return keepLocations(fwd(q), func(l map[string]any) bool { return haversine(center, pointOf(l)) <= max })
		}}},
		{name: "no batch_limit_applied", transport: "rest", version: "2026-08-21", want: "lookup.batch-limit", m: &mutant{rewrite: func(op string, req map[string]any, fwd forward) upstreamAnswer {
			a := fwd(req)
			if a.ok {
				msgs, _ := a.body["messages"].([]any)
				var keep []any
				for _, m := range msgs {
					if m.(map[string]any)["code"] != "batch_limit_applied" {
						keep = append(keep, m)
					}
				}
				if keep == nil {
					delete(a.body, "messages")
				} else {
					a.body["messages"] = keep
				}
			}
			return a
		}}},
		{name: "cursor ignores its query", transport: "mcp", version: "2026-08-25", want: "pagination.cursor-bound", m: &mutant{rewrite: (&cursorMemory{queries: map[string]map[string]any{}}).rewrite}},
		{name: "a cursor that points at its own page", transport: "rest", version: "2026-08-21", want: "pagination.walk", m: &mutant{rewrite: func(op string, req map[string]any, fwd forward) upstreamAnswer {
			a := fwd(req)
			pg, _ := req["pagination"].(map[string]any)
			sent, hadCursor := pg["cursor"].(string)
			if p, _ := a.body["pagination"].(map[string]any); a.ok && hadCursor && p != nil && p["cursor"] != nil {
				p["cursor"] = sent // page 2 leads to page 2 again, for ever
			}
			return a
		}}},
		{name: "broken dedupe", transport: "mcp", version: "2026-08-25", want: "lookup.dedupe", m: &mutant{rewrite: func(op string, req map[string]any, fwd forward) upstreamAnswer {
			a := fwd(req)
			if op != opLookup || !a.ok {
				return a
			}
			count := map[any]int{}
			ids, _ := req["ids"].([]any)
			for _, id := range ids {
				count[id]++
			}
			locs, _ := a.body["locations"].([]any)
			out := []any{}
			for _, l := range locs {
				for range max(1, count[l.(map[string]any)["id"]]) {
					out = append(out, l)
				}
			}
			a.body["locations"] = out
			return a
		}}},
		{name: "-32603 where -32602 is due", transport: "mcp", version: "2026-08-25", want: "errors.invalid-params", m: &mutant{rpcError: func(code int) int {
			if code == -32602 {
				return -32603
			}
			return code
		}}},
		{name: "REST 200 on an invalid body", transport: "rest", version: "2026-08-25", want: "errors.invalid-params", m: &mutant{restError: func(op, version string, status int, body []byte) (int, []byte) {
			if status != http.StatusBadRequest || !bytes.Contains(body, []byte(`"invalid_params"`)) {
				return status, body
			}
			return http.StatusOK, []byte(`{"ucp":{"version":"` + version + `","capabilities":{"` + capOf[op] + `":[{"version":"` + version + `"}]}},"locations":[]}`)
		}}},
		{name: "profile advertises an unserved transport", version: "2026-08-25", want: "discovery.transport-served", m: &mutant{blockREST: true}},
		{name: "alpha-3 country answered empty", transport: "mcp", version: "2026-08-25", want: "serves.country-forms", m: &mutant{rewrite: func(op string, req map[string]any, fwd forward) upstreamAnswer {
			a := fwd(req)
			serves, _ := req["serves"].(map[string]any)
			addr, _ := serves["address"].(map[string]any)
			if country, _ := addr["address_country"].(string); len(country) == 3 {
				return keepLocations(a, func(map[string]any) bool { return false })
			}
			return a
		}}},
		{name: "a lookup that hangs up", transport: "rest", version: "2026-08-25", want: "rest.framing", m: &mutant{hangUp: func(r *http.Request) bool {
			return strings.HasSuffix(r.URL.Path, "/locations/lookup") && r.Header.Get("Request-Id") != "" && r.ContentLength > 40
		}}},
		{name: "hours evaluated in UTC", transport: "rest", version: "2026-08-25", want: "filters.hours-zone", m: &mutant{rewrite: utcHours}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := Options{Items: craftedItems}
			if tc.transport != "" {
				o.Transports = []string{tc.transport}
			}
			if tc.version != "" {
				o.Versions = []string{tc.version}
			}
			r := runConform(t, tc.m.proxy(t, upstream), o)
			if tc.want == "" {
				if r.Failed() {
					t.Fatalf("the storefinder with no defect failed:\n%s", failures(r))
				}
				// The data must exercise what the mutants break.
				mustPass(t, r, exercised...)
				reads.check(t, r.Requests)
				return
			}
			failed := false
			for _, c := range r.Find(tc.want) {
				failed = failed || c.Status == Fail
			}
			if !failed {
				t.Fatalf("%s was not failed; the run's failures:\n%s", tc.want, failures(r))
			}
			t.Logf("failures:\n%s", failures(r))
		})
	}
}

// readOnly records what the checker sends, to hold it to reads: GETs of
// profiles, MCP session set-up and tools/list, calls of the two Location
// tools (and one tool name no Business has), and the two REST reads.
type readOnly struct {
	mu   sync.Mutex
	n    int
	sent []string
}

func (o *readOnly) note(r *http.Request, body []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.n++
	what := r.Method + " " + r.URL.Path
	if strings.HasSuffix(r.URL.Path, "/mcp") {
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &msg) == nil {
			what = "mcp " + msg.Method + " " + msg.Params.Name
		} else {
			what = "mcp (not JSON)"
		}
	}
	o.sent = append(o.sent, what)
}

func (o *readOnly) check(t *testing.T, reported int) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	allowed := []string{
		"GET /.well-known/ucp", "mcp initialize ", "mcp notifications/initialized ", "mcp tools/list ",
		"mcp tools/call search_locations", "mcp tools/call lookup_locations", "mcp tools/call ucpgen_conform_no_such_tool",
		"mcp  ", "mcp (not JSON)", "POST /ucp/locations/search", "POST /ucp/locations/lookup",
		"POST /ucp/2026-08-21/locations/search", "POST /ucp/2026-08-21/locations/lookup",
	}
	for _, s := range o.sent {
		ok := false
		for _, a := range allowed {
			ok = ok || strings.HasPrefix(s, a)
		}
		if !ok {
			t.Errorf("the checker sent %q, which is not a read", s)
		}
	}
	if o.n != reported {
		t.Errorf("the proxy saw %d requests, the report says %d", o.n, reported)
	}
}
