package rpcerr

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscapeToken(t *testing.T) {
	for in, want := range map[string]string{
		"dev.ucp.amenity.parking": "dev.ucp.amenity.parking",
		"a/b":                     "a~1b",
		"a~b":                     "a~0b",
		"~1":                      "~01",
		"/~":                      "~1~0",
		"":                        "",
	} {
		if got := EscapeToken(in); got != want {
			t.Errorf("EscapeToken(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPrefix(t *testing.T) {
	e := Invalid("/max", "minimum", "must be >= 0, got %d", -5).Prefix("/location/distance")
	if e.Violations[0].Pointer != "/location/distance/max" || e.Error() != "invalid params: /location/distance/max: must be >= 0, got -5" {
		t.Fatalf("got %+v / %q", e.Violations, e.Error())
	}
}

// TestBounded checks that a refusal lists at most MaxViolations
// violations, counts the rest, and cuts long pointers and messages on a
// rune boundary.
func TestBounded(t *testing.T) {
	long := strings.Repeat("é", 400)
	e := &InvalidParams{}
	for i := range 1000 {
		e.Violations = append(e.Violations, Violation{Pointer: "/location/" + long, Keyword: "type", Message: fmt.Sprintf("fault %d: %s", i, long)})
	}
	b := e.Bounded()
	if len(b.Violations) != MaxViolations+1 || len(e.Violations) != 1000 {
		t.Fatalf("%d violations (original %d), want %d", len(b.Violations), len(e.Violations), MaxViolations+1)
	}
	if last := b.Violations[MaxViolations]; !strings.Contains(last.Message, "950 more") {
		t.Errorf("last violation %+v does not count the rest", last)
	}
	for _, v := range b.Violations {
		if len(v.Pointer) > MaxTextBytes || len(v.Message) > MaxTextBytes || !utf8.ValidString(v.Pointer) || !utf8.ValidString(v.Message) {
			t.Fatalf("violation not cut to %d valid bytes: %d %d", MaxTextBytes, len(v.Pointer), len(v.Message))
		}
	}
	if s := e.Summary(); len(s) > MaxTextBytes || !strings.HasPrefix(s, "invalid params: /location/") {
		t.Errorf("summary %d bytes: %.80q", len(s), s)
	}
	if got := Truncate("short", 10); got != "short" {
		t.Errorf("Truncate changed a short string: %q", got)
	}
}

// TestAsNilCostsNothing pins that unwrapping a nil error allocates nothing,
// since every successful tool call asks.
func TestAsNilCostsNothing(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() {
		_, a := AsInvalidParams(nil)
		_, b := AsTransport(nil)
		_, c := AsDiscovery(nil)
		if a || b || c {
			t.Fatal("a nil error unwrapped to a typed one")
		}
	}); n != 0 {
		t.Errorf("unwrapping nil allocates %v times, want 0", n)
	}
}
