// Package publishedtree turns a UCP source-layout tree into the published
// layout (every $id and cross-file $ref an absolute
// https://ucp.dev/<version>/ URL), for tests that prove the generator reads
// both layouts alike. The release ships only part of its published tree, so
// tests build the rest from the source layout.
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
	idPattern  = regexp.MustCompile(`"\$id": "https://ucp\.dev/([^"]*)"`)
	refPattern = regexp.MustCompile(`"\$ref": "([^"#][^"]*)"`)
)

// Build returns src in the published layout of version: each file keeps its
// path, its $id gains the version segment, and every $ref that leaves the
// file becomes absolute. Files in replace are taken as given (e.g. the
// release's own published OpenAPI document).
func Build(src fs.FS, version string, replace map[string][]byte) (fstest.MapFS, error) {
	out := fstest.MapFS{}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		if r, ok := replace[p]; ok {
			out[p] = &fstest.MapFile{Data: r}
			return nil
		}
		if strings.HasSuffix(p, ".json") {
			if data, err = rewrite(p, data, version); err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
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

// rewrite gives one file its published $id and absolute $refs.
func rewrite(file string, data []byte, version string) ([]byte, error) {
	base, err := url.Parse(Site + version + "/" + file)
	if err != nil {
		return nil, err
	}
	s := idPattern.ReplaceAllStringFunc(string(data), func(m string) string {
		rest := idPattern.FindStringSubmatch(m)[1]
		if strings.HasPrefix(rest, version+"/") {
			return m
		}
		return `"$id": "` + Site + version + "/" + rest + `"`
	})
	var bad error
	s = refPattern.ReplaceAllStringFunc(s, func(m string) string {
		ref := refPattern.FindStringSubmatch(m)[1]
		r, err := url.Parse(ref)
		if err != nil {
			bad = fmt.Errorf("$ref %q: %w", ref, err)
			return m
		}
		if r.IsAbs() {
			if rest, ok := strings.CutPrefix(ref, Site); ok && !strings.HasPrefix(rest, version+"/") {
				return `"$ref": "` + Site + version + "/" + rest + `"`
			}
			return m
		}
		return `"$ref": "` + base.ResolveReference(r).String() + `"`
	})
	return []byte(s), bad
}
