package negotiation

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// staticSource serves canned profiles and errors by URL.
type staticSource map[string]struct {
	p   *Profile
	err error
}

func (s staticSource) Profile(_ context.Context, url string) (*Profile, error) {
	r, ok := s[url]
	if !ok {
		return nil, &rpcerr.Discovery{Code: rpcerr.ProfileUnreachable, Content: "not found in test source"}
	}
	return r.p, r.err
}

func mustProfile(t *testing.T, version string, c caps) *Profile {
	t.Helper()
	p, err := ParseProfile(profileDoc(t, version, c))
	if err != nil {
		t.Fatalf("ParseProfile: %v", errString(err))
	}
	return p
}

func TestProfileNegotiator(t *testing.T) {
	const ext = "com.example.location.curbside"
	business := caps{
		capSearch: {cv(v0825)},
		capLookup: {cv(v0825)},
		ext:       {cv("2026-07-01", capSearch)},
	}
	older := caps{capSearch: {cv("2026-04-08")}}
	src := staticSource{
		"https://p.example/current": {p: mustProfile(t, v0825, caps{capSearch: {cv(v0825)}, ext: {cv("2026-07-01", capSearch)}})},
		"https://p.example/older":   {p: mustProfile(t, "2026-04-08", caps{capSearch: {cv("2026-04-08")}, capLookup: {cv("2026-04-08")}})},
		"https://p.example/newer":   {p: mustProfile(t, "2026-12-01", caps{capSearch: {cv("2026-12-01")}})},
		"https://p.example/ancient": {p: mustProfile(t, "2026-01-11", caps{capSearch: {cv("2026-01-11")}})},
		"https://p.example/none":    {p: mustProfile(t, v0825, caps{})},
		"https://p.example/broken":  {err: errors.New("disk on fire")},
		"https://p.example/nothing": {},
		"https://p.example/malformed": {err: &rpcerr.Discovery{
			Code: rpcerr.ProfileMalformed, Content: "The platform profile is not valid JSON.",
		}},
	}
	n := &ProfileNegotiator{
		Source:      src,
		Current:     Business{Version: v0825, Capabilities: business},
		Older:       []Business{{Version: "2026-04-08", Capabilities: older, Schema: unversionedSchema(t)}},
		ContinueURL: "https://shop.example/stores",
	}
	tests := []struct {
		name       string
		url        string
		tool       string
		wantCode   string // discovery code, or "" for success
		wantVer    string
		wantActive []string
		wantCompat bool
		wantCaps   map[string][]VersionRef
	}{
		{
			name: "current version, search tool", url: "https://p.example/current", tool: capSearch,
			wantVer: v0825, wantActive: []string{ext, capSearch}, wantCompat: true,
			wantCaps: map[string][]VersionRef{capSearch: {{Version: v0825}}, ext: {{Version: "2026-07-01"}}},
		},
		{
			name: "current version, lookup tool not negotiated", url: "https://p.example/current", tool: capLookup,
			wantVer: v0825, wantActive: []string{ext, capSearch}, wantCompat: false,
			wantCaps: map[string][]VersionRef{},
		},
		{
			name: "older supported version uses the older business profile", url: "https://p.example/older", tool: capSearch,
			wantVer: "2026-04-08", wantActive: []string{capSearch}, wantCompat: true,
			wantCaps: map[string][]VersionRef{capSearch: {{Version: "2026-04-08"}}},
		},
		{
			name: "older supported version lacks lookup", url: "https://p.example/older", tool: capLookup,
			wantVer: "2026-04-08", wantActive: []string{capSearch}, wantCompat: false,
			wantCaps: map[string][]VersionRef{},
		},
		{
			name: "empty intersection is a business outcome", url: "https://p.example/none", tool: capSearch,
			wantVer: v0825, wantActive: []string{}, wantCompat: false, wantCaps: map[string][]VersionRef{},
		},
		{name: "newer platform version", url: "https://p.example/newer", tool: capSearch, wantCode: rpcerr.VersionUnsupported},
		{name: "older unsupported platform version", url: "https://p.example/ancient", tool: capSearch, wantCode: rpcerr.VersionUnsupported},
		{name: "missing profile URL", url: "  ", tool: capSearch, wantCode: rpcerr.InvalidProfileURL},
		{name: "source discovery error passes through", url: "https://p.example/malformed", tool: capSearch, wantCode: rpcerr.ProfileMalformed},
		{name: "other source error becomes unreachable", url: "https://p.example/broken", tool: capSearch, wantCode: rpcerr.ProfileUnreachable},
		{name: "source returning nothing is unreachable", url: "https://p.example/nothing", tool: capSearch, wantCode: rpcerr.ProfileUnreachable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := n.Negotiate(context.Background(), tt.url, tt.tool)
			if tt.wantCode != "" {
				d := wantDiscovery(t, err, tt.wantCode)
				if d.ContinueURL != n.ContinueURL {
					t.Errorf("ContinueURL = %q, want %q", d.ContinueURL, n.ContinueURL)
				}
				return
			}
			if err != nil {
				t.Fatalf("Negotiate: %v", errString(err))
			}
			if out.Version != tt.wantVer {
				t.Errorf("Version = %q, want %q", out.Version, tt.wantVer)
			}
			if got := slices.Sorted(maps.Keys(out.Active)); !slices.Equal(got, tt.wantActive) {
				t.Errorf("Active = %v, want %v", got, tt.wantActive)
			}
			if out.Compatible != tt.wantCompat {
				t.Errorf("Compatible = %v, want %v", out.Compatible, tt.wantCompat)
			}
			if got := out.UCP().Capabilities; !reflect.DeepEqual(got, tt.wantCaps) {
				t.Errorf("UCP().Capabilities = %v, want %v", got, tt.wantCaps)
			}
		})
	}
}

func TestVersionUnsupportedMessage(t *testing.T) {
	n := &ProfileNegotiator{
		Source:  staticSource{"https://p.example/x": {p: mustProfile(t, "2027-01-01", caps{})}},
		Current: Business{Version: v0825},
		Older:   []Business{{Version: "2026-01-11"}, {Version: "2026-04-08"}},
	}
	_, err := n.Negotiate(context.Background(), "https://p.example/x", capSearch)
	d := wantDiscovery(t, err, rpcerr.VersionUnsupported)
	want := "Protocol version 2027-01-01 is not supported. This business supports versions 2026-08-25, 2026-04-08 and 2026-01-11."
	if d.Content != want {
		t.Errorf("Content = %q, want %q", d.Content, want)
	}
	if d.ContinueURL != "" {
		t.Errorf("ContinueURL = %q, want none when not configured", d.ContinueURL)
	}
}

// The Source's error value may be shared between concurrent callers through
// single-flight; attaching ContinueURL must not write to it.
func TestNegotiatorDoesNotMutateSourceErrors(t *testing.T) {
	shared := &rpcerr.Discovery{Code: rpcerr.ProfileUnreachable, Content: "down"}
	n := &ProfileNegotiator{
		Source:      staticSource{"https://p.example/x": {err: shared}},
		Current:     Business{Version: v0825},
		ContinueURL: "https://shop.example",
	}
	_, err := n.Negotiate(context.Background(), "https://p.example/x", capSearch)
	d := wantDiscovery(t, err, rpcerr.ProfileUnreachable)
	if d.ContinueURL != "https://shop.example" || shared.ContinueURL != "" {
		t.Fatalf("returned %q, shared now %q", d.ContinueURL, shared.ContinueURL)
	}
}

func TestNegotiatorWithoutSource(t *testing.T) {
	_, err := (&ProfileNegotiator{}).Negotiate(context.Background(), "https://p.example/x", capSearch)
	if err == nil || !strings.Contains(err.Error(), "Source") {
		t.Fatalf("err = %v, want a configuration error naming Source", err)
	}
}

func TestIncompatibleOutcomeJSON(t *testing.T) {
	out := outcome(v0825, map[string]CapabilityVersion{capSearch: cv(v0825)}, capLookup)
	raw, err := json.Marshal(struct {
		UCP      ResponseUCP    `json:"ucp"`
		Messages []ErrorMessage `json:"messages"`
	}{out.UCP(), []ErrorMessage{out.IncompatibleMessage()}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ucp":{"version":"2026-08-25","status":"error","capabilities":{}},"messages":[{"type":"error","code":"capabilities_incompatible","content":"Capability dev.ucp.common.location.lookup is not supported by both the platform and the business at a common version.","severity":"unrecoverable"}]}`
	if string(raw) != want {
		t.Errorf("got  %s\nwant %s", raw, want)
	}

	ok := outcome(v0825, map[string]CapabilityVersion{capSearch: cv(v0825), capLookup: cv(v0825)}, capSearch)
	raw, err = json.Marshal(ok.UCP())
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"version":"2026-08-25","capabilities":{"dev.ucp.common.location.search":[{"version":"2026-08-25"}]}}`; string(raw) != want {
		t.Errorf("got  %s\nwant %s", raw, want)
	}
}

func TestDisabled(t *testing.T) {
	const ext = "com.example.location.curbside"
	d := Disabled{Version: v0825, Capabilities: caps{
		capSearch:            {cv("2026-04-08"), cv(v0825)},
		ext:                  {cv("2026-07-01", capSearch)},
		"com.example.orphan": {cv("2026-07-01", "com.example.missing")},
	}}
	var n Negotiator = d
	out, err := n.Negotiate(context.Background(), "", capSearch)
	if err != nil {
		t.Fatalf("Negotiate: %v", err)
	}
	if !out.Compatible || out.Version != v0825 {
		t.Fatalf("out = %+v", out)
	}
	want := map[string]string{capSearch: v0825, ext: "2026-07-01"}
	if !reflect.DeepEqual(out.Active, want) {
		t.Fatalf("Active = %v, want %v", out.Active, want)
	}
	out, err = n.Negotiate(context.Background(), "https://ignored.example", capLookup)
	if err != nil || out.Compatible {
		t.Fatalf("lookup: out=%+v err=%v, want incompatible", out, err)
	}
}
