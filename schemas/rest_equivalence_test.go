package schemas

import (
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// restPath is our REST binding. The release's source tree has none, so it
// is held to the release's published document instead.
const restPath = "services/common/rest.openapi.json"

// releaseREST reads the release's published OpenAPI document.
func releaseREST(t *testing.T) *jnode {
	t.Helper()
	data, err := os.ReadFile(testshared.Path(t, "ucp-upstream", upstreamRelease, "published", restPath))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := parseOrdered(data)
	if err != nil {
		t.Fatalf("parse the release's %s: %v", restPath, err)
	}
	return doc
}

// openAPIProse lists the prose members of an OpenAPI document (description
// and summary anywhere: no OpenAPI object or schema here has a property of
// those names) by pointer, and strips them from the copy it returns.
func openAPIProse(n *jnode, ptr string, prose map[string]string) *jnode {
	switch n.kind {
	case 'o':
		c := &jnode{kind: 'o', fields: map[string]*jnode{}}
		for _, k := range n.keys {
			at := ptr + "/" + escapePointer(k)
			if k == "description" || k == "summary" {
				if s, ok := n.fields[k].str(); ok {
					prose[at] = s
					continue
				}
			}
			c.keys = append(c.keys, k)
			c.fields[k] = openAPIProse(n.fields[k], at, prose)
		}
		return c
	case 'a':
		c := &jnode{kind: 'a'}
		for i, e := range n.elems {
			c.elems = append(c.elems, openAPIProse(e, ptr+"/"+strconv.Itoa(i), prose))
		}
		return c
	}
	return &jnode{kind: 'v', scalar: n.scalar}
}

// publishRefs rewrites the relative schema $refs of our source-layout
// document into the absolute URLs the release publishes them under.
func publishRefs(t *testing.T, n *jnode) {
	t.Helper()
	base, _ := url.Parse(baseURL + upstreamRelease + "/" + restPath)
	var walk func(n *jnode)
	walk = func(n *jnode) {
		for _, k := range n.keys {
			if s, ok := n.fields[k].str(); ok && k == "$ref" && !strings.HasPrefix(s, "#") {
				r, err := url.Parse(s)
				if err != nil {
					t.Fatalf("$ref %q: %v", s, err)
				}
				n.fields[k] = &jnode{kind: 'v', scalar: base.ResolveReference(r).String()}
			}
			walk(n.fields[k])
		}
		for _, e := range n.elems {
			walk(e)
		}
	}
	walk(n)
}

// TestRESTBindingMatchesRelease holds our OpenAPI document to the
// release's: without prose, and with our relative schema $refs published,
// the two are the same document, member order included; and our prose is
// our own (no description over copiedProseLimit repeats the release's).
func TestRESTBindingMatchesRelease(t *testing.T) {
	theirProse, ourProse := map[string]string{}, map[string]string{}
	want := openAPIProse(releaseREST(t), "", theirProse)
	got := openAPIProse(readTree(t, FS, restPath), "", ourProse)
	if v, _ := got.at("/info/version").str(); v != upstreamRelease {
		t.Errorf("%s#/info/version = %q, want %s", restPath, v, upstreamRelease)
	}
	for _, ref := range []string{"location_search_request", "location_lookup_response"} {
		if s, _ := got.at("/components/schemas/" + ref + "/$ref").str(); strings.Contains(s, "://") {
			t.Errorf("%s#/components/schemas/%s/$ref = %q: the source layout refers by relative path", restPath, ref, s)
		}
	}
	publishRefs(t, got)
	if at, why, ok := firstDifference(want, got, ""); !ok {
		t.Errorf("%s#%s: %s", restPath, at, why)
	}
	var order func(w, g *jnode, ptr string)
	order = func(w, g *jnode, ptr string) {
		if w.kind == 'o' && g.kind == 'o' {
			if !slices.Equal(w.keys, g.keys) {
				t.Errorf("%s#%s: member order %v, release %v", restPath, ptr, g.keys, w.keys)
			}
			for _, k := range w.keys {
				if g.fields[k] != nil {
					order(w.fields[k], g.fields[k], ptr+"/"+escapePointer(k))
				}
			}
		}
	}
	order(want, got, "")
	released := map[string]string{}
	for ptr, s := range theirProse {
		released[normaliseProse(s)] = ptr
		if strings.TrimSpace(ourProse[ptr]) == "" {
			t.Errorf("%s#%s: the release documents this position, ours does not", restPath, ptr)
		}
	}
	for ptr, s := range ourProse {
		if utf8.RuneCountInString(s) <= copiedProseLimit {
			continue
		}
		if where, ok := released[normaliseProse(s)]; ok {
			t.Errorf("%s#%s: repeats the release's text at %s: %q", restPath, ptr, where, s)
		}
	}
}
