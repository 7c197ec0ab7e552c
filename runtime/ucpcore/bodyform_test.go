package ucpcore_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// TestCheckBodyForm: only a body the headers call plain UTF-8 passes; each
// refusal names its header with the status a transport answers, and a
// refusal quotes at most 40 bytes of what the client sent.
func TestCheckBodyForm(t *testing.T) {
	cases := []struct {
		name   string
		header http.Header
		status int
		names  string
	}{
		{"plain JSON", http.Header{"Content-Type": {"application/json"}}, 0, ""},
		{"UTF-8 in any case", http.Header{"Content-Type": {`application/json; charset="Utf-8"`}}, 0, ""},
		{"identity coding", http.Header{"Content-Encoding": {"Identity", " , identity"}}, 0, ""},
		{"an unparsable type is the transport's", http.Header{"Content-Type": {"application/json; charset"}}, 0, ""},
		{"no headers", http.Header{}, 0, ""},
		{"latin-1", http.Header{"Content-Type": {"application/json; charset=iso-8859-1"}}, 415, "Content-Type"},
		{"UTF-16", http.Header{"Content-Type": {"application/json; charset=utf-16"}}, 415, "Content-Type"},
		{"two types", http.Header{"Content-Type": {"application/json", "application/json"}}, 400, "Content-Type"},
		{"gzip", http.Header{"Content-Encoding": {"gzip"}}, 415, "Content-Encoding"},
		{"gzip after identity", http.Header{"Content-Encoding": {"identity, gzip"}}, 415, "Content-Encoding"},
		{"a long coding", http.Header{"Content-Encoding": {strings.Repeat("x", 5000)}}, 415, "Content-Encoding"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bf := ucpcore.CheckBodyForm(c.header)
			if c.status == 0 {
				if bf != nil {
					t.Fatalf("refused: %v", bf)
				}
				return
			}
			if bf == nil || bf.Status != c.status || bf.Header != c.names || !strings.HasPrefix(bf.Error(), c.names+": ") {
				t.Fatalf("got %+v, want %d naming %s", bf, c.status, c.names)
			}
			if len(bf.Reason) > 160 {
				t.Errorf("reason of %d bytes: %.80s...", len(bf.Reason), bf.Reason)
			}
		})
	}
}
