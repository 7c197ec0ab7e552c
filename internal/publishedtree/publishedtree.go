// Package publishedtree turns a UCP source-layout tree into the published
// layout that https://ucp.dev/<version>/ serves (every $id and cross-file
// $ref an absolute versioned URL, info.version stated), for tests that prove
// the generator reads both layouts alike. The release ships only part of its
// published tree, so tests build the rest from the source layout.
package publishedtree

import (
	"fmt"
	"io/fs"
	"net/url"
	"regexp"
	"strings"
	"testing/fstest"
)

// Site is the root every published URL starts with.
const Site = "https://ucp.dev/"

var (
	idPattern   = regexp.MustCompile(`"\$id"(\s*):(\s*)"([^"]*)"`)
	refPattern  = regexp.MustCompile(`"\$ref"(\s*):(\s*)"([^"]*)"`)
	infoPattern = regexp.MustCompile(`"info"\s*:\s*\{`)
)

// Build returns src in the published layout of version: each file keeps its
// path and each JSON file is rewritten by Publish. Files in replace are taken
// as given (e.g. the release's own published OpenAPI document).
func Build(src fs.FS, version string, replace map[string][]byte) (fstest.MapFS, error) {
	out := fstest.MapFS{}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if r, ok := replace[p]; ok {
			out[p] = &fstest.MapFile{Data: r}
			return nil
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".json") {
			doc, err := Publish(string(data), p, version)
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
			data = []byte(doc)
		}
		out[p] = &fstest.MapFile{Data: data}
		return nil
	})
	for p, r := range replace {
		if _, ok := out[p]; !ok {
			out[p] = &fstest.MapFile{Data: r}
		}
	}
	return out, err
}

// Publish rewrites one document of a source tree, at slash path file, into
// the published layout of version. It edits text rather than re-encoding
// JSON, so member order, which the generator keeps, is unchanged:
//   - the $id gains the version as its first path segment;
//   - a $ref to another file becomes an absolute URL resolved against the
//     document's published $id, and an absolute ucp.dev $ref gains the
//     version; a same-document "#..." reference stays as it is, as in the
//     published rest.openapi.json;
//   - an OpenRPC or OpenAPI document without a version gets info.version.
func Publish(doc, file, version string) (string, error) {
	base, err := url.Parse(Site + version + "/" + file)
	if err != nil {
		return "", fmt.Errorf("published URL of %s: %w", file, err)
	}
	if m := idPattern.FindStringSubmatch(doc); m != nil {
		if u, err := url.Parse(m[3]); err == nil && u.IsAbs() {
			base = versioned(u, version)
		}
	}
	doc = idPattern.ReplaceAllStringFunc(doc, func(s string) string {
		m := idPattern.FindStringSubmatch(s)
		u, err := url.Parse(m[3])
		if err != nil || !u.IsAbs() {
			return s
		}
		return `"$id"` + m[1] + ":" + m[2] + `"` + versioned(u, version).String() + `"`
	})
	var bad error
	doc = refPattern.ReplaceAllStringFunc(doc, func(s string) string {
		m := refPattern.FindStringSubmatch(s)
		if strings.HasPrefix(m[3], "#") {
			return s
		}
		r, err := url.Parse(m[3])
		if err != nil {
			bad = fmt.Errorf("$ref %q: %w", m[3], err)
			return s
		}
		var abs *url.URL
		switch {
		case !r.IsAbs():
			abs = base.ResolveReference(r)
		case strings.HasPrefix(m[3], Site):
			abs = versioned(r, version)
		default:
			return s
		}
		return `"$ref"` + m[1] + ":" + m[2] + `"` + abs.String() + `"`
	})
	if (strings.Contains(doc, `"openrpc"`) || strings.Contains(doc, `"openapi"`)) && !strings.Contains(doc, `"version"`) {
		if loc := infoPattern.FindStringIndex(doc); loc != nil {
			doc = doc[:loc[1]] + `"version": "` + version + `", ` + doc[loc[1]:]
		}
	}
	return doc, bad
}

// versioned returns u with version as its first path segment, unless it has
// it already.
func versioned(u *url.URL, version string) *url.URL {
	c := *u
	if !strings.HasPrefix(strings.TrimPrefix(c.Path, "/"), version+"/") {
		c.Path = "/" + version + c.Path
	}
	return &c
}
