package ops

import (
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"time"
)

// Probe paths.
const (
	HealthzPath = "/healthz"
	ReadyzPath  = "/readyz"
)

// DefaultReadyTimeout bounds the source check of one /readyz request.
const DefaultReadyTimeout = time.Second

// Gate serves the liveness and readiness probes in front of the
// application, which it holds back until Open: during start-up (loading a
// dataset can take minutes) /healthz is 200, /readyz is 503 "loading" and
// every other path is 503. After Open, /readyz asks the source (Ready) with
// a short timeout; after Drain it is 503 "draining", so a load balancer
// stops sending traffic before the server stops accepting it. The probes
// are answered here, before any authentication, rate limit or in-flight
// cap the application applies, and cost no more than the source check.
type Gate struct {
	app   atomic.Pointer[http.Handler]
	ready atomic.Pointer[func(context.Context) error]
	drain atomic.Bool
	// Timeout bounds Ready per probe (0: DefaultReadyTimeout).
	Timeout time.Duration
}

// Open starts serving app; ready reports whether the source answers (nil:
// always ready).
func (g *Gate) Open(app http.Handler, ready func(context.Context) error) {
	if ready == nil {
		ready = func(context.Context) error { return nil }
	}
	g.ready.Store(&ready)
	g.app.Store(&app)
}

// Drain turns /readyz to 503 "draining" for good; requests are still served.
func (g *Gate) Drain() { g.drain.Store(true) }

func (g *Gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case HealthzPath:
		probe(w, http.StatusOK, "alive", "")
		return
	case ReadyzPath:
		g.readyz(w, r)
		return
	}
	app := g.app.Load()
	if app == nil {
		w.Header().Set("Retry-After", "5")
		probe(w, http.StatusServiceUnavailable, "loading", "the server is loading its data; retry shortly")
		return
	}
	(*app).ServeHTTP(w, r)
}

func (g *Gate) readyz(w http.ResponseWriter, r *http.Request) {
	ready := g.ready.Load()
	switch {
	case g.drain.Load():
		probe(w, http.StatusServiceUnavailable, "draining", "shutting down")
		return
	case ready == nil:
		probe(w, http.StatusServiceUnavailable, "loading", "the server is loading its data")
		return
	}
	t := g.Timeout
	if t <= 0 {
		t = DefaultReadyTimeout
	}
	ctx, cancel := context.WithTimeout(r.Context(), t)
	defer cancel()
	if err := (*ready)(ctx); err != nil {
		probe(w, http.StatusServiceUnavailable, "unavailable", "the data source does not answer")
		return
	}
	probe(w, http.StatusOK, "ready", "")
}

// probe writes a probe's small JSON answer; it is never cached.
func probe(w http.ResponseWriter, status int, state, detail string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]string{"status": state, "detail": detail})
	w.Write(append(b, '\n'))
}
