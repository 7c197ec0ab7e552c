package ucpclient

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/dunglas/httpsfv"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// Headers of UCP's REST binding the client writes or checks.
const (
	headerAgent     = "UCP-Agent"
	headerRequestID = "Request-Id"
	headerDigest    = "Content-Digest"
)

// defaultRetryAfter is waited for a 429 or 503 that names no wait.
const defaultRetryAfter = time.Second

// sendREST POSTs body to the tool's operation and returns the 200 body once
// its media type and Content-Digest check out.
func (c *Conn) sendREST(ctx context.Context, t Tool, id string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, joinPath(c.biz.Endpoint, t.Path), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	agent, err := agentHeader(c.opts.Profile)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set(headerAgent, agent)
	req.Header.Set(headerRequestID, id)
	req.Header.Set(headerDigest, "sha-256=:"+base64.StdEncoding.EncodeToString(sum[:])+":")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, deadline(ctx, err)
	}
	defer resp.Body.Close()
	data, err := readCapped(ctx, resp.Body, resp.ContentLength, c.opts.MaxResponseBytes)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, restRefusal(resp, data)
	}
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return nil, fmt.Errorf("the answer's Content-Type is %q, not application/json", rpcerr.Truncate(resp.Header.Get("Content-Type"), 100))
	}
	if vals := resp.Header.Values(headerDigest); len(vals) > 0 {
		if err := checkDigest(vals, data); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// agentHeader is the UCP-Agent dictionary naming the Platform's profile.
func agentHeader(profile string) (string, error) {
	d := httpsfv.NewDictionary()
	d.Add("profile", httpsfv.NewItem(profile))
	s, err := httpsfv.Marshal(d)
	if err != nil {
		return "", fmt.Errorf("UCP-Agent: %w", err)
	}
	return s, nil
}

// checkDigest verifies an RFC 9530 Content-Digest over the answer: its
// sha-256 member when it has one (the one algorithm restserver writes);
// one naming only other algorithms cannot be checked and is refused.
func checkDigest(vals []string, body []byte) error {
	d, err := httpsfv.UnmarshalDictionary(vals)
	if err != nil {
		return fmt.Errorf("the answer's Content-Digest is not an RFC 8941 dictionary: %w", err)
	}
	m, ok := d.Get("sha-256")
	if !ok {
		return errors.New("the answer's Content-Digest carries no sha-256, the one algorithm checked")
	}
	it, _ := m.(httpsfv.Item)
	want, isBytes := it.Value.([]byte)
	if !isBytes {
		return errors.New("the answer's Content-Digest sha-256 is not a byte sequence")
	}
	got := sha256.Sum256(body)
	if !bytes.Equal(want, got[:]) {
		return errors.New("the answer does not match its Content-Digest")
	}
	return nil
}

// readCapped reads a whole answer of at most limit bytes; a longer one is
// ErrTooLarge, found from Content-Length before any read when it is
// declared.
func readCapped(ctx context.Context, r io.Reader, declared, limit int64) ([]byte, error) {
	if declared > limit {
		return nil, fmt.Errorf("%w: Content-Length %d is more than %d bytes", ErrTooLarge, declared, limit)
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err == nil && ctx.Err() != nil {
		err = ctx.Err() // a cut-off chunked body may end in a clean EOF
	}
	if err != nil {
		return nil, fmt.Errorf("read the answer: %w", deadline(ctx, err))
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
	}
	return data, nil
}

// deadline prefers the context's error, which says why a read stopped,
// over the transport's.
func deadline(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%w: %w", cerr, err)
	}
	return err
}

// refusal is the body restserver gives every non-200 answer.
type refusal struct {
	Code        string             `json:"code"`
	Content     string             `json:"content"`
	ContinueURL string             `json:"continue_url"`
	Header      string             `json:"header"`
	Violations  []rpcerr.Violation `json:"violations"`
}

// restRefusal types a non-200 answer by its status and code.
func restRefusal(resp *http.Response, data []byte) error {
	var r refusal
	if json.Unmarshal(data, &r) != nil {
		return &StatusError{HTTPStatus: resp.StatusCode, Message: "the answer carries no UCP refusal body"}
	}
	content := rpcerr.Truncate(r.Content, rpcerr.MaxTextBytes)
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusConflict, http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return &rpcerr.Transport{HTTPStatus: resp.StatusCode, Message: content, RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"))}
	}
	switch r.Code {
	case "invalid_params":
		ip := &rpcerr.InvalidParams{Violations: r.Violations}
		return ip.Bounded()
	case rpcerr.InvalidProfileURL, rpcerr.ProfileUnreachable, rpcerr.ProfileMalformed, rpcerr.VersionUnsupported:
		return &rpcerr.Discovery{Code: r.Code, Content: content, ContinueURL: r.ContinueURL}
	}
	if r.Header != "" {
		content = rpcerr.Truncate(r.Header, 100) + ": " + content
	}
	return &StatusError{HTTPStatus: resp.StatusCode, Code: rpcerr.Truncate(r.Code, 100), Message: content}
}

// parseRetryAfter reads Retry-After as seconds or an HTTP date; absent or
// unreadable, it is defaultRetryAfter.
func parseRetryAfter(v string) time.Duration {
	if v == "" {
		return defaultRetryAfter
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		if n > int64(24*time.Hour/time.Second) {
			return 24 * time.Hour
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return defaultRetryAfter
}
