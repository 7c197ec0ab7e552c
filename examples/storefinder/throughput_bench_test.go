package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/storegen"
)

// benchWriter is a ResponseWriter that keeps only the status and the body's
// length, so the benchmark measures the server and not a recorder's copy.
type benchWriter struct {
	header http.Header
	status int
	n      int
}

func (w *benchWriter) Header() http.Header { return w.header }
func (w *benchWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}
func (w *benchWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.n += len(b)
	return len(b), nil
}

// BenchmarkDirectSearch is one throughput request of loadbench (5 km +
// open_at + amenity, first page of 10, over the direct tools/call path)
// through the whole HTTP handler of the store finder at its loadbench
// flags, so that allocations and CPU per call can be read without a
// network or load clients.
func BenchmarkDirectSearch(b *testing.B) {
	h := benchHandler(b)
	timeCalls(b, h, hoursAmenitySearches(5000, `,"pagination":{"limit":10}`), 1000)
}

// benchMeta is the request meta every benchmark call sends.
const benchMeta = `"meta":{"ucp-agent":{"profile":"https://platform.example/profile.json"}}`

// benchHandler builds the store finder's HTTP handler from its flags as main
// does (per-caller rate limit and access log off, then args), for
// benchmarks that time whole calls without a network or load clients.
func benchHandler(b testing.TB, args ...string) http.Handler {
	b.Helper()
	c, err := parseFlags(append([]string{"--rate", "0", "--access-log=false"}, args...))
	if err != nil {
		b.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	s, _, err := newServers(c, logger)
	if err != nil {
		b.Fatal(err)
	}
	srv, err := httpServers(c, s, "http://127.0.0.1:8080", logger)
	if err != nil {
		b.Fatal(err)
	}
	return srv.Handler
}

// hoursAmenitySearches is loadbench's search (a circle of maxMeters +
// open_at + one amenity, then tail inside location) around its four metros,
// one tools/call body each.
func hoursAmenitySearches(maxMeters int, tail string) []string {
	centers := [][2]float64{{40.7831, -73.9712}, {51.5074, -0.1278}, {41.8781, -87.6298}, {34.0522, -118.2437}}
	bodies := make([]string, len(centers))
	for i, ce := range centers {
		bodies[i] = `{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":{"name":"search_locations","arguments":{` + benchMeta + `,"location":{` +
			fmt.Sprintf(`"distance":{"center":{"latitude":%g,"longitude":%g},"max":%d}`, ce[0], ce[1], maxMeters) +
			`,"filters":{"hours":{"open_at":"2026-12-02T18:30:00Z"},"amenities":["dev.ucp.amenity.parking"]}` + tail + `}}}}`
	}
	return bodies
}

// postMCP sends one body to h as a stateless MCP 2025-11-25 client would.
func postMCP(h http.Handler, body string) *benchWriter {
	r := httptest.NewRequest(http.MethodPost, "/ucp/mcp", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	w := &benchWriter{header: http.Header{}}
	h.ServeHTTP(w, r)
	return w
}

// timeCalls requires every body to get a 200 of at least minBytes, then
// times posting the bodies in turn.
func timeCalls(b *testing.B, h http.Handler, bodies []string, minBytes int) {
	b.Helper()
	for i, body := range bodies {
		if w := postMCP(h, body); w.status != http.StatusOK || w.n < minBytes {
			b.Fatalf("request %d: status %d, %d bytes", i, w.status, w.n)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		postMCP(h, bodies[i%len(bodies)])
	}
}

// BenchmarkDirectLookup is loadbench's "lookup, 50 ids" over the direct
// tools/call path through the whole HTTP handler, on 30,000 generated
// stores: past the size up to which the store keeps Locations decoded, so
// every call decodes its 50 Locations from their text as at 1M.
func BenchmarkDirectLookup(b *testing.B) {
	data := filepath.Join(b.TempDir(), "stores.json")
	f, err := os.Create(data)
	if err != nil {
		b.Fatal(err)
	}
	if err := storegen.GenerateTo(f, storegen.DefaultSeed, 30_000); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	h := benchHandler(b, "--data", data)
	// The first 50 ids of the browse order, as loadbench takes them.
	rec := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodPost, "/ucp/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_locations","arguments":{"meta":{"ucp-agent":{"profile":"https://platform.example/profile.json"}},"location":{"pagination":{"limit":50}}}}}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	h.ServeHTTP(rec, r)
	var page struct {
		Result struct {
			StructuredContent struct {
				Locations []struct {
					ID string `json:"id"`
				} `json:"locations"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil || len(page.Result.StructuredContent.Locations) != 50 {
		b.Fatalf("browse: %v %.300s", err, rec.Body.Bytes())
	}
	var ids []string
	for _, l := range page.Result.StructuredContent.Locations {
		ids = append(ids, l.ID)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lookup_locations","arguments":{` + benchMeta + `,"location":{"ids":["` + strings.Join(ids, `","`) + `"]}}}}`
	timeCalls(b, h, []string{body}, 50*1000)
}
