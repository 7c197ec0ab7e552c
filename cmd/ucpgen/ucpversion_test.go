package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// TestUCPVersionFlag is the CLI side of the upstream layouts: UCP's source/
// tree, which states no version, generates with --ucp-version and is
// refused without it by an error naming the flag; a flag that disagrees
// with the tree, or is not a release, is refused naming both.
func TestUCPVersionFlag(t *testing.T) {
	src := testshared.Path(t, "ucp-upstream", "2026-08-25", "source")
	pub := testshared.PublishedTree(t, src, "2026-08-25")
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		want    string // in stderr, or in mcp.go's header when code is 0
		notWant string
	}{
		{name: "source with the flag", args: []string{"--schemas", src, "--ucp-version", "2026-08-25", "--strict"},
			want: "// UCP version: 2026-08-25 (--ucp-version)\n"},
		{name: "source without the flag", args: []string{"--schemas", src}, code: exitBadInput,
			want: "pass --ucp-version YYYY-MM-DD"},
		{name: "source without the flag under --strict", args: []string{"--schemas", src, "--strict"}, code: exitBadInput,
			want: "--ucp-version"},
		{name: "a draft is not a release", args: []string{"--schemas", src, "--ucp-version", "draft"}, code: exitBadInput,
			want: `--ucp-version "draft" is not a UCP release (YYYY-MM-DD)`},
		{name: "published layout", args: []string{"--schemas", pub, "--strict"},
			want: "// UCP version: 2026-08-25 (info.version of services/common/mcp.openrpc.json)\n", notWant: "warning"},
		{name: "published layout with the same flag", args: []string{"--schemas", pub, "--ucp-version", "2026-08-25"},
			want: "// UCP version: 2026-08-25 (--ucp-version, matching info.version of"},
		{name: "published layout with another flag", args: []string{"--schemas", pub, "--ucp-version", "2026-09-01"}, code: exitBadInput,
			want: `stated twice, differently: "2026-09-01" by --ucp-version and "2026-08-25" by info.version of services/common/mcp.openrpc.json`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "loc")
			code, _, errs := ucpgen(t, append([]string{"generate", "--out", out}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, errs)
			}
			got := errs
			if code == 0 {
				b, err := os.ReadFile(filepath.Join(out, "mcp.go"))
				if err != nil {
					t.Fatal(err)
				}
				got = string(b)
				if !strings.Contains(got, `const ProtocolVersion = "2026-08-25"`) {
					t.Error("mcp.go does not name 2026-08-25 as its ProtocolVersion")
				}
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("want %q in:\n%.600s", tc.want, got)
			}
			if tc.notWant != "" && strings.Contains(errs, tc.notWant) {
				t.Errorf("stderr has %q:\n%s", tc.notWant, errs)
			}
		})
	}
}

// TestTreeVersionsAgree holds the rule that every version a tree
// states agrees with --ucp-version and with each other: the OpenRPC
// file's info.version, the REST binding's, and the https://ucp.dev/<v>/
// URLs of $id and $ref. UCP's source/ tree with the release's published
// REST binding beside it states 2026-08-25 only in that binding, which a
// different flag used to override silently (RESTSchema at ucp.dev/<flag>).
func TestTreeVersionsAgree(t *testing.T) {
	src := testshared.Path(t, "ucp-upstream", "2026-08-25", "source")
	restDoc, err := os.ReadFile(testshared.Path(t, "ucp-upstream", "2026-08-25", "published", "services", "common", "rest.openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	// withREST copies tree and puts the release's REST binding, edited by
	// the old/new pairs, beside its OpenRPC file.
	withREST := func(t *testing.T, tree string, edits ...string) string {
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(tree)); err != nil {
			t.Fatal(err)
		}
		editFile(t, dir, "services/common/rest.openapi.json", string(restDoc), edits...)
		return dir
	}
	pub := testshared.PublishedTree(t, src, "2026-08-25")
	const restSchema = `const RESTSchema = "https://ucp.dev/2026-08-25/services/common/rest.openapi.json"`
	for _, tc := range []struct {
		name string
		tree func(t *testing.T) string
		args []string
		code int
		want string // in stderr, or in rest.go when code is 0
	}{
		{"source with the release's REST binding and its version", func(t *testing.T) string { return withREST(t, src) },
			[]string{"--ucp-version", "2026-08-25", "--strict"}, exitOK, restSchema},
		{"source with the release's REST binding and another version", func(t *testing.T) string { return withREST(t, src) },
			[]string{"--ucp-version", "2026-08-24"}, exitBadInput,
			`the UCP version is stated twice, differently: "2026-08-24" by --ucp-version and "2026-08-25" by info.version of services/common/rest.openapi.json`},
		{"source with a REST binding stating no version but publishing $refs", func(t *testing.T) string {
			return withREST(t, src, `"version": "2026-08-25"`, `"x-version": "2026-08-25"`)
		}, []string{"--ucp-version", "2026-08-24"}, exitBadInput,
			`"2026-08-24" by --ucp-version and "2026-08-25" by the $id/$ref URLs (e.g. services/common/rest.openapi.json#/components/schemas/`},
		{"published layout whose REST binding states another release", func(t *testing.T) string {
			return withREST(t, pub, `"version": "2026-08-25"`, `"version": "2026-08-26"`)
		}, nil, exitBadInput,
			`"2026-08-25" by info.version of services/common/mcp.openrpc.json and "2026-08-26" by info.version of services/common/rest.openapi.json`},
		{"published layout whose REST $refs name another release", func(t *testing.T) string {
			return withREST(t, pub, `"$ref": "https://ucp.dev/2026-08-25/schemas/common/location_search.json#/$defs/search_request"`,
				`"$ref": "https://ucp.dev/2026-08-26/schemas/common/location_search.json#/$defs/search_request"`)
		}, nil, exitBadInput,
			`"2026-08-25" by info.version of services/common/mcp.openrpc.json and "2026-08-26" by the $id/$ref URLs (e.g. services/common/rest.openapi.json#/components/schemas/`},
		{"published layout with one $id of another release", func(t *testing.T) string {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(pub)); err != nil {
				t.Fatal(err)
			}
			editFile(t, dir, "schemas/common/types/location_filter.json", "", "https://ucp.dev/2026-08-25/schemas/common/types/location_filter.json", "https://ucp.dev/2026-08-26/schemas/common/types/location_filter.json")
			return dir
		}, []string{"--ucp-version", "2026-08-25"}, exitBadInput,
			`"2026-08-25" by --ucp-version and "2026-08-26" by the $id/$ref URLs (e.g. schemas/common/types/location_filter.json#/$id)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "loc")
			code, _, errs := ucpgen(t, append([]string{"generate", "--schemas", tc.tree(t), "--out", out}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, errs)
			}
			got := errs
			if code == exitOK {
				b, err := os.ReadFile(filepath.Join(out, "rest.go"))
				if err != nil {
					t.Fatal(err)
				}
				got = string(b)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("want %q in:\n%.800s", tc.want, got)
			}
		})
	}
}

// editFile rewrites the slash path file under dir: with body non-empty it
// is written first, then each old/new pair of edits is applied once and
// must match.
func editFile(t *testing.T, dir, file, body string, edits ...string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(file))
	if body == "" {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		body = string(b)
	}
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(body, edits[i]) {
			t.Fatalf("%s has no %q to edit", file, edits[i])
		}
		body = strings.Replace(body, edits[i], edits[i+1], 1)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
