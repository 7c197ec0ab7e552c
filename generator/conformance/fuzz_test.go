package conformance_test

import (
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// fuzzTargets fixes an order over targets so a corpus entry's first byte
// picks the same payload kind on every run.
func fuzzTargets() []string {
	var keys []string
	for k := range targets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// FuzzDecodeValidate feeds arbitrary bytes to a generated DecodeT (the
// first argument picks which of the six payload kinds) and to the reference
// validator on the same schema, and requires no panic and the same verdict.
// These differences are ours on purpose and skipped: duplicate member names
// (the reference keeps the last one; we refuse), invalid UTF-8 (RFC 8259
// requires UTF-8; encoding/json substitutes U+FFFD), signed time fields
// (RFC 3339 has none; the reference's strconv.Atoi accepts "+0"), nesting
// deeper than 512 levels, and integers beyond int64 (the Go field's type).
func FuzzDecodeValidate(f *testing.F) {
	keys := fuzzTargets()
	index := map[string]byte{}
	for i, k := range keys {
		index[k] = byte(i)
	}
	f.Add(index["common/location_search request"], []byte(fullSearchRequest))
	for _, c := range servesCases() {
		f.Add(index[c.target], c.data)
	}
	// The release examples are seeds too when ../shared is beside the
	// checkout; the target still runs on the built-in seeds without it.
	if dir, ok := testshared.Optional(f, "ucp-upstream", "2026-08-25", "examples"); ok {
		for _, c := range exampleCases(f, dir, targets) {
			f.Add(index[c.target], c.data)
		}
	}
	refs := make([]*jsonschema.Schema, len(keys))
	for i, k := range keys {
		refs[i] = reference(f, targets[k])
	}
	f.Fuzz(func(t *testing.T, which byte, data []byte) {
		i := int(which) % len(keys)
		tg := targets[keys[i]]
		ours := tg.decode(data)
		if !utf8.Valid(data) {
			t.Skip("not UTF-8: rejected by us on purpose")
		}
		if ours != nil {
			msg := ours.Error()
			for _, deliberate := range []string{"duplicate member name", "must be two digits each", "nesting deeper than"} {
				if strings.Contains(msg, deliberate) {
					t.Skip("deliberately stricter than the reference: " + deliberate)
				}
			}
		}
		theirs := referenceVerdict(refs[i], data)
		if (ours == nil) != (theirs == nil) {
			t.Fatalf("%s: verdicts differ on %q: ours=%v reference=%v", tg.name, data, ours, firstLine(theirs))
		}
	})
}
