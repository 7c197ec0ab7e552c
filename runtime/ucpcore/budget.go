package ucpcore

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Defaults of BudgetOptions.
const (
	// DefaultMaxRequestMemory is the memory all admitted requests may
	// reserve at once: room for one worst-case 1 MiB body at the default
	// multiple, or many ordinary ones.
	DefaultMaxRequestMemory = 96 << 20
	// DefaultMemoryPerBodyByte is what one body byte may cost while it is
	// served: a body of numbers or empty containers parses into values of
	// about 50 times its size, plus the copies decoding makes.
	DefaultMemoryPerBodyByte = 64
	// DefaultMemoryWait is how long a request waits for memory before it
	// gets -32000 with HTTP 503.
	DefaultMemoryWait = 30 * time.Second
	// minReservation is what even a tiny request reserves, so that the
	// fixed costs of a call (session, envelope, answer) are counted.
	minReservation = 16 << 10
)

// BudgetOptions configure a Budget. The zero value admits requests by
// memory with the defaults, caps nothing else and limits no rate.
type BudgetOptions struct {
	// MaxInFlight caps the requests being served at once; 0 means no cap.
	MaxInFlight int
	// MaxRequestMemory is the memory the requests being served may reserve
	// together; 0 means DefaultMaxRequestMemory, a negative value turns
	// memory admission off.
	MaxRequestMemory int64
	// MemoryPerBodyByte is the multiple of its body size a request
	// reserves; 0 means DefaultMemoryPerBodyByte.
	MemoryPerBodyByte int64
	// MemoryWait is how long a request may wait for memory; 0 means
	// DefaultMemoryWait.
	MemoryWait time.Duration
	// RateLimit limits calls per caller (nil: no limit).
	RateLimit *RateLimit
}

// Budget is what one server's requests draw on, whatever transport or
// protocol version carries them: an in-flight cap, a request-memory budget
// and per-caller rate buckets. Endpoints that share a Budget share its
// limits, so a caller cannot escape one by switching endpoint.
type Budget struct {
	inflight chan struct{}
	memory   *semaphore.Weighted
	memTotal int64
	perByte  int64
	wait     time.Duration
	limiter  *rateLimiter
}

// NewBudget builds a Budget from o.
func NewBudget(o BudgetOptions) *Budget {
	b := &Budget{limiter: newRateLimiter(o.RateLimit), perByte: o.MemoryPerBodyByte, wait: o.MemoryWait}
	if o.MaxInFlight > 0 {
		b.inflight = make(chan struct{}, o.MaxInFlight)
	}
	if b.perByte <= 0 {
		b.perByte = DefaultMemoryPerBodyByte
	}
	if b.wait <= 0 {
		b.wait = DefaultMemoryWait
	}
	switch {
	case o.MaxRequestMemory == 0:
		b.memTotal = DefaultMaxRequestMemory
	case o.MaxRequestMemory > 0:
		b.memTotal = o.MaxRequestMemory
	}
	if b.memTotal > 0 {
		b.memory = semaphore.NewWeighted(b.memTotal)
	}
	return b
}

// Admission is one admitted request's hold on its Budget: an in-flight slot
// and reserved memory, both given back by Release.
type Admission struct {
	b    *Budget
	once sync.Once
	slot bool
	mem  int64
}

// Reservation is the memory a request with a body of n bytes reserves.
func (b *Budget) Reservation(n int) int64 {
	if b == nil || b.memory == nil {
		return 0
	}
	r := max(int64(n)*b.perByte, minReservation)
	return min(r, b.memTotal)
}

// Admit takes an in-flight slot (at once, or a 503 error) and then waits
// for the memory a body of bodyBytes needs (up to MemoryWait, or a 503
// error). The error is an *rpcerr.Transport; a nil Budget admits all.
func (b *Budget) Admit(ctx context.Context, bodyBytes int) (*Admission, error) {
	a := &Admission{b: b}
	if b == nil {
		return a, nil
	}
	if b.inflight != nil {
		select {
		case b.inflight <- struct{}{}:
			a.slot = true
		default:
			return nil, rpcerr.Overloaded("server busy: too many requests in flight", time.Second)
		}
	}
	if need := b.Reservation(bodyBytes); need > 0 {
		if !b.memory.TryAcquire(need) {
			wctx, cancel := context.WithTimeout(ctx, b.wait)
			err := b.memory.Acquire(wctx, need)
			cancel()
			if err != nil {
				// Also when the caller left while waiting: the answer then
				// goes nowhere, and a typed error is not logged as a fault.
				a.Release()
				return nil, rpcerr.Overloaded(fmt.Sprintf("server busy: no request memory free within %s", b.wait), time.Second)
			}
		}
		a.mem = need
	}
	return a, nil
}

// Release gives the slot and the memory back; it may be called more than
// once, and on nil.
func (a *Admission) Release() {
	if a == nil {
		return
	}
	a.once.Do(func() {
		if a.slot {
			<-a.b.inflight
		}
		if a.mem > 0 {
			a.b.memory.Release(a.mem)
		}
	})
}

// ChargeTool charges one tool call to caller (an agent profile or remote
// address); strict calls draw from the strict bucket as well. A refusal is
// an *rpcerr.Transport with HTTP 429 and the wait.
func (b *Budget) ChargeTool(caller string, strict bool) error {
	if b == nil {
		return nil
	}
	if ok, wait := b.limiter.allow(caller, strict); !ok {
		return rpcerr.RateLimited("rate limit exceeded for this caller", wait)
	}
	return nil
}

// ChargeOther charges one request that runs no tool (tools/list,
// initialize, ping, a refused message) to the remote address it came from,
// on its own bucket.
func (b *Budget) ChargeOther(remote string) error {
	if b == nil {
		return nil
	}
	if ok, wait := b.limiter.allowOther(remote); !ok {
		return rpcerr.RateLimited("rate limit exceeded for this caller", wait)
	}
	return nil
}

// Strict reports whether a call of tool with the raw arguments object
// arguments draws from the strict bucket.
func (b *Budget) Strict(tool string, arguments json.RawMessage) bool {
	if b == nil || b.limiter == nil || b.limiter.cfg.Strict == nil {
		return false
	}
	return b.limiter.cfg.Strict(tool, arguments)
}

// charger is what a transport tells the tools it runs about one request:
// the budget to charge, the remote address that stands for a caller
// without an agent profile, and whether a tool was charged.
type charger struct {
	budget *Budget
	remote string
	ran    atomic.Bool
}

type chargerKey struct{}

// WithBudget returns ctx under which a tool call is charged to b, inside
// the tool, from the arguments exactly as decoded; remote (an address
// without its port) is the caller when the call names no agent profile.
// Every transport that runs tools (MCP over HTTP, REST) uses it, so that
// they share one view of the call and one set of buckets.
func WithBudget(ctx context.Context, b *Budget, remote string) context.Context {
	return context.WithValue(ctx, chargerKey{}, &charger{budget: b, remote: remote})
}

// ToolCharged reports whether a tool ran, and was charged, under ctx from
// WithBudget; a transport charges a request that ran none with ChargeOther.
func ToolCharged(ctx context.Context) bool {
	c, _ := ctx.Value(chargerKey{}).(*charger)
	return c != nil && c.ran.Load()
}

// charge charges one call of tool to the budget under ctx (none: free).
// valid reports whether the arguments passed validation; only then may the
// strict bucket's predicate read them.
func charge(ctx context.Context, tool, profile string, arguments json.RawMessage, valid bool) error {
	c, _ := ctx.Value(chargerKey{}).(*charger)
	caller := profile
	if caller == "" && c != nil {
		caller = c.remote
	}
	if o, _ := ctx.Value(observerKey{}).(Observer); o != nil {
		o.ObserveCall(tool, caller)
	}
	if c == nil || c.ran.Swap(true) {
		return nil
	}
	return c.budget.ChargeTool(caller, valid && c.budget.Strict(tool, arguments))
}

// Observer is told, for an access log or metrics wrapped around a
// transport, which tool a call runs and the caller it is charged to, as the
// core itself read them from the validated arguments, so the wrapper need
// not parse the request a second time.
type Observer interface {
	ObserveCall(tool, caller string)
}

type observerKey struct{}

// WithObserver returns ctx under which every call tells o its tool and
// caller.
func WithObserver(ctx context.Context, o Observer) context.Context {
	return context.WithValue(ctx, observerKey{}, o)
}

// CarryCall returns dst carrying the call state of src (its budget and
// remote address from WithBudget, its Observer), for a transport whose
// tool handler runs under a context other than the request's (the MCP
// SDK's, see runtime/mcpserver).
func CarryCall(dst, src context.Context) context.Context {
	if c := src.Value(chargerKey{}); c != nil {
		dst = context.WithValue(dst, chargerKey{}, c)
	}
	if o := src.Value(observerKey{}); o != nil {
		dst = context.WithValue(dst, observerKey{}, o)
	}
	return dst
}
