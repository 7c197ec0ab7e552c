package main

import "testing"

// TestAimIndex: the baseline builds each index of a loaded table on its own
// copy of the table, and refuses a definition it cannot aim.
func TestAimIndex(t *testing.T) {
	for _, tc := range []struct {
		def, want string
		ok        bool
	}{
		{"CREATE INDEX storefinder_locations_geog ON public.storefinder_locations USING gist (geog) WHERE (NOT private)",
			"CREATE INDEX storefinder_locations_geog ON loadbench_baseline.storefinder_locations USING gist (geog) WHERE (NOT private)", true},
		{"CREATE UNIQUE INDEX storefinder_locations_pkey ON public.storefinder_locations USING btree (id)",
			"CREATE UNIQUE INDEX storefinder_locations_pkey ON loadbench_baseline.storefinder_locations USING btree (id)", true},
		{"CREATE INDEX x ON other.storefinder_locations USING btree (id)", "", false},
		{"CREATE INDEX x ON public.storefinder_locations_2 USING btree (id)", "", false},
	} {
		got, err := aimIndex(tc.def, "public", "storefinder_locations")
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("aimIndex(%q) = %q, %v; want %q (ok %v)", tc.def, got, err, tc.want, tc.ok)
		}
	}
}
