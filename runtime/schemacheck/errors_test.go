package schemacheck_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	sc "github.com/ucpgen/ucpgen/runtime/schemacheck"
)

func oneViolation(t *testing.T, err error) rpcerr.Violation {
	t.Helper()
	e, ok := rpcerr.AsInvalidParams(err)
	if !ok {
		t.Fatalf("%T %v is not an *rpcerr.InvalidParams", err, err)
	}
	if len(e.Violations) != 1 {
		t.Fatalf("%d violations, want 1: %v", len(e.Violations), e.Violations)
	}
	return e.Violations[0]
}

// TestAt checks that At nests pointers under reference tokens escaped as
// RFC 6901 §3 requires ("~" as "~0", "/" as "~1"), outermost token first.
func TestAt(t *testing.T) {
	base := rpcerr.Invalid("/x", "type", "bad")
	for _, tc := range []struct {
		name   string
		tokens []string
		want   string
	}{
		{"no tokens", nil, "/x"},
		{"one token", []string{"a"}, "/a/x"},
		{"outermost first", []string{"a", "b", "c"}, "/a/b/c/x"},
		{"array index", []string{"items", "0"}, "/items/0/x"},
		{"slash escaped", []string{"a/b"}, "/a~1b/x"},
		{"tilde escaped", []string{"a~b"}, "/a~0b/x"},
		{"tilde before one", []string{"~1"}, "/~01/x"},
		{"both escaped", []string{"/~"}, "/~1~0/x"},
		{"empty name", []string{""}, "//x"},
		{"dotted name kept", []string{"dev.ucp.shopping"}, "/dev.ucp.shopping/x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := oneViolation(t, sc.At(base, tc.tokens...))
			if v.Pointer != tc.want {
				t.Errorf("pointer %q, want %q", v.Pointer, tc.want)
			}
			if v.Keyword != "type" || v.Message != "bad" {
				t.Errorf("At changed the violation: %+v", v)
			}
		})
	}
	if base.Violations[0].Pointer != "/x" {
		t.Errorf("At modified its argument: pointer now %q", base.Violations[0].Pointer)
	}

	t.Run("nesting composes", func(t *testing.T) {
		v := oneViolation(t, sc.At(sc.At(base, "inner", "0"), "outer"))
		if v.Pointer != "/outer/inner/0/x" {
			t.Errorf("pointer %q, want /outer/inner/0/x", v.Pointer)
		}
	})
	t.Run("every violation", func(t *testing.T) {
		two := &rpcerr.InvalidParams{Violations: []rpcerr.Violation{{Pointer: ""}, {Pointer: "/b"}}}
		e, ok := rpcerr.AsInvalidParams(sc.At(two, "p"))
		if !ok || len(e.Violations) != 2 || e.Violations[0].Pointer != "/p" || e.Violations[1].Pointer != "/p/b" {
			t.Errorf("At(two violations) = %+v", e)
		}
	})
	t.Run("wrapped", func(t *testing.T) {
		v := oneViolation(t, sc.At(fmt.Errorf("field: %w", base), "a"))
		if v.Pointer != "/a/x" {
			t.Errorf("pointer %q, want /a/x", v.Pointer)
		}
	})
	t.Run("other errors pass through", func(t *testing.T) {
		plain := errors.New("boom")
		if got := sc.At(plain, "a"); got != plain {
			t.Errorf("At(plain error) = %v, want it unchanged", got)
		}
		transport := rpcerr.Forbidden("no")
		if got := sc.At(transport, "a"); got != error(transport) {
			t.Errorf("At(transport error) = %v, want it unchanged", got)
		}
		if got := sc.At(nil, "a"); got != nil {
			t.Errorf("At(nil) = %v, want nil", got)
		}
	})
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     error
		pointer string
		keyword string   // "" when any keyword will do
		mention []string // text the message must carry
	}{
		// Mismatch names the wanted Go-side type and the JSON type found,
		// by JSON Schema's type names.
		{"mismatch number", sc.Mismatch(sc.Literal(`1.5`), "string"), "", "type", []string{"string", "number"}},
		{"mismatch object", sc.Mismatch(sc.Literal(`{}`), "array"), "", "type", []string{"array", "object"}},
		{"mismatch null", sc.Mismatch(sc.Literal(`null`), "integer"), "", "type", []string{"integer", "null"}},
		{"mismatch boolean", sc.Mismatch(sc.Literal(`true`), "object"), "", "type", []string{"object", "boolean"}},
		// Unexpected is additionalProperties: false at work, located on the
		// member itself.
		{"unexpected", sc.Unexpected("extra"), "/extra", "additionalProperties", []string{"extra"}},
		{"unexpected escaped", sc.Unexpected("a/b~c"), "/a~1b~0c", "additionalProperties", []string{"a/b~c"}},
		{"unexpected empty name", sc.Unexpected(""), "/", "additionalProperties", nil},
		// UnknownTag is located on the discriminator member and names the
		// tag value it could not place.
		{"unknown tag", sc.UnknownTag("type", "circle"), "/type", "", []string{"type", "circle"}},
		{"unknown tag escaped", sc.UnknownTag("k/i~nd", "x"), "/k~1i~0nd", "", []string{"k/i~nd"}},
		// NoVariant is about the value as a whole.
		{"no variant", sc.NoVariant("Shape"), "", "", []string{"Shape"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := oneViolation(t, tc.err)
			if v.Pointer != tc.pointer {
				t.Errorf("pointer %q, want %q", v.Pointer, tc.pointer)
			}
			if tc.keyword != "" && v.Keyword != tc.keyword {
				t.Errorf("keyword %q, want %q", v.Keyword, tc.keyword)
			}
			if v.Keyword == "" {
				t.Error("no keyword")
			}
			for _, m := range tc.mention {
				if !strings.Contains(v.Message, m) {
					t.Errorf("message %q does not mention %q", v.Message, m)
				}
			}
			// the helpers return pointers relative to the value, so At can
			// place them in the arguments
			if got := oneViolation(t, sc.At(tc.err, "p")).Pointer; got != "/p"+tc.pointer {
				t.Errorf("At(err, p) pointer %q, want %q", got, "/p"+tc.pointer)
			}
		})
	}
}

// TestContainsMessages checks that a count outside the contains bounds is
// reported under the keyword whose bound failed, with both counts.
func TestContainsMessages(t *testing.T) {
	for _, tc := range []struct {
		name              string
		matched, min, max int
		stated            bool
		keyword, message  string
	}{
		{"none, default min", 0, 1, -1, false, "contains", "must contain at least 1 item matching the contains schema, got 0"},
		{"too few, stated", 1, 2, -1, true, "minContains", "must contain at least 2 items matching the contains schema, got 1"},
		{"too many", 3, 1, 2, false, "maxContains", "must contain at most 2 items matching the contains schema, got 3"},
		{"max zero", 1, 0, 0, true, "maxContains", "must contain at most 0 items matching the contains schema, got 1"},
		{"within", 2, 1, 2, true, "", ""},
		{"no bound above", 9, 1, -1, false, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c sc.Checker
			c.Contains(nil, tc.matched, tc.min, tc.max, tc.stated)
			if tc.keyword == "" {
				if err := c.Err(); err != nil {
					t.Fatalf("reported %v for a count within bounds", err)
				}
				return
			}
			v := oneViolation(t, c.Err())
			if v.Keyword != tc.keyword || v.Message != tc.message {
				t.Errorf("got %s %q, want %s %q", v.Keyword, v.Message, tc.keyword, tc.message)
			}
		})
	}
}
