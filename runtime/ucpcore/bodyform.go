package ucpcore

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// BodyFormError says that a request's headers describe its body in a form
// no transport of the runtime decodes: a content coding other than
// identity, a charset other than UTF-8, or a Content-Type sent twice. A
// transport refuses such a request with Status naming Header instead of
// reading the bytes as plain UTF-8 JSON anyway, which would answer a
// question the client did not ask.
type BodyFormError struct {
	// Header is the request header at fault.
	Header string
	// Status is the HTTP status of the refusal: 415 for a form that is
	// understood but not supported, 400 for headers that contradict each
	// other.
	Status int
	// Reason is a sentence for the client.
	Reason string
}

func (e *BodyFormError) Error() string { return e.Header + ": " + e.Reason }

// AcceptEncoding is the Accept-Encoding a 415 for a content coding
// carries (RFC 9110 section 15.5.16): the runtime reads identity only.
const AcceptEncoding = "identity"

// CheckBodyForm refuses the request headers h when they say the body is
// encoded (Content-Encoding other than identity), in another charset than
// UTF-8 (RFC 8259 section 8.1 requires UTF-8 between systems), or when
// Content-Type is sent more than once, so that MCP and REST refuse alike
// what neither could honour. The media type itself is each transport's
// check; a Content-Type whose parameters do not parse is left to it too.
func CheckBodyForm(h http.Header) *BodyFormError {
	if types := h.Values("Content-Type"); len(types) > 1 {
		return &BodyFormError{Header: "Content-Type", Status: http.StatusBadRequest, Reason: "sent more than once; send one media type"}
	}
	if _, params, err := mime.ParseMediaType(h.Get("Content-Type")); err == nil {
		if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
			return &BodyFormError{Header: "Content-Type", Status: http.StatusUnsupportedMediaType, Reason: "charset " + quoteBounded(cs) + " is not supported; send the JSON body in UTF-8 (charset=utf-8 or no charset)"}
		}
	}
	for _, v := range h.Values("Content-Encoding") {
		for coding := range strings.SplitSeq(v, ",") {
			coding = strings.TrimSpace(coding)
			if coding != "" && !strings.EqualFold(coding, "identity") {
				return &BodyFormError{Header: "Content-Encoding", Status: http.StatusUnsupportedMediaType, Reason: "content coding " + quoteBounded(coding) + " is not supported; send the body unencoded"}
			}
		}
	}
	return nil
}

// quoteBounded quotes a header token for a refusal, cut to 40 bytes so
// that a refusal never echoes a whole header block.
func quoteBounded(s string) string {
	const max = 40
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}
