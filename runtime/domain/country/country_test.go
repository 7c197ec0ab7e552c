package country

import "testing"

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"US", "US", true},
		{"us", "US", true},
		{"uS", "US", true},
		{"USA", "US", true},
		{"usa", "US", true},
		{"United States", "US", true},
		{"united states of america", "US", true},
		{" DE ", "DE", true},
		{"DEU", "DE", true},
		{"Germany", "DE", true},
		{"GBR", "GB", true},
		{"UK", "GB", true}, // reserved code, canonicalised
		{"United Kingdom", "GB", true},
		{"Japan", "JP", true},
		{"CHE", "CH", true},
		{"", "", false},
		{"840", "", false}, // numeric M.49 code is not accepted
		{"EU", "", false},  // a union, not a country
		{"419", "", false}, // a region
		{"ZZ", "", false},  // unknown region
		{"XA", "", false},  // private use
		{"QQ", "", false},  // not assigned
		{"XYZ", "", false}, // not assigned
		{"Atlantis", "", false},
		{"U.S.", "", false},
	} {
		got, ok := Normalize(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Normalize(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestIsAlpha2(t *testing.T) {
	for in, want := range map[string]bool{"US": true, "us": false, "USA": false, "DE": true, "EU": false, "": false} {
		if got := IsAlpha2(in); got != want {
			t.Errorf("IsAlpha2(%q) = %v, want %v", in, got, want)
		}
	}
}
