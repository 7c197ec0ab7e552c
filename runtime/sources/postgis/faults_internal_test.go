package postgis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// lockedBuffer is a log sink safe for concurrent writers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Split(strings.TrimSpace(l.b.String()), "\n")
}

// TestFaultLogIsRateLimited: 1,000 refused calls in one outage of 25 s
// write one line when it starts, one per FaultLogInterval with the count
// since the last line, and one when the database answers again.
func TestFaultLogIsRateLimited(t *testing.T) {
	var buf lockedBuffer
	now := time.Unix(0, 0)
	f := &faultLog{logger: slog.New(slog.NewTextHandler(&buf, nil)), interval: FaultLogInterval, now: func() time.Time { return now }}
	f.ok() // no outage: nothing to say
	cause := errors.New("dial tcp: connection refused")
	for i := range 1000 {
		now = time.Unix(0, 0).Add(time.Duration(i) * 25 * time.Millisecond)
		f.failed(cause)
	}
	f.ok()
	f.ok()
	lines := buf.lines()
	want := []string{"postgis unavailable", "postgis still unavailable", "postgis still unavailable", "postgis available again"}
	if len(lines) != len(want) {
		t.Fatalf("%d log lines for 1,000 refusals, want %d:\n%s", len(lines), len(want), strings.Join(lines, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d = %s, want %q", i, lines[i], w)
		}
	}
	if !strings.Contains(lines[1], "refused_since_last_log=400") || !strings.Contains(lines[3], "refused=1000") {
		t.Errorf("counts missing:\n%s", strings.Join(lines, "\n"))
	}
}

// TestUnavailableClassification: connection and timeout faults are 503
// with Retry-After; statement faults stay internal; a caller that left is
// not the database's fault.
func TestUnavailableClassification(t *testing.T) {
	bg := context.Background()
	gone, cancel := context.WithCancel(bg)
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"deadline", bg, fmt.Errorf("postgis candidates: %w", context.DeadlineExceeded), true},
		{"connection exception", bg, &pgconn.PgError{Code: "08006"}, true},
		{"admin shutdown", bg, &pgconn.PgError{Code: "57P01"}, true},
		{"statement timeout", bg, &pgconn.PgError{Code: "57014"}, true},
		{"too many connections", bg, &pgconn.PgError{Code: "53300"}, true},
		{"unexpected EOF", bg, fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		{"syntax error", bg, &pgconn.PgError{Code: "42601"}, false},
		{"stack depth", bg, &pgconn.PgError{Code: "54001"}, false},
		{"plain error", bg, errors.New("stored location no longer decodes"), false},
		{"caller left", gone, context.Canceled, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := unavailable(tc.ctx, tc.err); got != tc.want {
				t.Fatalf("unavailable(%v) = %v, want %v", tc.err, got, tc.want)
			}
			s := &Source{faults: &faultLog{logger: slog.New(slog.DiscardHandler), interval: time.Second, now: time.Now}}
			err := s.fault(tc.ctx, tc.err)
			tr, ok := rpcerr.AsTransport(err)
			if ok != tc.want || (ok && (tr.HTTPStatus != 503 || tr.RetryAfter != RetryAfter)) {
				t.Fatalf("fault(%v) = %v (transport %v)", tc.err, err, ok)
			}
			if !errors.Is(err, tc.err) {
				t.Errorf("fault(%v) lost its cause: %v", tc.err, err)
			}
		})
	}
}

// TestConfigTimeouts: the pool gets a statement_timeout and a connect
// timeout, so a hostile query or a hung server cannot hold a connection;
// values the DSN sets win.
func TestConfigTimeouts(t *testing.T) {
	cfg, err := Config("postgres://u@127.0.0.1:5432/db")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.ConnConfig.RuntimeParams["statement_timeout"]; got != "5000" {
		t.Errorf("statement_timeout = %q, want 5000 (ms)", got)
	}
	if cfg.ConnConfig.ConnectTimeout != ConnectTimeout {
		t.Errorf("connect timeout = %v, want %v", cfg.ConnConfig.ConnectTimeout, ConnectTimeout)
	}
	cfg, err = Config("postgres://u@127.0.0.1:5432/db?connect_timeout=2&statement_timeout=700")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ConnConfig.RuntimeParams["statement_timeout"] != "700" || cfg.ConnConfig.ConnectTimeout != 2*time.Second {
		t.Errorf("the DSN's own timeouts were overridden: %q, %v", cfg.ConnConfig.RuntimeParams["statement_timeout"], cfg.ConnConfig.ConnectTimeout)
	}
}

// TestConfigPlansEveryStatementWithItsValues: the pool never lets a
// prepared statement fall back to a generic plan (the planner's choice
// after five runs, made without the parameters' values, once cost ranked
// pages seconds); a DSN's own plan_cache_mode wins.
func TestConfigPlansEveryStatementWithItsValues(t *testing.T) {
	for dsn, want := range map[string]string{
		"postgres://u@127.0.0.1:5432/db":                      "force_custom_plan",
		"postgres://u@127.0.0.1:5432/db?plan_cache_mode=auto": "auto",
	} {
		cfg, err := Config(dsn)
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.ConnConfig.RuntimeParams["plan_cache_mode"]; got != want {
			t.Errorf("%s: plan_cache_mode = %q, want %q", dsn, got, want)
		}
	}
}
