package schemacheck

import (
	"strings"
	"testing"
)

// TestParseDepthLimitAtLeaves holds scalars to the nesting limit as
// containers are held: a leaf at maxDepth parses, one level below it fails
// at the leaf with the nesting error, for strings, numbers and literals,
// as an array's item and as an object's member.
func TestParseDepthLimitAtLeaves(t *testing.T) {
	for _, leaf := range []string{`"s"`, `7`, `-0.5`, `true`, `null`} {
		for _, c := range []struct{ open, close string }{{"[", "]"}, {`{"k":`, "}"}} {
			for _, depth := range []int{maxDepth, maxDepth + 1} {
				text := strings.Repeat(c.open, depth) + leaf + strings.Repeat(c.close, depth)
				_, err := Parse([]byte(text))
				if depth == maxDepth {
					if err != nil {
						t.Errorf("%s at depth %d in %q: %v", leaf, depth, c.open, err)
					}
					continue
				}
				pe, ok := err.(*ParseError)
				if !ok || !strings.Contains(pe.Reason, "nesting deeper") || pe.Offset != depth*len(c.open) {
					t.Errorf("%s at depth %d in %q: error %v, want the nesting error at byte %d", leaf, depth, c.open, err, depth*len(c.open))
				}
			}
		}
	}
}
