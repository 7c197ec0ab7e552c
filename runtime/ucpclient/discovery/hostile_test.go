package discovery_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ucpgen/ucpgen/generated/location"
	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/runtime/ucpclient"
	"github.com/ucpgen/ucpgen/runtime/ucpclient/discovery"
)

const agent = "https://platform.example/profile.json"

// business is an httptest Business whose profile advertises caps over MCP
// at /mcp and REST at /rest, and whose tool answers come from answer
// (given the body a REST call or the tools/call arguments carry).
type business struct {
	*httptest.Server
	calls atomic.Int64
}

func newBusiness(t *testing.T, caps []string, answer func(w http.ResponseWriter, r *http.Request, mcpID json.RawMessage)) *business {
	b := &business{}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/ucp", func(w http.ResponseWriter, r *http.Request) {
		c := map[string]any{}
		for _, name := range caps {
			c[name] = []map[string]string{{"version": location.ProtocolVersion, "schema": "https://ucp.dev/schemas/x.json"}}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"ucp": map[string]any{
			"version": location.ProtocolVersion,
			"services": map[string]any{"dev.ucp.common": []map[string]string{
				{"version": location.ProtocolVersion, "transport": "mcp", "endpoint": b.URL + "/mcp", "schema": "https://ucp.dev/x/mcp.openrpc.json"},
				{"version": location.ProtocolVersion, "transport": "rest", "endpoint": b.URL + "/rest", "schema": "https://ucp.dev/x/rest.openapi.json"},
			}},
			"capabilities":     c,
			"payment_handlers": map[string]any{},
		}})
	})
	mux.HandleFunc("/rest/", func(w http.ResponseWriter, r *http.Request) {
		b.calls.Add(1)
		answer(w, r, nil)
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&msg)
		switch {
		case msg.Method == "initialize":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"hostile","version":"1"}}}`, msg.ID)
		case msg.ID == nil:
			w.WriteHeader(http.StatusAccepted)
		case msg.Method == "tools/call":
			b.calls.Add(1)
			answer(w, r, msg.ID)
		default: // server/discover and the like: the client falls back to initialize
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, msg.ID)
		}
	})
	b.Server = httptest.NewServer(mux)
	t.Cleanup(b.Close)
	return b
}

func dial(t *testing.T, b *business, transport string, o ucpclient.Options) *location.Client {
	t.Helper()
	o.Profile = agent
	conn, err := discovery.Discover(context.Background(), b.URL, location.ClientService(), &discovery.Options{Options: o, Transport: transport, HTTP: discovery.LocalDevelopment()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c, err := location.NewClient(conn)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// reply writes body as the tool's answer: the REST body, or over MCP the
// structuredContent of a tools/call result.
func reply(w http.ResponseWriter, mcpID json.RawMessage, contentType, body string) {
	w.Header().Set("Content-Type", contentType)
	if mcpID != nil {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[],"structuredContent":%s}}`, mcpID, body)
		return
	}
	io.WriteString(w, body)
}

// TestHostileBusinessEndsInBoundedErrors holds each hostile answer to the
// size cap and the deadline, over both transports, with an error saying
// what was wrong: 100 MB (declared and not), a 1 byte/s drip, a body the
// schema rejects, invalid JSON and the wrong media type.
func TestHostileBusinessEndsInBoundedErrors(t *testing.T) {
	const limit = 64 << 10
	huge := func(declare bool) func(http.ResponseWriter, *http.Request, json.RawMessage) {
		return func(w http.ResponseWriter, r *http.Request, _ json.RawMessage) {
			w.Header().Set("Content-Type", "application/json")
			if declare {
				w.Header().Set("Content-Length", fmt.Sprint(100<<20))
			}
			chunk := []byte(`{"ucp":` + strings.Repeat(" ", 64<<10-7))
			for sent := 0; sent < 100<<20; sent += len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return // the client hung up
				}
			}
		}
	}
	cases := []struct {
		name   string
		answer func(http.ResponseWriter, *http.Request, json.RawMessage)
		check  func(t *testing.T, err error)
	}{
		{"100 MB declared", huge(true), isErr(ucpclient.ErrTooLarge)},
		{"100 MB chunked", huge(false), isErr(ucpclient.ErrTooLarge)},
		{"1 byte per second", func(w http.ResponseWriter, r *http.Request, _ json.RawMessage) {
			w.Header().Set("Content-Type", "application/json")
			for {
				if _, err := w.Write([]byte(" ")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(time.Second):
				}
			}
		}, isErr(context.DeadlineExceeded)},
		{"schema-invalid", func(w http.ResponseWriter, _ *http.Request, id json.RawMessage) {
			reply(w, id, "application/json", `{"ucp":{"version":"2026-08-25"},"locations":[{"id":5,"name":"x"}]}`)
		}, func(t *testing.T, err error) {
			var ir *ucpclient.InvalidResponseError
			if !errors.As(err, &ir) || !strings.Contains(err.Error(), "/locations/0/id") {
				t.Errorf("err = %v, want an InvalidResponseError naming /locations/0/id", err)
			}
		}},
		{"invalid JSON", func(w http.ResponseWriter, _ *http.Request, id json.RawMessage) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ucp":{"version":`)
		}, hasText("")},
		{"wrong content type", func(w http.ResponseWriter, _ *http.Request, id json.RawMessage) {
			reply(w, id, "text/html", `{"ucp":{"version":"2026-08-25"},"locations":[]}`)
		}, hasText("Content-Type")},
	}
	for _, transport := range []string{ucpclient.REST, ucpclient.MCP} {
		for _, c := range cases {
			t.Run(transport+"/"+c.name, func(t *testing.T) {
				b := newBusiness(t, []string{"dev.ucp.common.location.search"}, c.answer)
				cl := dial(t, b, transport, ucpclient.Options{MaxResponseBytes: limit, Retries: -1})
				ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
				defer cancel()
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				resp, err := cl.SearchLocations(ctx, &location.SearchRequest{})
				runtime.ReadMemStats(&after)
				if resp != nil || err == nil {
					t.Fatalf("got %v, %v; want no response and an error", resp, err)
				}
				var ce *ucpclient.CallError
				if !errors.As(err, &ce) || ce.Tool != "search_locations" || ce.Transport != transport {
					t.Errorf("err = %v, want a CallError of search_locations over %s", err, transport)
				}
				c.check(t, err)
				// Nothing near 100 MB was held: the cap, buffers and the SDK's own.
				if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
					t.Errorf("the call allocated %d bytes for a %d-byte cap", got, limit)
				}
			})
		}
	}
}

func isErr(target error) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		if !errors.Is(err, target) {
			t.Errorf("err = %v, want %v", err, target)
		}
	}
}

func hasText(s string) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		if !strings.Contains(err.Error(), s) {
			t.Errorf("err = %v, want it to name %q", err, s)
		}
	}
}

// TestRefusalsAreTypedAndRetried gives each refusal its typed error over
// both transports: -32602 / 400 with the pointer relative to the body, and
// 429 retried after its Retry-After until it succeeds, while a 503 asking
// for an hour is returned at once.
func TestRefusalsAreTypedAndRetried(t *testing.T) {
	ok := `{"ucp":{"version":"2026-08-25"},"locations":[]}`
	for _, transport := range []string{ucpclient.REST, ucpclient.MCP} {
		t.Run(transport+"/invalid params", func(t *testing.T) {
			b := newBusiness(t, []string{"dev.ucp.common.location.search"}, func(w http.ResponseWriter, _ *http.Request, id json.RawMessage) {
				w.Header().Set("Content-Type", "application/json")
				if id != nil {
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"bad","data":{"violations":[{"pointer":"/location/distance/max","keyword":"minimum","message":"must be >= 0"}]}}}`, id)
					return
				}
				w.WriteHeader(400)
				io.WriteString(w, `{"code":"invalid_params","content":"bad","violations":[{"pointer":"/distance/max","keyword":"minimum","message":"must be >= 0"}]}`)
			})
			_, err := dial(t, b, transport, ucpclient.Options{}).SearchLocations(context.Background(), &location.SearchRequest{})
			ip, found := rpcerr.AsInvalidParams(err)
			if !found || len(ip.Violations) != 1 || ip.Violations[0].Pointer != "/distance/max" {
				t.Errorf("err = %v, want invalid params at /distance/max", err)
			}
		})
		t.Run(transport+"/429 then 200", func(t *testing.T) {
			var b *business
			b = newBusiness(t, []string{"dev.ucp.common.location.search"}, func(w http.ResponseWriter, _ *http.Request, id json.RawMessage) {
				if b.calls.Load() <= 2 {
					w.Header().Set("Retry-After", "0")
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(429)
					if id != nil {
						fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"slow down","data":{"status":429,"retry_after":0}}}`, id)
						return
					}
					io.WriteString(w, `{"code":"rate_limited","content":"slow down"}`)
					return
				}
				reply(w, id, "application/json", ok)
			})
			resp, err := dial(t, b, transport, ucpclient.Options{Retries: 2}).SearchLocations(context.Background(), &location.SearchRequest{})
			if err != nil || resp == nil || b.calls.Load() != 3 {
				t.Errorf("after %d calls: %v, %v; want success on the third", b.calls.Load(), resp, err)
			}
		})
		t.Run(transport+"/503 for an hour", func(t *testing.T) {
			b := newBusiness(t, []string{"dev.ucp.common.location.search"}, func(w http.ResponseWriter, _ *http.Request, id json.RawMessage) {
				w.Header().Set("Retry-After", "3600")
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(503)
				if id != nil {
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"overloaded","data":{"status":503,"retry_after":3600}}}`, id)
					return
				}
				io.WriteString(w, `{"code":"unavailable","content":"overloaded"}`)
			})
			_, err := dial(t, b, transport, ucpclient.Options{}).SearchLocations(context.Background(), &location.SearchRequest{})
			tr, found := rpcerr.AsTransport(err)
			if !found || tr.HTTPStatus != 503 || tr.RetryAfter != time.Hour || b.calls.Load() != 1 {
				t.Errorf("after %d calls: %v; want one 503 asking for an hour", b.calls.Load(), err)
			}
		})
	}
}

// TestUnadvertisedCapabilityIsNeverCalled refuses a lookup at a Business
// that advertises search only, before anything is sent.
func TestUnadvertisedCapabilityIsNeverCalled(t *testing.T) {
	for _, transport := range []string{ucpclient.REST, ucpclient.MCP} {
		b := newBusiness(t, []string{"dev.ucp.common.location.search"}, func(w http.ResponseWriter, _ *http.Request, id json.RawMessage) {
			reply(w, id, "application/json", `{"ucp":{"version":"2026-08-25"},"locations":[]}`)
		})
		_, err := dial(t, b, transport, ucpclient.Options{}).LookupLocations(context.Background(), &location.LookupRequest{IDs: []string{"a"}})
		var na *ucpclient.NotAdvertisedError
		if !errors.As(err, &na) || na.Capability != "dev.ucp.common.location.lookup" || b.calls.Load() != 0 {
			t.Errorf("%s: %v after %d calls; want NotAdvertisedError and no call", transport, err, b.calls.Load())
		}
	}
}

// TestPagesStopAtTheFirstFailingPage walks a search whose second page is
// refused: the walk yields the first page, then that error, then stops;
// a Business repeating a cursor ends the walk with ErrCursorLoop.
func TestPagesStopAtTheFirstFailingPage(t *testing.T) {
	for _, c := range []struct {
		name   string
		second string
		want   error
	}{
		{"refused", "", nil},
		{"cursor repeated", `{"ucp":{"version":"2026-08-25"},"locations":[],"pagination":{"has_next_page":true,"cursor":"c1"}}`, ucpclient.ErrCursorLoop},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b *business
			b = newBusiness(t, []string{"dev.ucp.common.location.search"}, func(w http.ResponseWriter, r *http.Request, id json.RawMessage) {
				if b.calls.Load() == 1 {
					reply(w, id, "application/json", `{"ucp":{"version":"2026-08-25"},"locations":[],"pagination":{"has_next_page":true,"cursor":"c1"}}`)
					return
				}
				if c.second != "" {
					reply(w, id, "application/json", c.second)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(500)
				io.WriteString(w, `{"code":"internal_error","content":"internal error"}`)
			})
			var pages, errs int
			var last error
			for page, err := range dial(t, b, ucpclient.REST, ucpclient.Options{}).SearchLocationsPages(context.Background(), &location.SearchRequest{}) {
				if err != nil {
					errs++
					last = err
					continue
				}
				if page == nil {
					t.Fatal("a nil page without an error")
				}
				pages++
			}
			if c.want == nil {
				if pages != 1 || errs != 1 || b.calls.Load() != 2 {
					t.Errorf("%d pages, %d errors (%v) after %d calls; want 1, 1, 2", pages, errs, last, b.calls.Load())
				}
				var se *ucpclient.StatusError
				if !errors.As(last, &se) || se.HTTPStatus != 500 {
					t.Errorf("err = %v, want HTTP 500", last)
				}
				return
			}
			if pages != 2 || errs != 1 || !errors.Is(last, c.want) {
				t.Errorf("%d pages, %d errors (%v); want 2 pages then %v", pages, errs, last, c.want)
			}
		})
	}
}
