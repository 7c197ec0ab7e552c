package ucpcore

import (
	"encoding/json"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimit limits how often one caller may call tools, so a single agent
// cannot monopolise the server or probe inventory item by item (UCP asks
// Businesses to rate-limit searches that carry item filters). A caller is
// the agent profile URL of the call (meta["ucp-agent"].profile) when it has
// one, else the remote address.
type RateLimit struct {
	// PerSecond and Burst are every caller's token bucket for tools/call;
	// PerSecond <= 0 turns the general limit off.
	PerSecond float64
	Burst     int
	// Strict selects calls that also draw from a second, smaller bucket
	// (StrictPerSecond, StrictBurst), e.g. searches with item filters; it
	// sees the tool name and the raw tools/call arguments object, whose
	// members are the tool's params.
	Strict          func(tool string, arguments json.RawMessage) bool
	StrictPerSecond float64
	StrictBurst     int
	// OtherPerSecond and OtherBurst are every remote address's bucket for
	// requests that run no tool (tools/list, initialize, ping, refused
	// messages): cheaper than a tool call, but counted, so no method is
	// free. OtherPerSecond <= 0 turns that limit off.
	OtherPerSecond float64
	OtherBurst     int
	// MaxCallers bounds how many callers are tracked at once (default
	// 10,000), so rotating identities cannot grow memory without end; when
	// full, untracked callers share one bucket.
	MaxCallers int
	// Now is the clock; nil means time.Now (tests step it by hand).
	Now func() time.Time
}

// buckets is a set of per-caller token buckets with a bounded key count.
// Each bucket is a golang.org/x/time/rate Limiter driven by the clock of
// RateLimit.Now (AllowN and TokensAt at an explicit time), so tests step
// time by hand; what this type adds is the bounded table of callers.
type buckets struct {
	mu        sync.Mutex
	rate      float64
	burst     int
	max       int
	m         map[string]*rate.Limiter
	lastSweep time.Time
}

// overflowKey is the bucket callers share when the table is full.
const overflowKey = "\x00overflow"

func newBuckets(perSecond float64, burst, max int) *buckets {
	if perSecond <= 0 {
		return nil
	}
	if burst < 1 {
		burst = int(math.Ceil(perSecond))
	}
	if max <= 0 {
		max = 10_000
	}
	return &buckets{rate: perSecond, burst: burst, max: max, m: map[string]*rate.Limiter{}}
}

// take removes one token from key's bucket. When the bucket is empty it
// reports false and how long until a token is back.
func (b *buckets) take(key string, now time.Time) (bool, time.Duration) {
	if b == nil {
		return true, 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	lim, ok := b.m[key]
	if !ok {
		if len(b.m) >= b.max {
			b.sweep(now)
		}
		if len(b.m) >= b.max {
			key = overflowKey
			lim = b.m[key]
		}
		if lim == nil {
			lim = rate.NewLimiter(rate.Limit(b.rate), b.burst)
			// A new bucket starts full at now, not at the zero time.
			lim.SetLimitAt(now, rate.Limit(b.rate))
			b.m[key] = lim
		}
	}
	tokens := lim.TokensAt(now)
	if tokens >= 1 && lim.AllowN(now, 1) {
		return true, 0
	}
	return false, time.Duration((1 - tokens) / b.rate * float64(time.Second))
}

// sweep forgets callers whose bucket is full again (they are
// indistinguishable from new ones), at most once a second.
func (b *buckets) sweep(now time.Time) {
	if now.Sub(b.lastSweep) < time.Second {
		return
	}
	b.lastSweep = now
	for k, lim := range b.m {
		if lim.TokensAt(now) >= float64(b.burst) {
			delete(b.m, k)
		}
	}
}

// rateLimiter applies a RateLimit.
type rateLimiter struct {
	cfg     RateLimit
	general *buckets
	strict  *buckets
	other   *buckets
}

func newRateLimiter(cfg *RateLimit) *rateLimiter {
	if cfg == nil {
		return nil
	}
	r := &rateLimiter{
		cfg:     *cfg,
		general: newBuckets(cfg.PerSecond, cfg.Burst, cfg.MaxCallers),
		other:   newBuckets(cfg.OtherPerSecond, cfg.OtherBurst, cfg.MaxCallers),
	}
	if cfg.Strict != nil {
		r.strict = newBuckets(cfg.StrictPerSecond, cfg.StrictBurst, cfg.MaxCallers)
	}
	if r.cfg.Now == nil {
		r.cfg.Now = time.Now
	}
	return r
}

// allow charges one call by caller; strict calls draw from both buckets.
func (r *rateLimiter) allow(caller string, strict bool) (bool, time.Duration) {
	if r == nil {
		return true, 0
	}
	now := r.cfg.Now()
	if r.strict != nil && strict {
		if ok, wait := r.strict.take(caller, now); !ok {
			return false, wait
		}
	}
	return r.general.take(caller, now)
}

// allowOther charges one request that runs no tool to remote.
func (r *rateLimiter) allowOther(remote string) (bool, time.Duration) {
	if r == nil {
		return true, 0
	}
	return r.other.take(remote, r.cfg.Now())
}
