// Package rpcerr holds the typed errors that UCP services and the ucpgen
// runtime return, so the MCP layer can map each to the JSON-RPC code, data and
// HTTP status the UCP binding requires without inspecting error strings.
//
// Pointers in these errors are JSON Pointers (RFC 6901) into the tool call's
// arguments object, e.g. "/location/distance/max" or "/meta/ucp-agent/profile".
package rpcerr

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// JSON-RPC error codes used by the UCP MCP binding.
const (
	CodeInvalidParams = -32602 // request failed the schema or a semantic check
	CodeInternal      = -32603 // unexpected server fault; details never leave the server
	CodeTransport     = -32000 // auth, rate limit, conflict, overload
	CodeDiscovery     = -32001 // platform profile discovery or version failure
)

// Violation is one reason a request was rejected, addressed by JSON Pointer so
// that a Platform can tell which field to fix.
type Violation struct {
	Pointer string `json:"pointer"`
	Keyword string `json:"keyword,omitempty"`
	Message string `json:"message"`
}

func (v Violation) String() string {
	p := v.Pointer
	if p == "" {
		p = "(root)"
	}
	return p + ": " + v.Message
}

// InvalidParams reports a request that must be answered with -32602: schema
// failures and semantic rejections (unsupported filter, unevaluable serves
// target, a distance the Business cannot honour, a bad cursor).
type InvalidParams struct {
	Violations []Violation
}

// Invalid builds an InvalidParams with a single violation; it is the usual way
// for hooks and runtime packages to reject one field.
func Invalid(pointer, keyword, format string, args ...any) *InvalidParams {
	return &InvalidParams{Violations: []Violation{{Pointer: pointer, Keyword: keyword, Message: fmt.Sprintf(format, args...)}}}
}

func (e *InvalidParams) Error() string {
	if e == nil || len(e.Violations) == 0 {
		return "invalid params"
	}
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.String()
	}
	return "invalid params: " + strings.Join(parts, "; ")
}

// Prefix returns a copy whose pointers are nested under prefix, so a validator
// that checked a sub-value can report pointers from the arguments root.
func (e *InvalidParams) Prefix(prefix string) *InvalidParams {
	out := &InvalidParams{Violations: make([]Violation, len(e.Violations))}
	for i, v := range e.Violations {
		v.Pointer = prefix + v.Pointer
		out.Violations[i] = v
	}
	return out
}

// Transport reports a -32000 condition (authentication, authorization, rate
// limit, idempotency conflict, overload) together with the HTTP status the
// streamable HTTP transport should use.
type Transport struct {
	HTTPStatus int
	Message    string
	// RetryAfter, when positive, is sent as error.data.retry_after in seconds.
	RetryAfter time.Duration
}

func (e *Transport) Error() string {
	return fmt.Sprintf("transport error %d: %s", e.HTTPStatus, e.Message)
}

// Unauthenticated is the 401 case: the caller could not be authenticated.
func Unauthenticated(msg string) *Transport { return &Transport{HTTPStatus: 401, Message: msg} }

// Forbidden is the 403 case: the caller is known but not allowed.
func Forbidden(msg string) *Transport { return &Transport{HTTPStatus: 403, Message: msg} }

// Conflict is the 409 case: an idempotency or state conflict.
func Conflict(msg string) *Transport { return &Transport{HTTPStatus: 409, Message: msg} }

// RateLimited is the 429 case; retryAfter tells the Platform when to come back.
func RateLimited(msg string, retryAfter time.Duration) *Transport {
	return &Transport{HTTPStatus: 429, Message: msg, RetryAfter: retryAfter}
}

// Overloaded is the 503 case; retryAfter tells the Platform when to come back.
func Overloaded(msg string, retryAfter time.Duration) *Transport {
	return &Transport{HTTPStatus: 503, Message: msg, RetryAfter: retryAfter}
}

// Discovery codes for -32001 errors.
const (
	InvalidProfileURL  = "invalid_profile_url"
	ProfileUnreachable = "profile_unreachable"
	ProfileMalformed   = "profile_malformed"
	VersionUnsupported = "version_unsupported"
)

// Discovery reports a -32001 profile discovery or version failure, carried to
// the Platform as data {code, content, continue_url?}.
type Discovery struct {
	Code        string
	Content     string
	ContinueURL string
	// Cause is kept for server-side logs and errors.Is; it is never sent.
	Cause error
}

func (e *Discovery) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Content, e.Cause)
	}
	return e.Code + ": " + e.Content
}

func (e *Discovery) Unwrap() error { return e.Cause }

// AsInvalidParams, AsTransport and AsDiscovery unwrap err to the typed error,
// so wrapped hook errors keep their meaning.
func AsInvalidParams(err error) (*InvalidParams, bool) { return as[*InvalidParams](err) }

func AsTransport(err error) (*Transport, bool) { return as[*Transport](err) }

func AsDiscovery(err error) (*Discovery, bool) { return as[*Discovery](err) }

// as is errors.As into a new E. A nil err returns at once: the target
// errors.As fills lives on the heap, and the calls on a request's success
// path should not pay for it.
func as[E error](err error) (E, bool) {
	if err == nil {
		var zero E
		return zero, false
	}
	var e E
	return e, errors.As(err, &e)
}

// EscapeToken escapes one JSON Pointer reference token (RFC 6901: "~" as
// "~0", "/" as "~1"), so that member names such as reverse-domain keys can be
// put into a Violation's pointer safely.
func EscapeToken(token string) string {
	if !strings.ContainsAny(token, "~/") {
		return token
	}
	return tokenEscaper.Replace(token)
}

var tokenEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// Bounds of what one -32602 error tells the client, so that a request
// with thousands of faults, or one enormous member name, cannot make its
// refusal larger than itself.
const (
	// MaxViolations is how many violations a refusal lists.
	MaxViolations = 50
	// MaxTextBytes bounds each pointer and message of a violation, and the
	// error's summary message.
	MaxTextBytes = 300
)

// Bounded returns e cut to what is sent: at most MaxViolations violations
// (a last one at the root counts those left out) with pointers and messages
// of at most MaxTextBytes; e itself is left unchanged.
func (e *InvalidParams) Bounded() *InvalidParams {
	if e == nil {
		return nil
	}
	n := min(len(e.Violations), MaxViolations)
	out := &InvalidParams{Violations: make([]Violation, 0, n+1)}
	for _, v := range e.Violations[:n] {
		v.Pointer = Truncate(v.Pointer, MaxTextBytes)
		v.Keyword = Truncate(v.Keyword, MaxTextBytes)
		v.Message = Truncate(v.Message, MaxTextBytes)
		out.Violations = append(out.Violations, v)
	}
	if left := len(e.Violations) - n; left > 0 {
		out.Violations = append(out.Violations, Violation{Pointer: "", Keyword: "limit", Message: fmt.Sprintf("%d more violations are not listed", left)})
	}
	return out
}

// Summary is Error cut to MaxTextBytes, for the JSON-RPC error message.
func (e *InvalidParams) Summary() string {
	return Truncate(e.Bounded().Error(), MaxTextBytes)
}

// Truncate cuts s to at most n bytes on a UTF-8 boundary, ending it with
// "…" when anything was cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	cut := n - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}
