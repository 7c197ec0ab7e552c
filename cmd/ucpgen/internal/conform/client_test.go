package conform

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestClientHonoursRetryAfter holds the client to the politeness rules: a
// 429 or 503 with Retry-After is waited out and retried, a wait longer than
// the deadline allows is not attempted, and the budget is never exceeded.
func TestClientHonoursRetryAfter(t *testing.T) {
	cases := []struct {
		name       string
		status     int
		retryAfter string
		budget     int
		deadline   time.Duration
		wantStatus int
		wantSent   int32
		wantWaited time.Duration
		wantErr    error
	}{
		{"429 waited out", http.StatusTooManyRequests, "1", 5, time.Minute, http.StatusOK, 2, time.Second, nil},
		{"503 waited out", http.StatusServiceUnavailable, "1", 5, time.Minute, http.StatusOK, 2, time.Second, nil},
		{"wait past the deadline is not attempted", http.StatusTooManyRequests, "120", 5, 10 * time.Second, http.StatusTooManyRequests, 1, 0, nil},
		{"no Retry-After, no retry", http.StatusTooManyRequests, "", 5, time.Minute, http.StatusTooManyRequests, 1, 0, nil},
		{"the retry counts against the budget", http.StatusTooManyRequests, "1", 1, time.Minute, 0, 1, 0, errBudget},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var sent atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if sent.Add(1) == 1 {
					if tc.retryAfter != "" {
						w.Header().Set("Retry-After", tc.retryAfter)
					}
					w.WriteHeader(tc.status)
					return
				}
				w.WriteHeader(http.StatusOK)
			}))
			defer srv.Close()
			c := newClient(srv.Client(), 100, tc.budget)
			ctx, cancel := context.WithTimeout(context.Background(), tc.deadline)
			defer cancel()
			a, err := c.do(ctx, srv.URL, nil, http.Header{})
			if err != tc.wantErr && (tc.wantErr == nil || err == nil) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if a.status != tc.wantStatus || sent.Load() != tc.wantSent || c.waited != tc.wantWaited {
				t.Fatalf("status %d after %d requests, waited %v; want %d after %d, waited %v", a.status, sent.Load(), c.waited, tc.wantStatus, tc.wantSent, tc.wantWaited)
			}
		})
	}
}

// TestRetryAfterForms reads both forms of Retry-After.
func TestRetryAfterForms(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"3", 3 * time.Second, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"soon", 0, false},
		{"-1", 0, false},
	}
	for _, tc := range cases {
		if got, ok := retryAfter(tc.in, now); got != tc.want || ok != tc.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
