package conform

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// errBudget ends a run whose --max-requests are spent; the checks not yet
// run are reported as not run, and the run as incomplete.
var errBudget = errors.New("the request budget (--max-requests) is spent")

// maxBody bounds what the checker reads of one answer.
const maxBody = 16 << 20

// maxRetries is how often one request is repeated after a 429 or 503 that
// carried Retry-After.
const maxRetries = 3

// client sends the checker's HTTP requests: at most rate per second, at
// most budget in all, each 429 or 503 answered by waiting out Retry-After.
type client struct {
	http    *http.Client
	limiter *rate.Limiter

	mu     sync.Mutex
	budget int
	used   int
	waited time.Duration
}

// answer is one HTTP exchange as the checks see it.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func newClient(hc *http.Client, perSecond float64, budget int) *client {
	return &client{http: hc, limiter: rate.NewLimiter(rate.Limit(perSecond), 1), budget: budget}
}

func (c *client) take() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.used >= c.budget {
		return errBudget
	}
	c.used++
	return nil
}

// spent reports how many requests were sent.
func (c *client) spent() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// do sends one request (GET when body is nil, else POST) and reads the
// answer, waiting out Retry-After on 429 and 503 up to maxRetries times
// while the run's deadline allows.
func (c *client) do(ctx context.Context, url string, body []byte, header http.Header) (answer, error) {
	for attempt := 0; ; attempt++ {
		if err := c.take(); err != nil {
			return answer{}, err
		}
		if err := c.limiter.Wait(ctx); err != nil {
			return answer{}, fmt.Errorf("%s: %w", url, err)
		}
		method := http.MethodGet
		var rd io.Reader
		if body != nil {
			method, rd = http.MethodPost, bytes.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, url, rd)
		if err != nil {
			return answer{}, fmt.Errorf("%s: %w", url, err)
		}
		for k, v := range header {
			req.Header[k] = v
		}
		resp, err := c.http.Do(req)
		if err != nil {
			return answer{}, fmt.Errorf("%s %s: %w", method, url, err)
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
		resp.Body.Close()
		if err != nil {
			return answer{}, fmt.Errorf("%s %s: read the answer: %w", method, url, err)
		}
		if len(data) > maxBody {
			return answer{}, fmt.Errorf("%s %s: the answer is larger than %d bytes", method, url, maxBody)
		}
		a := answer{status: resp.StatusCode, header: resp.Header, body: data}
		if (a.status != http.StatusTooManyRequests && a.status != http.StatusServiceUnavailable) || attempt == maxRetries {
			return a, nil
		}
		wait, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now())
		if !ok {
			return a, nil
		}
		if dl, has := ctx.Deadline(); has && time.Until(dl) < wait {
			return a, nil
		}
		c.mu.Lock()
		spent := c.used >= c.budget
		if !spent {
			c.waited += wait
		}
		c.mu.Unlock()
		if spent {
			return answer{}, errBudget // no request left to retry with
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return answer{}, fmt.Errorf("%s: %w", url, ctx.Err())
		}
	}
}

// retryAfter reads a Retry-After header (seconds or an HTTP date).
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d, true
		}
		return 0, true
	}
	return 0, false
}

// newUUID returns a random version 4 UUID for REST's Request-Id.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// stops reports whether err ends the run (the budget or the deadline) rather
// than being one request the Business did not answer.
func stops(ctx context.Context, err error) bool {
	return errors.Is(err, errBudget) || ctx.Err() != nil
}

// lost hands back err when it ends the run; otherwise the Business failed
// to answer (a refused or dropped connection), which fails c, and the
// check goes no further.
func lost(ctx context.Context, c *Check, what string, err error) error {
	if stops(ctx, err) {
		return err
	}
	c.failf("%s: no answer: %v", what, err)
	return nil
}
