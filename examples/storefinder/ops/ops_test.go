package ops

import "testing"

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
