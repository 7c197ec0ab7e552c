package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/envelope"
)

// recordingNegotiator records the profiles negotiation was asked for and
// answers as the trusted default does.
type recordingNegotiator struct {
	mu       sync.Mutex
	profiles []string
}

func (n *recordingNegotiator) Negotiate(ctx context.Context, profile, capability string) (envelope.Outcome, error) {
	n.mu.Lock()
	n.profiles = append(n.profiles, profile)
	n.mu.Unlock()
	return envelope.Fixed("2026-08-25", map[string]string{capability: "2026-08-25"}).Negotiate(ctx, profile, capability)
}

// TestLimiterReadsTheCallThatRuns checks both paths: the rate limiter and negotiation see the call exactly as it is
// decoded and run, so decoys that a case-insensitive or last-duplicate
// reader would take (params.Arguments, meta.UCP-AGENT, location.FILTERS)
// neither rotate the caller's bucket, nor dodge the items bucket, nor choose
// the profile negotiation fetches; a repeated ucp-agent is -32602.
func TestLimiterReadsTheCallThatRuns(t *testing.T) {
	for _, viaSDK := range []bool{false, true} {
		t.Run(fmt.Sprintf("viaSDK=%v", viaSDK), func(t *testing.T) {
			l := defaultLimits(t)
			l.rate, l.rateBurst, l.itemsRate, l.itemsBurst, l.viaSDK = 0.001, 3, 0.001, 1, viaSDK
			neg := &recordingNegotiator{}
			s := startHTTP(t, config{limits: l, negotiator: neg})
			call := func(id int, params string) (int, rpcResult) {
				status, _, r := rpc(t, http.DefaultClient, s.url, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, params))
				return status, r
			}
			decoys := []struct {
				name   string
				params func(i int) string
			}{
				{"params.Arguments", func(i int) string {
					return fmt.Sprintf(`{"name":"search_locations","arguments":{"meta":{"ucp-agent":{"profile":"https://a.example/p"}},"location":{}},"Arguments":{"meta":{"ucp-agent":{"profile":"https://decoy%d.example/p"}},"location":{}}}`, i)
				}},
				{"meta.UCP-AGENT", func(i int) string {
					return fmt.Sprintf(`{"name":"search_locations","arguments":{"meta":{"ucp-agent":{"profile":"https://b.example/p"},"UCP-AGENT":{"profile":"https://decoy%d.example/p"}},"location":{}}}`, i)
				}},
			}
			for _, d := range decoys {
				for i := range 6 {
					status, r := call(i, d.params(i))
					if limited := status == http.StatusTooManyRequests; limited != (i >= 3) {
						t.Errorf("%s call %d: status %d, want limited=%v (burst 3): %.200s", d.name, i, status, i >= 3, r.raw)
						break
					}
				}
			}
			items := `{"name":"search_locations","arguments":{"meta":{"ucp-agent":{"profile":"https://c.example/p"}},"location":{"filters":{"items":["sku-1"]},"FILTERS":{"items":null}}}}`
			if status, r := call(10, items); status != 200 {
				t.Fatalf("first items search: %d %.200s", status, r.raw)
			}
			if status, r := call(11, items); status != http.StatusTooManyRequests {
				t.Errorf("second items search with a FILTERS decoy: %d, want 429 (items burst 1): %.200s", status, r.raw)
			}
			status, r := call(12, `{"name":"search_locations","arguments":{"meta":{"ucp-agent":{"profile":"https://d.example/p"},"ucp-agent":{"profile":"https://e.example/p"}},"location":{}}}`)
			if r.Error == nil || r.Error.Code != -32602 || !strings.Contains(string(r.Error.Data), `"/meta/ucp-agent"`) {
				t.Errorf("repeated ucp-agent: %d %.300s", status, r.raw)
			}
			neg.mu.Lock()
			defer neg.mu.Unlock()
			for _, p := range neg.profiles {
				if strings.Contains(p, "decoy") || strings.Contains(p, "e.example") {
					t.Errorf("negotiation fetched %s, not the validated profile", p)
				}
			}
			if len(neg.profiles) == 0 {
				t.Error("no call was negotiated")
			}
		})
	}
}
