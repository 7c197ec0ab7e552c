package postgis

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// RetryAfter is what an unavailable database tells the Platform: come back
// in a second, about the time the pool needs to reconnect once the
// database answers again.
const RetryAfter = time.Second

// FaultLogInterval is how often an outage that goes on is logged again,
// with the number of calls it refused since the last line.
const FaultLogInterval = 10 * time.Second

// UnavailableError is a Source call that failed because the database did
// not answer (refused or dropped connections, a timeout, a server shutting
// down). It unwraps to the cause, for the log, and to a 503 rpcerr.Transport
// with Retry-After, for the client: the request was fine and may be
// repeated, so it is neither -32602 nor -32603.
type UnavailableError struct {
	Err       error
	transport *rpcerr.Transport
}

func (e *UnavailableError) Error() string { return "postgis unavailable: " + e.Err.Error() }

// Unwrap lets errors.As find both the cause and the transport error.
func (e *UnavailableError) Unwrap() []error { return []error{e.Err, e.transport} }

// unavailable reports whether err means the database did not answer, as
// opposed to a statement or data fault that repeating cannot fix. parent
// is the caller's context: when it is done, the caller left and the error
// is not the database's fault.
func unavailable(parent context.Context, err error) bool {
	if err == nil || parent.Err() != nil {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) {
		return true // our own --postgres-timeout, or the driver's
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08 is a connection exception; 57P01-57P03 a server shutting
		// down or starting; 53300 too many connections; 57014 a statement
		// cancelled by statement_timeout (the database is too slow now).
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" ||
			pe.Code == "57P03" || pe.Code == "53300" || pe.Code == "57014"
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) {
		return true
	}
	return pgconn.SafeToRetry(err)
}

// faultLog logs database outages at a bounded rate: one line when an
// outage starts, one per FaultLogInterval while it lasts (with the count of
// calls it refused), and one when the database answers again, however many
// calls fail in between.
type faultLog struct {
	logger   *slog.Logger
	interval time.Duration
	now      func() time.Time

	mu      sync.Mutex
	down    bool
	since   time.Time // start of the outage
	logged  time.Time // last line written
	pending int       // refusals since the last line
	total   int       // refusals in this outage
}

// failed records one call refused because the database is unavailable.
func (f *faultLog) failed(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.now()
	f.total++
	if !f.down {
		f.down, f.since, f.logged, f.pending = true, t, t, 0
		f.logger.Error("postgis unavailable: answering -32000 (HTTP 503) until it answers again", "err", err)
		return
	}
	f.pending++
	if t.Sub(f.logged) >= f.interval {
		f.logger.Error("postgis still unavailable", "refused_since_last_log", f.pending, "refused", f.total, "for", t.Sub(f.since).Round(time.Millisecond), "err", err)
		f.logged, f.pending = t, 0
	}
}

// ok records a call the database answered, ending an outage.
func (f *faultLog) ok() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.down {
		return
	}
	f.logger.Info("postgis available again", "refused", f.total, "after", f.now().Sub(f.since).Round(time.Millisecond))
	f.down, f.total, f.pending = false, 0, 0
}

// fault classifies the error of one Source call: a database that did not
// answer becomes an *UnavailableError (logged at a bounded rate); any other
// error is returned as it is. A nil error ends an outage.
func (s *Source) fault(parent context.Context, err error) error {
	if err == nil {
		s.faults.ok()
		return nil
	}
	if !unavailable(parent, err) {
		return err
	}
	s.faults.failed(err)
	return &UnavailableError{Err: err, transport: rpcerr.Overloaded("data source unavailable; retry later", RetryAfter)}
}

// call runs one Source statement under the configured timeout and
// classifies its error.
func call[T any](s *Source, ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	c, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	v, err := f(c)
	if err = s.fault(ctx, err); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}
