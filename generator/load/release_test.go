package load

import (
	"strings"
	"testing"
	"testing/fstest"
)

// releaseTree is a two-file UCP-shaped tree: info is the OpenRPC info
// object's members, ref the method's $ref and id the schema's $id.
func releaseTree(info, ref, id string) fstest.MapFS {
	idMember := ""
	if id != "" {
		idMember = `"$id":"` + id + `",`
	}
	return fstest.MapFS{
		"services/common/mcp.openrpc.json": {Data: []byte(`{"openrpc":"1.3.2","info":{"title":"t"` + info + `},
			"methods":[{"name":"m","params":[{"name":"p","schema":{"$ref":"` + ref + `"}}]}]}`)},
		"schemas/s.json": {Data: []byte(`{` + idMember + `"type":"object","properties":{"n":{"$ref":"#/$defs/n"}},"$defs":{"n":{"type":"string"}}}`)},
	}
}

func TestRelease(t *testing.T) {
	const (
		relRef = "../../schemas/s.json"
		pubRef = "https://ucp.dev/2026-08-25/schemas/s.json"
		srcID  = "https://ucp.dev/schemas/s.json"
		pubID  = "https://ucp.dev/2026-08-25/schemas/s.json"
	)
	for _, tc := range []struct {
		name           string
		flag, info     string
		ref, id        string
		want, wantFrom string
		wantErr        []string
	}{
		{name: "source layout with the flag", flag: "2026-08-25", ref: relRef, id: srcID,
			want: "2026-08-25", wantFrom: "--ucp-version"},
		{name: "source layout without anything", ref: relRef, id: srcID},
		{name: "info.version", info: `,"version":"2026-08-25"`, ref: relRef, id: srcID,
			want: "2026-08-25", wantFrom: "info.version of services/common/mcp.openrpc.json"},
		{name: "flag matching info.version", flag: "2026-08-25", info: `,"version":"2026-08-25"`, ref: relRef,
			want: "2026-08-25", wantFrom: "--ucp-version, matching info.version of services/common/mcp.openrpc.json"},
		{name: "published layout", info: `,"version":"2026-08-25"`, ref: pubRef, id: pubID,
			want: "2026-08-25", wantFrom: "info.version of services/common/mcp.openrpc.json"},
		{name: "published layout without info.version", ref: pubRef, id: pubID,
			want: "2026-08-25", wantFrom: "the $id/$ref URLs (e.g. schemas/s.json#/$id)"},
		{name: "published refs to version-less $ids", ref: pubRef, id: srcID,
			want: "2026-08-25", wantFrom: "the $id/$ref URLs (e.g. services/common/mcp.openrpc.json#/methods/0/params/0/schema/$ref)"},
		{name: "a non-release info.version is kept for a document that is not UCP", info: `,"version":"1"`, ref: relRef,
			want: "1", wantFrom: "info.version of services/common/mcp.openrpc.json"},

		{name: "flag against info.version", flag: "2026-08-27", info: `,"version":"2026-08-25"`, ref: relRef,
			wantErr: []string{`"2026-08-27" by --ucp-version`, `"2026-08-25" by info.version of services/common/mcp.openrpc.json`}},
		{name: "flag against URLs", flag: "2026-08-27", ref: pubRef, id: pubID,
			wantErr: []string{`"2026-08-27" by --ucp-version`, `"2026-08-25" by the $id/$ref URLs (e.g. schemas/s.json#/$id)`}},
		{name: "info.version against URLs", info: `,"version":"2026-08-27"`, ref: pubRef, id: pubID,
			wantErr: []string{"stated twice", `"2026-08-27" by info.version`, `"2026-08-25" by the $id/$ref URLs`}},
		{name: "$id against $ref", ref: "https://ucp.dev/2026-08-27/schemas/s.json", id: pubID,
			wantErr: []string{"stated twice", `"2026-08-25"`, `"2026-08-27"`, "schemas/s.json#/$id", "#/methods/0/params/0/schema/$ref"}},
		{name: "draft flag", flag: "draft", ref: relRef,
			wantErr: []string{`--ucp-version "draft" is not a UCP release (YYYY-MM-DD)`}},
		{name: "draft URL", ref: "https://ucp.dev/draft/schemas/s.json",
			wantErr: []string{`services/common/mcp.openrpc.json#/methods/0/params/0/schema/$ref: URL names UCP version "draft", which is not a UCP release`}},
		{name: "flag month out of range", flag: "2026-13-45", ref: relRef,
			wantErr: []string{`--ucp-version "2026-13-45" is not a UCP release (YYYY-MM-DD): there is no month 13`}},
		{name: "flag day out of range", flag: "2026-02-30", ref: relRef,
			wantErr: []string{`--ucp-version "2026-02-30" is not a UCP release (YYYY-MM-DD): 2026-02 has days 01 to 28, so there is no day 30`}},
		{name: "URL naming no calendar date", ref: "https://ucp.dev/2026-04-31/schemas/s.json",
			wantErr: []string{`#/methods/0/params/0/schema/$ref: URL names UCP version "2026-04-31", which is not a UCP release (YYYY-MM-DD): 2026-04 has days 01 to 30`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := OpenRPCWith(releaseTree(tc.info, tc.ref, tc.id), "services/common/mcp.openrpc.json", Options{UCPVersion: tc.flag})
			if tc.wantErr != nil {
				if err == nil {
					t.Fatalf("loaded with release %+v; want an error", spec.Release)
				}
				for _, w := range tc.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if spec.Version != tc.want || spec.Release.Version != tc.want || spec.Release.From != tc.wantFrom {
				t.Errorf("release %+v (Version %q); want %q from %q", spec.Release, spec.Version, tc.want, tc.wantFrom)
			}
			if got := spec.Set.SchemaAt(Loc{File: "schemas/s.json", Pointer: "/$defs/n"}); got == nil {
				t.Error("the $ref did not resolve to schemas/s.json")
			}
		})
	}
}

func TestReleaseRequire(t *testing.T) {
	for _, tc := range []struct {
		r    Release
		want string
	}{
		{Release{Version: "2026-08-25", From: FlagName}, ""},
		{Release{}, "pass --ucp-version YYYY-MM-DD"},
		{Release{Version: "draft", From: "info.version of x.json"}, `UCP version "draft" (info.version of x.json) is not a UCP release (YYYY-MM-DD): it is not a date written YYYY-MM-DD; pass --ucp-version`},
		{Release{Version: "2026-02-29", From: "info.version of x.json"}, `x.json: UCP version "2026-02-29" (info.version of x.json) is not a UCP release (YYYY-MM-DD): 2026-02 has days 01 to 28, so there is no day 29; pass --ucp-version`},
	} {
		err := tc.r.Require("x.json")
		if tc.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", tc.r, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want it to contain %q", tc.r, err, tc.want)
		}
	}
}

// TestCheckRelease is the one format check of a release label: a real
// calendar date written YYYY-MM-DD, with the reason when it is not.
func TestCheckRelease(t *testing.T) {
	for _, tc := range []struct{ v, why string }{
		{"2026-08-25", ""},
		{"2027-01-01", ""},
		{"2028-02-29", ""}, // a leap year
		{"2026-12-31", ""},
		{"", "not a date written YYYY-MM-DD"},
		{"draft", "not a date written YYYY-MM-DD"},
		{"1.0.0", "not a date written YYYY-MM-DD"},
		{"2026-8-25", "not a date written YYYY-MM-DD"},
		{"2026-08-25T00:00:00Z", "not a date written YYYY-MM-DD"},
		{"+026-08-25", "not a date written YYYY-MM-DD"},
		{"2026-13-45", "there is no month 13"},
		{"2026-00-10", "there is no month 00"},
		{"2026-02-30", "2026-02 has days 01 to 28, so there is no day 30"},
		{"2026-02-29", "2026-02 has days 01 to 28, so there is no day 29"},
		{"2100-02-29", "2100-02 has days 01 to 28"}, // not a leap year
		{"2026-04-31", "2026-04 has days 01 to 30"},
		{"2026-01-00", "there is no day 00"},
	} {
		err := CheckRelease(tc.v)
		switch {
		case tc.why == "" && err != nil:
			t.Errorf("CheckRelease(%q) = %v, want nil", tc.v, err)
		case tc.why != "" && (err == nil || !strings.Contains(err.Error(), tc.why)):
			t.Errorf("CheckRelease(%q) = %v, want %q", tc.v, err, tc.why)
		}
		if IsRelease(tc.v) != (tc.why == "") {
			t.Errorf("IsRelease(%q) = %v", tc.v, !(tc.why == ""))
		}
	}
}

func TestTreePath(t *testing.T) {
	fsys := releaseTree("", "", "")
	for _, tc := range []struct {
		url, file, version string
		ok                 bool
	}{
		{"https://ucp.dev/schemas/s.json", "schemas/s.json", "", true},
		{"https://ucp.dev/2026-08-25/schemas/s.json", "schemas/s.json", "2026-08-25", true},
		{"https://ucp.dev/draft/schemas/s.json", "schemas/s.json", "draft", true},
		{"https://ucp.dev/2026-08-25/schemas/missing.json", "", "", false},
		{"https://ucp.dev/schemas/schemas/s.json", "", "", false}, // a tree folder is never a version
		{"https://json-schema.org/draft/2020-12/schema", "", "", false},
		{"file:///schemas/s.json", "", "", false},
		{"schemas/s.json", "", "", false},
	} {
		file, version, ok := TreePath(fsys, tc.url)
		if file != tc.file || version != tc.version || ok != tc.ok {
			t.Errorf("TreePath(%s) = %q, %q, %v; want %q, %q, %v", tc.url, file, version, ok, tc.file, tc.version, tc.ok)
		}
	}
}

// restTree is releaseTree with a REST binding beside the OpenRPC file:
// restInfo is its info object's extra members, ref its body's $ref and
// servers its servers array (empty for none); rpcServers is the OpenRPC
// file's servers array.
func restTree(info, restInfo, ref, servers, rpcServers string) fstest.MapFS {
	fsys := releaseTree(info, "../../schemas/s.json", "https://ucp.dev/schemas/s.json")
	if rpcServers != "" {
		rpc := strings.Replace(string(fsys["services/common/mcp.openrpc.json"].Data), `"methods"`, `"servers":`+rpcServers+`,"methods"`, 1)
		fsys["services/common/mcp.openrpc.json"] = &fstest.MapFile{Data: []byte(rpc)}
	}
	if servers != "" {
		servers = `"servers":` + servers + `,`
	}
	fsys["services/common/rest.openapi.json"] = &fstest.MapFile{Data: []byte(`{"openapi":"3.1.0","info":{"title":"r"` + restInfo + `},` + servers + `
		"paths":{"/m":{"post":{"operationId":"m","requestBody":{"required":true,"content":{"application/json":{"schema":{"$ref":"` + ref + `"}}}},
		"responses":{"200":{"description":"ok"}}}}}}`)}
	return fsys
}

// TestReleaseStatedByEveryDocument checks that the REST binding's
// info.version and $ref URLs, and the server URLs of both documents, are
// statements of the release like the OpenRPC file's: each must agree with
// the flag and the others, and a conflict names both values and places.
func TestReleaseStatedByEveryDocument(t *testing.T) {
	const (
		relRef = "../../schemas/s.json"
		pubRef = "https://ucp.dev/2026-08-25/schemas/s.json"
		v25    = `,"version":"2026-08-25"`
		v26    = `,"version":"2026-08-26"`
		body   = "services/common/rest.openapi.json#/paths/~1m/post/requestBody/content/application~1json/schema/$ref"
	)
	for _, tc := range []struct {
		name                    string
		flag, info, restInfo    string
		ref, servers, rpcServer string
		wantFrom                string
		wantErr                 []string
	}{
		{name: "both documents agree", info: v25, restInfo: v25, ref: relRef,
			wantFrom: "info.version of services/common/mcp.openrpc.json"},
		{name: "only the REST binding states it", restInfo: v25, ref: relRef,
			wantFrom: "info.version of services/common/rest.openapi.json"},
		{name: "flag matching the REST binding", flag: "2026-08-25", restInfo: v25, ref: pubRef,
			wantFrom: "--ucp-version, matching info.version of services/common/rest.openapi.json"},
		{name: "a server elsewhere names nothing", flag: "2026-08-25", ref: relRef,
			servers: `[{"url":"https://business.example.com/2026-08-27/ucp"}]`, rpcServer: `[{"name":"b","url":"{endpoint}","variables":{"endpoint":{"default":"https://ucp.dev/mcp"}}}]`,
			wantFrom: "--ucp-version"},
		{name: "a matching server URL", info: v25, ref: relRef, servers: `[{"url":"https://ucp.dev/2026-08-25/ucp"}]`,
			wantFrom: "info.version of services/common/mcp.openrpc.json"},

		{name: "flag against the REST info.version", flag: "2026-08-24", restInfo: v25, ref: relRef,
			wantErr: []string{`"2026-08-24" by --ucp-version`, `"2026-08-25" by info.version of services/common/rest.openapi.json`}},
		{name: "OpenRPC against REST info.version", info: v25, restInfo: v26, ref: relRef,
			wantErr: []string{`"2026-08-25" by info.version of services/common/mcp.openrpc.json`, `"2026-08-26" by info.version of services/common/rest.openapi.json`}},
		{name: "flag against the REST $ref URLs", flag: "2026-08-24", ref: pubRef,
			wantErr: []string{`"2026-08-24" by --ucp-version`, `"2026-08-25" by the $id/$ref URLs (e.g. ` + body + `)`}},
		{name: "REST info.version against its own $ref URLs", restInfo: v26, ref: pubRef,
			wantErr: []string{`"2026-08-26" by info.version of services/common/rest.openapi.json`, `"2026-08-25" by the $id/$ref URLs (e.g. ` + body + `)`}},
		{name: "OpenRPC server URL", info: v25, ref: relRef, rpcServer: `[{"name":"b","url":"https://ucp.dev/2026-08-27/mcp"}]`,
			wantErr: []string{`"2026-08-25" by info.version of services/common/mcp.openrpc.json`, `"2026-08-27" by the server URL at services/common/mcp.openrpc.json#/servers/0/url`}},
		{name: "REST server variable", flag: "2026-08-25", ref: relRef,
			servers: `[{"url":"{endpoint}","variables":{"endpoint":{"default":"https://ucp.dev/2026-08-27/","enum":["https://ucp.dev/2026-08-27/"]}}}]`,
			wantErr: []string{`"2026-08-25" by --ucp-version`, `"2026-08-27" by the server URL at services/common/rest.openapi.json#/servers/0/variables/endpoint/default`}},
		{name: "server URL naming no date", ref: relRef, servers: `[{"url":"https://ucp.dev/2026-02-30/"}]`,
			wantErr: []string{`services/common/rest.openapi.json#/servers/0/url: URL names UCP version "2026-02-30", which is not a UCP release (YYYY-MM-DD): 2026-02 has days 01 to 28`}},
		{name: "non-string REST info.version", restInfo: `,"version":20260825`, ref: relRef,
			wantErr: []string{"services/common/rest.openapi.json#/info/version: info.version must be a string"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := OpenRPCWith(restTree(tc.info, tc.restInfo, tc.ref, tc.servers, tc.rpcServer), "services/common/mcp.openrpc.json", Options{UCPVersion: tc.flag})
			if tc.wantErr != nil {
				if err == nil {
					t.Fatalf("loaded with release %+v; want an error", spec.Release)
				}
				for _, w := range tc.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if spec.REST == nil {
				t.Fatal("the REST binding was not read")
			}
			if spec.Release.From != tc.wantFrom || spec.Version != "2026-08-25" {
				t.Errorf("release %+v; want 2026-08-25 from %q", spec.Release, tc.wantFrom)
			}
		})
	}
}
