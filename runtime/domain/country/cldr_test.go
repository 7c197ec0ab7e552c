package country

import (
	"testing"

	"golang.org/x/text/language"
)

// TestTableAgreesWithCLDR checks every hand-written row against CLDR (test
// only: the package itself links no locale tables): the alpha-2 code names a
// country whose alpha-3 code is the one in the table.
func TestTableAgreesWithCLDR(t *testing.T) {
	n := 0
	for a2, e := range index().alpha2 {
		n++
		r, err := language.ParseRegion(a2)
		if err != nil || !r.IsCountry() {
			t.Errorf("%s: not a CLDR country (%v)", a2, err)
			continue
		}
		if got := r.ISO3(); got != e.alpha3 {
			t.Errorf("%s: table says alpha-3 %s, CLDR says %s", a2, e.alpha3, got)
		}
	}
	if n != 249 {
		t.Errorf("table has %d countries, ISO 3166-1 assigns 249", n)
	}
}
