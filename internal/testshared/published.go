package testshared

import (
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	idPattern   = regexp.MustCompile(`"\$id"(\s*):(\s*)"([^"]*)"`)
	refPattern  = regexp.MustCompile(`"\$ref"(\s*):(\s*)"([^"]*)"`)
	infoPattern = regexp.MustCompile(`"info"\s*:\s*\{`)
)

// PublishedTree copies the UCP source/ tree at src into a temporary folder
// in the published layout that https://ucp.dev/<version>/ serves: every $id
// and every $ref to another file an absolute https://ucp.dev/<version>/<path>
// URL (a same-document "#..." reference stays as it is, as in the published
// rest.openapi.json), and info.version set in each OpenRPC and OpenAPI
// document. It rewrites text rather than
// re-encoding JSON, so member order, which the generator keeps, is unchanged.
// Tests use it because ../shared holds only one file of that form.
func PublishedTree(t testing.TB, src, version string) string {
	t.Helper()
	return CopyTree(t, src, func(rel string, data []byte) []byte {
		if strings.HasSuffix(rel, ".json") {
			return []byte(publish(string(data), rel, version))
		}
		return data
	})
}

// CopyTree copies the folder src into a new temporary folder and returns
// it, passing each file's bytes through edit with the file's slash path
// (nil keeps every file as it is), so a test can change a tree without
// touching the original.
func CopyTree(t testing.TB, src string, edit func(rel string, data []byte) []byte) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if edit != nil {
			data = edit(filepath.ToSlash(rel), data)
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy of %s: %v", src, err)
	}
	return dst
}

// publish rewrites one document of the tree at file (slash path) into the
// published layout of version.
func publish(doc, file, version string) string {
	root := "https://ucp.dev/" + version + "/"
	base, _ := url.Parse(root + file)
	if m := idPattern.FindStringSubmatch(doc); m != nil {
		if u, err := url.Parse(m[3]); err == nil && u.IsAbs() {
			base = u
			if !strings.HasPrefix(strings.TrimPrefix(u.Path, "/"), version+"/") {
				base.Path = "/" + version + u.Path
			}
		}
	}
	doc = idPattern.ReplaceAllStringFunc(doc, func(s string) string {
		m := idPattern.FindStringSubmatch(s)
		u, err := url.Parse(m[3])
		if err != nil || !u.IsAbs() || strings.HasPrefix(strings.TrimPrefix(u.Path, "/"), version+"/") {
			return s
		}
		u.Path = "/" + version + u.Path
		return `"$id"` + m[1] + ":" + m[2] + `"` + u.String() + `"`
	})
	doc = refPattern.ReplaceAllStringFunc(doc, func(s string) string {
		m := refPattern.FindStringSubmatch(s)
		// A same-document reference ("#/components/...", "#") stays as it
		// is, as in the published documents: only references to other
		// files become URLs.
		r, err := url.Parse(m[3])
		if err != nil || r.IsAbs() || strings.HasPrefix(m[3], "#") {
			return s
		}
		abs := base.ResolveReference(r).String()
		return `"$ref"` + m[1] + ":" + m[2] + `"` + abs + `"`
	})
	if (strings.Contains(doc, `"openrpc"`) || strings.Contains(doc, `"openapi"`)) && !strings.Contains(doc, `"version"`) {
		if loc := infoPattern.FindStringIndex(doc); loc != nil {
			doc = doc[:loc[1]] + `"version": "` + version + `", ` + doc[loc[1]:]
		}
	}
	return doc
}
