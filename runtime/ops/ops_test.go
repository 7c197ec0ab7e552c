package ops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
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
