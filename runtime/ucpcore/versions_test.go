package ucpcore_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// profileAt renders a one-service Business profile at version.
func profileAt(t *testing.T, version string) []byte {
	t.Helper()
	raw, err := ucpcore.BusinessProfile(version,
		[]ucpcore.ProfileService{{Name: "dev.ucp.common", Version: version, Transport: "mcp", Endpoint: "https://shop.example/ucp/" + version + "/mcp"}},
		[]ucpcore.ProfileCapability{{Name: "dev.ucp.common.location.search", Version: version, Schema: "https://ucp.dev/" + version + "/schemas/common/location_search.json"}})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestWithSupportedVersions(t *testing.T) {
	const cur, old, older = "2026-08-25", "2026-08-21", "2026-04-08"
	current := profileAt(t, cur)
	got, err := ucpcore.WithSupportedVersions(current, []ucpcore.SupportedVersion{
		{Version: old, URI: "https://shop.example/.well-known/ucp/" + old, Profile: profileAt(t, old)},
		{Version: older, URI: "https://shop.example/.well-known/ucp/" + older, Profile: profileAt(t, older)},
	})
	if err != nil {
		t.Fatalf("WithSupportedVersions: %v", err)
	}
	var doc, want map[string]map[string]any
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatalf("result is not JSON: %v", err)
	}
	if err := json.Unmarshal(current, &want); err != nil {
		t.Fatal(err)
	}
	want["ucp"]["supported_versions"] = map[string]any{
		old:   "https://shop.example/.well-known/ucp/" + old,
		older: "https://shop.example/.well-known/ucp/" + older,
	}
	if !reflect.DeepEqual(doc, want) {
		t.Errorf("got %s\nwant the current profile plus supported_versions", got)
	}

	listed, err := ucpcore.WithSupportedVersions(current, []ucpcore.SupportedVersion{{Version: old, URI: "https://shop.example/v", Profile: profileAt(t, old)}})
	if err != nil {
		t.Fatal(err)
	}
	leafOf := func(v string, mutate func(map[string]any)) []byte {
		var m map[string]map[string]any
		if err := json.Unmarshal(profileAt(t, v), &m); err != nil {
			t.Fatal(err)
		}
		mutate(m["ucp"])
		raw, _ := json.Marshal(m)
		return raw
	}
	refused := []struct {
		name    string
		current []byte
		sv      []ucpcore.SupportedVersion
		wantIn  string
	}{
		{"not a date", current, []ucpcore.SupportedVersion{{Version: "draft", URI: "https://shop.example/v", Profile: profileAt(t, "draft")}}, "YYYY-MM-DD"},
		{"the current version", current, []ucpcore.SupportedVersion{{Version: cur, URI: "https://shop.example/v", Profile: profileAt(t, cur)}}, "current version"},
		{"repeated", current, []ucpcore.SupportedVersion{
			{Version: old, URI: "https://shop.example/a", Profile: profileAt(t, old)},
			{Version: old, URI: "https://shop.example/b", Profile: profileAt(t, old)},
		}, "twice"},
		{"relative URI", current, []ucpcore.SupportedVersion{{Version: old, URI: "/.well-known/ucp/" + old, Profile: profileAt(t, old)}}, "absolute"},
		{"leaf at another version", current, []ucpcore.SupportedVersion{{Version: old, URI: "https://shop.example/v", Profile: profileAt(t, older)}}, older},
		{"leaf that is not a leaf", current, []ucpcore.SupportedVersion{{Version: old, URI: "https://shop.example/v", Profile: leafOf(old, func(u map[string]any) {
			u["supported_versions"] = map[string]any{}
		})}}, "leaf"},
		{"leaf not JSON", current, []ucpcore.SupportedVersion{{Version: old, URI: "https://shop.example/v", Profile: []byte("<html>")}}, "not a JSON object"},
		{"current already lists versions", listed, nil, "already"},
		{"current without ucp", []byte(`{"keys":[]}`), nil, "no ucp object"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ucpcore.WithSupportedVersions(tt.current, tt.sv)
			if err == nil || !strings.Contains(err.Error(), tt.wantIn) {
				t.Fatalf("err = %v, want one containing %q", err, tt.wantIn)
			}
		})
	}
}
