package schemas

import (
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ucpgen/ucpgen/internal/testshared"
)

// draftTree opens the upstream draft that schemas/2026-08-21 is rewritten
// from (skipping or failing per the testshared rule when it is absent).
func draftTree(t *testing.T) fs.FS {
	t.Helper()
	return os.DirFS(testshared.Path(t, "ucp-upstream", "draft-"+PreviousVersion, "source"))
}

// refClosure lists, sorted, every file of fsys that the entry file reaches
// through $ref, the entry included: the draft tree holds the shopping
// services too, and schemas/2026-08-21 keeps only what the Location service
// uses.
func refClosure(t *testing.T, fsys fs.FS, entry string) []string {
	t.Helper()
	seen := map[string]bool{}
	todo := []string{entry}
	for len(todo) > 0 {
		rel := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[rel] {
			continue
		}
		seen[rel] = true
		for _, ref := range refsOf(readTree(t, fsys, rel)) {
			target, _, _ := strings.Cut(ref, "#")
			switch {
			case target == "":
				continue
			case strings.HasPrefix(target, baseURL):
				target = strings.TrimPrefix(target, baseURL)
			default:
				target = path.Join(path.Dir(rel), target)
			}
			todo = append(todo, target)
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// refsOf collects the string value of every "$ref" member in a document.
func refsOf(n *jnode) []string {
	var out []string
	switch n.kind {
	case 'o':
		for _, k := range n.keys {
			if s, ok := n.fields[k].str(); ok && k == "$ref" {
				out = append(out, s)
				continue
			}
			out = append(out, refsOf(n.fields[k])...)
		}
	case 'a':
		for _, e := range n.elems {
			out = append(out, refsOf(e)...)
		}
	}
	return out
}

// previousPairs loads every file of schemas/2026-08-21 with the draft file of
// the same path.
func previousPairs(t *testing.T) []pair {
	t.Helper()
	up := draftTree(t)
	var out []pair
	for _, rel := range jsonFiles(t, Previous) {
		if rel == restPath {
			continue // TestPreviousRESTBindingMatchesDraft
		}
		if _, err := fs.Stat(up, rel); err != nil {
			continue // reported by TestPreviousFileSetIsTheDraftClosure
		}
		out = append(out, pair{rel: rel, upstream: readTree(t, up, rel), ours: readTree(t, Previous, rel)})
	}
	if len(out) == 0 {
		t.Fatal("no file of schemas/2026-08-21 exists in the draft")
	}
	return out
}

// jsonFiles is treeFiles without the Go and Markdown files that sit beside
// the tree in its package folder.
func jsonFiles(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	var out []string
	for _, f := range treeFiles(t, fsys) {
		if path.Ext(f) == ".json" {
			out = append(out, f)
		}
	}
	return out
}

// TestPreviousFileSetIsTheDraftClosure checks that schemas/2026-08-21 holds
// exactly the draft files the Location OpenRPC document and its REST
// binding reach.
func TestPreviousFileSetIsTheDraftClosure(t *testing.T) {
	up := draftTree(t)
	want := refClosure(t, up, OpenRPCPath)
	if _, err := fs.Stat(up, restPath); err == nil {
		want = slices.Compact(slices.Sorted(slices.Values(append(want, refClosure(t, up, restPath)...))))
	}
	got := jsonFiles(t, Previous)
	for _, f := range want {
		if !slices.Contains(got, f) {
			t.Errorf("%s: reached from the draft's Location service, missing in schemas/2026-08-21", f)
		}
	}
	for _, f := range got {
		if !slices.Contains(want, f) {
			t.Errorf("%s: in schemas/2026-08-21, not reached from the draft's Location service", f)
		}
	}
}

// TestPreviousStructureMatchesDraft checks that, annotations removed, every
// file is the draft's JSON document, and reports the first difference by
// pointer.
func TestPreviousStructureMatchesDraft(t *testing.T) {
	for _, p := range previousPairs(t) {
		t.Run(p.rel, func(t *testing.T) {
			want := stripAnnotations(p.upstream, annotationSites(p.rel, p.upstream))
			got := stripAnnotations(p.ours, annotationSites(p.rel, p.ours))
			if at, why, ok := firstDifference(want, got, ""); !ok {
				t.Errorf("%s#%s: %s", p.rel, at, why)
			}
		})
	}
}

// TestPreviousPropertyOrderMatchesDraft checks member order, which generated
// code follows and deep equality does not see.
func TestPreviousPropertyOrderMatchesDraft(t *testing.T) {
	for _, p := range previousPairs(t) {
		want, got := propertyOrders(p.rel, p.upstream), propertyOrders(p.rel, p.ours)
		for _, ptr := range slices.Sorted(maps.Keys(want)) {
			if !slices.Equal(want[ptr], got[ptr]) {
				t.Errorf("%s#%s: member order %v, draft %v", p.rel, ptr, got[ptr], want[ptr])
			}
		}
		for _, ptr := range slices.Sorted(maps.Keys(got)) {
			if _, ok := want[ptr]; !ok {
				t.Errorf("%s#%s: properties object not present in the draft", p.rel, ptr)
			}
		}
	}
}

// TestPreviousDescriptionsAreOwnWords checks that no description longer
// than copiedProseLimit repeats text of the draft or of the release, and
// that every position the draft documents has a description of ours.
func TestPreviousDescriptionsAreOwnWords(t *testing.T) {
	all := previousPairs(t)
	upstreamText := map[string]string{}
	for _, p := range all {
		for ptr, d := range descriptions(p.rel, p.upstream) {
			if utf8.RuneCountInString(d) > copiedProseLimit {
				upstreamText[normaliseProse(d)] = "draft " + p.rel + "#" + ptr
			}
		}
	}
	for _, p := range pairs(t) {
		for ptr, d := range descriptions(p.rel, p.upstream) {
			if utf8.RuneCountInString(d) > copiedProseLimit {
				upstreamText[normaliseProse(d)] = "release " + p.rel + "#" + ptr
			}
		}
	}
	for _, p := range all {
		ours, theirs := descriptions(p.rel, p.ours), descriptions(p.rel, p.upstream)
		for _, ptr := range slices.Sorted(maps.Keys(ours)) {
			d := ours[ptr]
			if utf8.RuneCountInString(d) <= copiedProseLimit {
				continue
			}
			if where, ok := upstreamText[normaliseProse(d)]; ok {
				t.Errorf("%s#%s: description repeats upstream text of %s: %q", p.rel, ptr, where, d)
			}
		}
		for _, ptr := range slices.Sorted(maps.Keys(theirs)) {
			if strings.TrimSpace(ours[ptr]) == "" {
				t.Errorf("%s#%s: the draft documents this position, ours has no description", p.rel, ptr)
			}
		}
	}
}

// TestPreviousSchemasCompile checks that every schema of the older set and
// each of its $defs compiles from the embedded files alone, with the $id
// that maps back to its path.
func TestPreviousSchemasCompile(t *testing.T) {
	c := newCompiler()
	c.UseLoader(embeddedLoader{fsys: Previous})
	for _, rel := range jsonFiles(t, Previous) {
		if !strings.HasPrefix(rel, "schemas/") {
			continue
		}
		doc := readTree(t, Previous, rel)
		if id, _ := doc.field("$id").str(); id != baseURL+rel {
			t.Errorf("%s: $id is %q, want %q", rel, id, baseURL+rel)
			continue
		}
		if _, err := c.Compile(schemaURL(rel, "")); err != nil {
			t.Errorf("compile %s: %v", rel, err)
		}
		if defs := doc.field("$defs"); defs != nil {
			for _, name := range defs.keys {
				if _, err := c.Compile(schemaURL(rel, "/$defs/"+escapePointer(name))); err != nil {
					t.Errorf("compile %s#/$defs/%s: %v", rel, name, err)
				}
			}
		}
	}
}

// TestPreviousNamesItsVersion checks that the OpenRPC document states the
// version the package constant names, since the generator stamps it into
// every answer of the older package.
func TestPreviousNamesItsVersion(t *testing.T) {
	doc := readTree(t, Previous, OpenRPCPath)
	if v, _ := doc.field("info").field("version").str(); v != PreviousVersion {
		t.Errorf("%s: info.version %q, want %q", OpenRPCPath, v, PreviousVersion)
	}
}

// TestPreviousRESTBindingMatchesDraft holds the older REST binding to the
// draft's: without prose and without the info.version we add, the same
// document in the same member order, with prose of our own wherever the
// draft has some.
func TestPreviousRESTBindingMatchesDraft(t *testing.T) {
	theirProse, ourProse := map[string]string{}, map[string]string{}
	want := openAPIProse(readTree(t, draftTree(t), restPath), "", theirProse)
	got := openAPIProse(readTree(t, Previous, restPath), "", ourProse)
	info := got.field("info")
	if v, _ := info.field("version").str(); v != PreviousVersion {
		t.Errorf("%s#/info/version = %q, want %s", restPath, v, PreviousVersion)
	}
	if info != nil {
		info.keys = slices.DeleteFunc(info.keys, func(k string) bool { return k == "version" })
		delete(info.fields, "version")
	}
	if at, why, ok := firstDifference(want, got, ""); !ok {
		t.Errorf("%s#%s: %s", restPath, at, why)
	}
	var order func(w, g *jnode, ptr string)
	order = func(w, g *jnode, ptr string) {
		if w == nil || g == nil || w.kind != 'o' || g.kind != 'o' {
			return
		}
		if !slices.Equal(w.keys, g.keys) {
			t.Errorf("%s#%s: member order %v, draft %v", restPath, ptr, g.keys, w.keys)
		}
		for _, k := range w.keys {
			order(w.fields[k], g.fields[k], ptr+"/"+escapePointer(k))
		}
	}
	order(want, got, "")
	drafted := map[string]string{}
	for ptr, s := range theirProse {
		drafted[normaliseProse(s)] = ptr
		if strings.TrimSpace(ourProse[ptr]) == "" {
			t.Errorf("%s#%s: the draft documents this position, ours does not", restPath, ptr)
		}
	}
	for ptr, s := range ourProse {
		if where, ok := drafted[normaliseProse(s)]; ok && utf8.RuneCountInString(s) > copiedProseLimit {
			t.Errorf("%s#%s: repeats the draft's text at %s: %q", restPath, ptr, where, s)
		}
	}
}
