package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestPairedTakesTurns: paired measures both sides, each in pairedSlices
// turns that alternate with the other's after a warm-up, so neither side
// is measured only while the machine is busier; a side that fails is an
// error naming it.
func TestPairedTakesTurns(t *testing.T) {
	var mu sync.Mutex
	var order []int // the side of each request, in arrival order
	serve := func(k int, broken bool) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var req struct {
				ID json.RawMessage `json:"id"`
			}
			if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			mu.Lock()
			order = append(order, k)
			mu.Unlock()
			if broken {
				http.Error(w, "down", http.StatusServiceUnavailable)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"structuredContent":{"locations":[{"id":"a"}]}}}`))
		}))
	}
	a, b := serve(0, false), serve(1, false)
	defer a.Close()
	defer b.Close()
	rates, cpus, err := paired("http", 2, 500*time.Millisecond, []side{{"a", a.URL, 0}, {"b", b.URL, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rates) != 2 || rates[0] <= 0 || rates[1] <= 0 {
		t.Fatalf("rates %v, want two positive", rates)
	}
	if cpus[0] != 0 || cpus[1] != 0 {
		t.Errorf("CPU per call %v without a pid, want 0", cpus)
	}
	// Runs of one side: the two warm-ups, then the turns; the first
	// round is a then b, the second b then a (one run with the end of the
	// first), and so on.
	mu.Lock()
	runs := 1
	for i := 1; i < len(order); i++ {
		if order[i] != order[i-1] {
			runs++
		}
	}
	mu.Unlock()
	// warm a, warm b | a b | b a | a b | b a | a b: the joins (b b, a a, ...)
	// merge, so 2 + 2*pairedSlices - (pairedSlices - 1) runs, the first
	// round's a following the warm-up of b.
	if want := 2 + 2*pairedSlices - (pairedSlices - 1); runs != want {
		t.Errorf("%d runs of requests to one side, want %d", runs, want)
	}

	broken := serve(1, true)
	defer broken.Close()
	_, _, err = paired("http", 2, 300*time.Millisecond, []side{{"a", a.URL, 0}, {"the broken one", broken.URL, 0}})
	if err == nil || !strings.Contains(err.Error(), "the broken one") || !strings.Contains(err.Error(), "status 503") {
		t.Errorf("a failing side: error %v, want one naming it and its status", err)
	}
}
