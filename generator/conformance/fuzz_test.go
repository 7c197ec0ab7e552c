package conformance_test

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSearchRequest feeds arbitrary bytes to the generated decoder and to the
// reference and requires the same verdict. Inputs with duplicate member names
// are skipped: the reference keeps the last duplicate while we reject them
// (documented as stricter on purpose). Inputs that are not UTF-8 are skipped
// for the same reason: RFC 8259 requires UTF-8 and we refuse it, while
// encoding/json (under the reference) substitutes U+FFFD.
func FuzzSearchRequest(f *testing.F) {
	f.Add([]byte(fullSearchRequest))
	for _, c := range servesCases() {
		f.Add(c.data)
	}
	tg := targets["common/location_search request"]
	ref := reference(f, tg)
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) {
			t.Skip("not UTF-8: rejected by us on purpose")
		}
		ours := tg.decode(data)
		if ours != nil && strings.Contains(ours.Error(), "duplicate member name") {
			t.Skip("duplicate member names: rejected by us on purpose")
		}
		if ours != nil && strings.Contains(ours.Error(), "must be two digits each") {
			// The reference reads hh:mm:ss with strconv.Atoi, so it accepts a
			// sign in place of a digit ("T+0:00:00Z"); RFC 3339 does not.
			t.Skip("signed time field: the reference is looser than RFC 3339")
		}
		theirs := referenceVerdict(ref, data)
		if (ours == nil) != (theirs == nil) {
			t.Fatalf("verdicts differ on %q: ours=%v reference=%v", data, ours, firstLine(theirs))
		}
	})
}
