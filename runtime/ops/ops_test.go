package ops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestOutcome(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		want   string
		cursor bool
	}{
		{200, `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{}}}`, OutcomeOK, false},
		{200, `{"jsonrpc":"2.0","id":"x","result":{"content":[{"type":"text","text":"` /* cut short */, OutcomeOK, false},
		{200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"m","data":{"violations":[{"pointer":"/location/distance/max"}]}}}`, OutcomeInvalidParams, false},
		{200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"m","data":{"violations":[{"pointer":"/location/pagination/cursor"}]}}}`, OutcomeInvalidParams, true},
		{200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error"}}`, OutcomeInternal, false},
		{429, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000}}`, OutcomeRateLimited, false},
		{503, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000}}`, OutcomeOverloaded, false},
		{500, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603}}`, OutcomeInternal, false},
		{400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}`, OutcomeInvalidRequest, false},
		{405, `Method Not Allowed`, OutcomeInvalidRequest, false},
		{200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"version unsupported"}}`, OutcomeRefused, false},
	} {
		got, cursor := Outcome(tc.status, []byte(tc.body))
		if got != tc.want || cursor != tc.cursor {
			t.Errorf("Outcome(%d, %s) = %s %v, want %s %v", tc.status, tc.body, got, cursor, tc.want, tc.cursor)
		}
	}
}

// TestRESTOutcome: a REST answer is classified by its status and refusal
// code in the vocabulary of MCP's answers, so that a 200 is ok, a refused
// cursor counts as one, and a header refusal is not an invalid_params.
func TestRESTOutcome(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		want   string
		cursor bool
	}{
		{200, `{"ucp":{},"locations":[]}`, OutcomeOK, false},
		{200, ``, OutcomeOK, false},
		{400, `{"code":"invalid_params","content":"m","violations":[{"pointer":"/distance/max"}]}`, OutcomeInvalidParams, false},
		{400, `{"code":"invalid_params","content":"m","violations":[{"pointer":"/pagination/cursor"}]}`, OutcomeInvalidParams, true},
		{400, `{"code":"invalid_header","content":"m","header":"Request-Id"}`, OutcomeInvalidRequest, false},
		{400, `{"code":"invalid_json","content":"m"}`, OutcomeInvalidRequest, false},
		{400, `{"code":"invalid_profile_url","content":"m"}`, OutcomeRefused, false},
		{404, `{"code":"not_found","content":"m"}`, OutcomeInvalidRequest, false},
		{405, `{"code":"method_not_allowed","content":"m"}`, OutcomeInvalidRequest, false},
		{413, `{"code":"body_too_large","content":"m"}`, OutcomeInvalidRequest, false},
		{415, `{"code":"unsupported_media_type","content":"m"}`, OutcomeInvalidRequest, false},
		{401, `{"code":"unauthenticated","content":"m"}`, OutcomeRefused, false},
		{422, `{"code":"version_unsupported","content":"m"}`, OutcomeRefused, false},
		{424, `{"code":"profile_unreachable","content":"m"}`, OutcomeRefused, false},
		{429, `{"code":"rate_limited","content":"m"}`, OutcomeRateLimited, false},
		{503, `{"code":"unavailable","content":"m"}`, OutcomeOverloaded, false},
		{500, `{"code":"internal_error","content":"internal error"}`, OutcomeInternal, false},
	} {
		got, cursor := RESTOutcome(tc.status, []byte(tc.body))
		if got != tc.want || cursor != tc.cursor {
			t.Errorf("RESTOutcome(%d, %s) = %s %v, want %s %v", tc.status, tc.body, got, cursor, tc.want, tc.cursor)
		}
	}
}

// TestStdioOutcome: a stdio answer, which has no HTTP status, is classified
// by its code, and a -32000 by the status its data names.
func TestStdioOutcome(t *testing.T) {
	for _, tc := range []struct {
		err    *jsonrpc.Error
		want   string
		cursor bool
	}{
		{nil, OutcomeOK, false},
		{&jsonrpc.Error{Code: -32602, Data: []byte(`{"violations":[{"pointer":"/location/pagination/cursor"}]}`)}, OutcomeInvalidParams, true},
		{&jsonrpc.Error{Code: -32602, Data: []byte(`{"violations":[{"pointer":"/location/query"}]}`)}, OutcomeInvalidParams, false},
		{&jsonrpc.Error{Code: -32000, Data: []byte(`{"status":429,"retry_after":1}`)}, OutcomeRateLimited, false},
		{&jsonrpc.Error{Code: -32000, Data: []byte(`{"status":503}`)}, OutcomeOverloaded, false},
		{&jsonrpc.Error{Code: -32000, Data: []byte(`{"status":401}`)}, OutcomeRefused, false},
		{&jsonrpc.Error{Code: -32001}, OutcomeRefused, false},
		{&jsonrpc.Error{Code: -32603}, OutcomeInternal, false},
		{&jsonrpc.Error{Code: -32700}, OutcomeInvalidRequest, false},
	} {
		if got, cursor := StdioOutcome(tc.err); got != tc.want || cursor != tc.cursor {
			t.Errorf("StdioOutcome(%+v) = %s %v, want %s %v", tc.err, got, cursor, tc.want, tc.cursor)
		}
	}
}

// TestLogTextIsBounded: a field the client chose is kept whole when short
// and valid, cut with a marker naming its length when long, and its
// invalid bytes are escaped in four bytes each, never tripled.
func TestLogTextIsBounded(t *testing.T) {
	long := "https://platform.example/" + strings.Repeat("a", 900_000)
	for _, tc := range []struct{ in, want string }{
		{"https://platform.example/p.json", "https://platform.example/p.json"},
		{"caf\xc3\xa9", "caf\xc3\xa9"},
		{"a\xffb", `a\xffb`},
		{strings.Repeat("\xff", 1<<20), strings.Repeat(`\xff`, 50) + "...[cut: 1048576 bytes]"},
		{long, long[:200] + "...[cut: 900025 bytes]"},
	} {
		got := LogText(tc.in, 200)
		if got != tc.want {
			t.Errorf("LogText(%.30q) = %.80q, want %.80q", tc.in, got, tc.want)
		}
		if len(got) > 200+32 {
			t.Errorf("LogText(%.30q) is %d bytes", tc.in, len(got))
		}
	}
}

// TestCoarse: coordinates in logs are cut to 2 decimals toward zero
// (LOCATION.md section 10), never rounded up to a finer or nearer place.
func TestCoarse(t *testing.T) {
	for _, tc := range []struct {
		lat, lon float64
		want     string
	}{
		{40.7128, -74.006, "40.71,-74.00"},
		{-33.8688, 151.2093, "-33.86,151.20"},
		{0.009, -0.009, "0.00,-0.00"},
		{89.999, 179.999, "89.99,179.99"},
	} {
		if got := Coarse(tc.lat, tc.lon); got != tc.want {
			t.Errorf("Coarse(%v, %v) = %s, want %s", tc.lat, tc.lon, got, tc.want)
		}
	}
}

// TestResultHead holds the decoder-free reading of a success to the
// decoder's: whenever resultHead says a result has begun, so does the
// token walk, and the heads it declines are still read by that walk.
func TestResultHead(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{`, true},
		{`{"jsonrpc":"2.0","id":-42,"result":{"content"`, true},
		{`{"jsonrpc":"2.0","id":"a-b","result":{}}`, true},
		{`{"jsonrpc":"2.0","id":"a\"b","result":{}}`, false},
		{`{"jsonrpc":"2.0","id":01,"result":{}}`, false},
		{`{"jsonrpc":"2.0","id":-,"result":{}}`, false},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32603}}`, false},
		{`{"jsonrpc":"2.0","id":null,"result":{}}`, false},
		{`{"id":1,"jsonrpc":"2.0","result":{}}`, false},
	} {
		if got := resultHead([]byte(tc.body)); got != tc.want {
			t.Errorf("resultHead(%s) = %v, want %v", tc.body, got, tc.want)
		}
		if tc.want {
			// The token walk, as answerError ran before resultHead.
			if e, ok := answerErrorDecoded([]byte(tc.body)); !ok || e != nil {
				t.Errorf("%s: the decoder reads %v %v, not a result", tc.body, e, ok)
			}
		}
	}
}

// Coarse writes what fmt's "%.2f,%.2f" writes for the truncated
// coordinates, negative zero and extremes included.
func TestCoarseMatchesSprintf(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), -0.001, 0.009, 40.78319, -73.97125, 90, -180, 1e-300, 179.999999, -89.995}
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		vals = append(vals, r.Float64()*360-180)
	}
	for i, lat := range vals {
		lon := vals[len(vals)-1-i]
		if got, want := Coarse(lat, lon), fmt.Sprintf("%.2f,%.2f", Truncate(lat), Truncate(lon)); got != want {
			t.Fatalf("Coarse(%v, %v) = %q, want %q", lat, lon, got, want)
		}
	}
}
