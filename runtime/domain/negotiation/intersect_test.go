package negotiation

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"sort"
	"testing"
)

// caps is shorthand for a capability registry in tests.
type caps = map[string][]CapabilityVersion

func cv(version string, parents ...string) CapabilityVersion {
	c := CapabilityVersion{Version: version}
	if len(parents) > 0 {
		c.Extends = Parents(parents)
	}
	return c
}

func TestIntersect(t *testing.T) {
	const (
		ext1  = "com.example.location.curbside"
		ext2  = "com.example.location.curbside.tracking" // extends ext1
		multi = "com.example.location.loyalty"
	)
	tests := []struct {
		name     string
		business caps
		platform caps
		want     map[string]CapabilityVersion
	}{
		{
			name:     "names both sides list are kept",
			business: caps{capSearch: {cv(v0825)}, capLookup: {cv(v0825)}},
			platform: caps{capSearch: {cv(v0825)}},
			want:     map[string]CapabilityVersion{capSearch: cv(v0825)},
		},
		{
			name:     "platform-only capabilities are not activated",
			business: caps{capSearch: {cv(v0825)}},
			platform: caps{capSearch: {cv(v0825)}, "com.other.thing": {cv(v0825)}},
			want:     map[string]CapabilityVersion{capSearch: cv(v0825)},
		},
		{
			name:     "highest version present in both",
			business: caps{capSearch: {cv("2026-01-11"), cv("2026-04-08"), cv(v0825)}},
			platform: caps{capSearch: {cv("2027-01-01"), cv("2026-04-08"), cv("2026-01-11")}},
			want:     map[string]CapabilityVersion{capSearch: cv("2026-04-08")},
		},
		{
			name:     "no common version drops the capability",
			business: caps{capSearch: {cv(v0825)}, capLookup: {cv(v0825)}},
			platform: caps{capSearch: {cv("2026-04-08")}, capLookup: {cv(v0825)}},
			want:     map[string]CapabilityVersion{capLookup: cv(v0825)},
		},
		{
			name:     "an older platform version is not compatible by date order",
			business: caps{capSearch: {cv(v0825)}},
			platform: caps{capSearch: {cv("2026-01-11")}},
			want:     map[string]CapabilityVersion{},
		},
		{
			name:     "extension kept with its parent",
			business: caps{capSearch: {cv(v0825)}, ext1: {cv("2026-07-01", capSearch)}},
			platform: caps{capSearch: {cv(v0825)}, ext1: {cv("2026-07-01", capSearch)}},
			want:     map[string]CapabilityVersion{capSearch: cv(v0825), ext1: cv("2026-07-01", capSearch)},
		},
		{
			name:     "extension pruned when its parent is not negotiated",
			business: caps{capSearch: {cv(v0825)}, ext1: {cv("2026-07-01", capSearch)}},
			platform: caps{ext1: {cv("2026-07-01", capSearch)}},
			want:     map[string]CapabilityVersion{},
		},
		{
			name: "two-level chain pruned when the root goes",
			business: caps{
				capSearch: {cv(v0825)},
				ext1:      {cv("2026-07-01", capSearch)},
				ext2:      {cv("2026-07-02", ext1)},
				capLookup: {cv(v0825)},
			},
			platform: caps{
				capSearch: {cv("2026-04-08")}, // no common version: root goes
				ext1:      {cv("2026-07-01", capSearch)},
				ext2:      {cv("2026-07-02", ext1)},
				capLookup: {cv(v0825)},
			},
			want: map[string]CapabilityVersion{capLookup: cv(v0825)},
		},
		{
			name: "two-level chain kept when the root stays",
			business: caps{
				capSearch: {cv(v0825)},
				ext1:      {cv("2026-07-01", capSearch)},
				ext2:      {cv("2026-07-02", ext1)},
			},
			platform: caps{
				capSearch: {cv(v0825)},
				ext1:      {cv("2026-07-01", capSearch)},
				ext2:      {cv("2026-07-02", ext1)},
			},
			want: map[string]CapabilityVersion{
				capSearch: cv(v0825),
				ext1:      cv("2026-07-01", capSearch),
				ext2:      cv("2026-07-02", ext1),
			},
		},
		{
			name: "grandchild pruned when the middle extension has no common version",
			business: caps{
				capSearch: {cv(v0825)},
				ext1:      {cv("2026-07-01", capSearch)},
				ext2:      {cv("2026-07-02", ext1)},
			},
			platform: caps{
				capSearch: {cv(v0825)},
				ext1:      {cv("2026-06-01", capSearch)},
				ext2:      {cv("2026-07-02", ext1)},
			},
			want: map[string]CapabilityVersion{capSearch: cv(v0825)},
		},
		{
			name:     "multi-parent extension kept while one parent remains",
			business: caps{capSearch: {cv(v0825)}, capLookup: {cv(v0825)}, multi: {cv("2026-07-01", capSearch, capLookup)}},
			platform: caps{capLookup: {cv(v0825)}, multi: {cv("2026-07-01", capSearch, capLookup)}},
			want:     map[string]CapabilityVersion{capLookup: cv(v0825), multi: cv("2026-07-01", capSearch, capLookup)},
		},
		{
			name:     "multi-parent extension pruned when no parent remains",
			business: caps{capSearch: {cv(v0825)}, capLookup: {cv(v0825)}, multi: {cv("2026-07-01", capSearch, capLookup)}},
			platform: caps{multi: {cv("2026-07-01", capSearch, capLookup)}},
			want:     map[string]CapabilityVersion{},
		},
		{
			name:     "extension cycle without a root is pruned",
			business: caps{ext1: {cv("2026-07-01", ext2)}, ext2: {cv("2026-07-02", ext1)}},
			platform: caps{ext1: {cv("2026-07-01", ext2)}, ext2: {cv("2026-07-02", ext1)}},
			want:     map[string]CapabilityVersion{},
		},
		{
			name:     "self-extension is pruned",
			business: caps{ext1: {cv("2026-07-01", ext1)}},
			platform: caps{ext1: {cv("2026-07-01", ext1)}},
			want:     map[string]CapabilityVersion{},
		},
		{
			name:     "extends is read from the business entry of the selected version",
			business: caps{capSearch: {cv(v0825)}, ext1: {cv("2026-06-01", capLookup), cv("2026-07-01", capSearch)}},
			platform: caps{capSearch: {cv(v0825)}, ext1: {cv("2026-06-01"), cv("2026-07-01")}},
			want:     map[string]CapabilityVersion{capSearch: cv(v0825), ext1: cv("2026-07-01", capSearch)},
		},
		{
			name:     "empty inputs",
			business: nil,
			platform: nil,
			want:     map[string]CapabilityVersion{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, tt.business, tt.platform)
			got := Intersect(tt.business, tt.platform)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Intersect =\n  %v\nwant\n  %v", got, tt.want)
			}
			if after := snapshot(t, tt.business, tt.platform); after != before {
				t.Fatalf("Intersect modified its inputs")
			}
		})
	}
}

func snapshot(t *testing.T, a, b caps) string {
	t.Helper()
	raw, err := json.Marshal([]caps{a, b})
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// The result must not depend on map iteration order: build the same registry
// many times (fresh maps, different insertion order) and compare.
func TestIntersectDeterministic(t *testing.T) {
	names := []string{"a.b.root", "a.b.ext1", "a.b.ext2", "a.b.ext3", "a.b.other", "a.b.multi"}
	entries := map[string][]CapabilityVersion{
		"a.b.root":  {cv("2026-01-01"), cv("2026-02-01")},
		"a.b.ext1":  {cv("2026-01-01", "a.b.root")},
		"a.b.ext2":  {cv("2026-01-01", "a.b.ext1")},
		"a.b.ext3":  {cv("2026-01-01", "a.b.gone")},
		"a.b.other": {cv("2026-03-01")},
		"a.b.multi": {cv("2026-01-01", "a.b.gone", "a.b.ext2")},
	}
	var first map[string]CapabilityVersion
	for i := 0; i < 50; i++ {
		b, p := caps{}, caps{}
		for j := range names {
			n := names[(i+j)%len(names)]
			b[n] = entries[n]
			p[n] = entries[n]
		}
		got := Intersect(b, p)
		if first == nil {
			first = got
			keys := slices.Sorted(maps.Keys(got))
			want := []string{"a.b.ext1", "a.b.ext2", "a.b.multi", "a.b.other", "a.b.root"}
			if !reflect.DeepEqual(keys, want) {
				t.Fatalf("active = %v, want %v", keys, want)
			}
			continue
		}
		if !reflect.DeepEqual(got, first) {
			t.Fatalf("run %d: %v differs from %v", i, got, first)
		}
	}
}

func TestRelevant(t *testing.T) {
	const ext = "com.example.location.curbside"
	const extOfExt = "com.example.location.curbside.tracking"
	const both = "com.example.location.loyalty"
	active := map[string]CapabilityVersion{
		capSearch: cv(v0825),
		capLookup: cv(v0825),
		ext:       cv("2026-07-01", capSearch),
		extOfExt:  cv("2026-07-02", ext),
		both:      cv("2026-07-03", capLookup, capSearch),
	}
	tests := []struct {
		root string
		want []string
	}{
		{capSearch, []string{both, ext, extOfExt, capSearch}},
		{capLookup, []string{both, capLookup}},
		{"dev.ucp.shopping.checkout", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.root, func(t *testing.T) {
			got := slices.Sorted(maps.Keys(Relevant(active, tt.root)))
			sort.Strings(tt.want)
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Relevant(%s) = %v, want %v", tt.root, got, tt.want)
			}
		})
	}
}

// FuzzIntersect checks the invariants of the algorithm on arbitrary small
// registries decoded from the fuzz input.
func FuzzIntersect(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{9, 9, 9, 1, 1, 1, 0, 0, 0, 2, 2, 2, 5, 4, 3})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		business, platform := registriesFromBytes(data)
		got := Intersect(business, platform)
		again := Intersect(business, platform)
		if !reflect.DeepEqual(got, again) {
			t.Fatalf("not deterministic: %v vs %v", got, again)
		}
		for name, sel := range got {
			offered, ok := business[name]
			if !ok {
				t.Fatalf("%s active but not offered by the business", name)
			}
			if !containsVersion(offered, sel.Version) || !containsVersion(platform[name], sel.Version) {
				t.Fatalf("%s active at %s, not common to both sides", name, sel.Version)
			}
			for _, v := range offered {
				if v.Version > sel.Version && containsVersion(platform[name], v.Version) {
					t.Fatalf("%s active at %s though %s is common", name, sel.Version, v.Version)
				}
			}
			if len(sel.Extends) > 0 && !anchored(got, name, map[string]bool{}) {
				t.Fatalf("%s active but not anchored in a root capability", name)
			}
		}
	})
}

func containsVersion(list []CapabilityVersion, v string) bool {
	for _, c := range list {
		if c.Version == v {
			return true
		}
	}
	return false
}

func anchored(active map[string]CapabilityVersion, name string, seen map[string]bool) bool {
	if seen[name] {
		return false
	}
	seen[name] = true
	c, ok := active[name]
	if !ok {
		return false
	}
	if len(c.Extends) == 0 {
		return true
	}
	for _, p := range c.Extends {
		if anchored(active, p, seen) {
			return true
		}
	}
	return false
}

// registriesFromBytes turns fuzz bytes into two registries over a small name
// and version alphabet so collisions and chains are common.
func registriesFromBytes(data []byte) (caps, caps) {
	names := []string{"a.a", "a.b", "a.c", "a.d", "a.e"}
	versions := []string{"2026-01-01", "2026-02-01", "2026-03-01"}
	b, p := caps{}, caps{}
	for i := 0; i+2 < len(data); i += 3 {
		name := names[int(data[i])%len(names)]
		entry := CapabilityVersion{Version: versions[int(data[i+1])%len(versions)]}
		if sel := data[i+2] % 8; sel < byte(len(names)) {
			entry.Extends = Parents{names[sel]}
		} else if sel == 6 {
			entry.Extends = Parents{names[(int(data[i])+1)%len(names)], names[(int(data[i])+2)%len(names)]}
		}
		target := b
		if data[i+2]&0x80 != 0 {
			target = p
		}
		target[name] = append(target[name], entry)
	}
	return b, p
}
