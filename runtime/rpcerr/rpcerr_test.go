package rpcerr

import "testing"

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
