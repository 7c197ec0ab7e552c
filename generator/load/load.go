// Package load reads a UCP OpenRPC document and the JSON Schemas it
// references into resolved, order-preserving Schema values, and proves the
// inputs well-formed with the santhosh-tekuri/jsonschema compiler before any
// code is generated. Every error names file#/json/pointer and the reason.
package load

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Spec is a loaded OpenRPC service description.
type Spec struct {
	OpenRPC string
	Title   string
	// Version is the UCP release the document describes (e.g.
	// 2026-08-25), from --ucp-version, info.version or the tree's URLs;
	// empty when nothing states it. Release says where it was read.
	Version     string
	Release     Release
	Description string
	// Endpoint is the default of the first server's endpoint variable, if any.
	Endpoint   string
	Components []*Property
	Methods    []*Method
	// File is the OpenRPC file's path inside the input FS.
	File string
	Set  *Set
	// REST is the service's REST binding, read from the OpenAPI document
	// next to the OpenRPC file; nil when there is none.
	REST *REST
	// Warnings are lint findings (e.g. a keyword one edit from a known
	// one), sorted by location; the CLI prints them, --strict refuses them.
	Warnings []Warning
}

// Method is one OpenRPC method (an MCP tool).
type Method struct {
	Name        string
	Summary     string
	Description string
	Params      []*Param
	Result      *Param
	Loc         Loc
}

// Param is an OpenRPC content descriptor.
type Param struct {
	Name        string
	Required    bool
	Description string
	Schema      *Schema
}

// Set is every JSON document of an input tree, indexed by file and by $id.
type Set struct {
	// warnings collects lint findings while schemas are parsed.
	warnings []Warning

	fsys  fs.FS
	urls  urlClaims
	docs  map[string]*Node  // file path -> root node
	ids   map[string]string // $id (no fragment) -> file path
	bases map[string]string // file path -> base URI
	byLoc map[Loc]*Schema
}

// Doc returns the parsed document at file, loading it on demand.
func (set *Set) Doc(file string) (*Node, error) { return set.doc(file) }

// Base returns the base URI of a loaded file ($id or a file: URL).
func (set *Set) Base(file string) string { return set.bases[file] }

// Files lists the loaded files in sorted order.
func (set *Set) Files() []string {
	out := make([]string, 0, len(set.docs))
	for f := range set.docs {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// Options adjust how a tree is read.
type Options struct {
	// UCPVersion is the release the tree describes when it does not say
	// (UCP's source/ layout has no info.version); a tree that states a
	// different one is refused.
	UCPVersion string
}

// OpenRPC loads the OpenRPC document at file (a slash path inside fsys) and
// everything it references.
func OpenRPC(fsys fs.FS, file string) (*Spec, error) { return OpenRPCWith(fsys, file, Options{}) }

// OpenRPCWith is OpenRPC with options, for trees that need a stated release.
func OpenRPCWith(fsys fs.FS, file string, opts Options) (*Spec, error) {
	set := &Set{fsys: fsys, urls: urlClaims{fsys: fsys}, docs: map[string]*Node{}, ids: map[string]string{}, bases: map[string]string{}, byLoc: map[Loc]*Schema{}}
	if err := set.indexIDs(); err != nil {
		return nil, err
	}
	root, err := set.doc(file)
	if err != nil {
		return nil, err
	}
	spec := &Spec{File: file, Set: set}
	if err := spec.parse(set, root); err != nil {
		return nil, err
	}
	if err := set.resolveAll(); err != nil {
		return nil, err
	}
	if err := set.compile(spec); err != nil {
		return nil, err
	}
	// The REST binding is read before the release is decided, because it
	// states the release too: its info.version and $ref URLs must agree
	// with the OpenRPC file's and the flag.
	mark := set.urls.mark()
	if spec.REST, err = OpenAPI(fsys, spec); err != nil {
		if locationService(spec) {
			return nil, err
		}
		// The REST handler serves the Location capability's binding; for
		// another service, a binding it cannot read stops only its REST
		// form, loudly: a warning, which --strict refuses.
		set.warnings = append(set.warnings, Warning{Loc: Loc{File: path.Join(path.Dir(file), RESTFile)},
			Msg: "REST binding not read, so no REST handler is generated for this service: " + err.Error()})
		spec.REST = nil
	}
	if spec.REST == nil {
		// A document the service does not use states nothing about it.
		set.urls.reset(mark)
		if w, ok := missingREST(fsys, file); ok {
			set.warnings = append(set.warnings, w)
		}
	}
	infos, err := releaseStatements(set, root, file, spec.REST)
	if err != nil {
		return nil, err
	}
	rel, err := decideRelease(opts.UCPVersion, infos, set.urls.first)
	if err != nil {
		return nil, err
	}
	spec.Release, spec.Version = rel, rel.Version
	if spec.Version == "" {
		set.warnings = append(set.warnings, Warning{Loc: root.Loc.Child("info"), Msg: "info.version is missing (OpenRPC requires it) and no $id/$ref URL names a release; pass " + FlagName + " YYYY-MM-DD to name the UCP version"})
	}
	spec.Warnings = append([]Warning(nil), set.warnings...)
	sort.SliceStable(spec.Warnings, func(i, j int) bool { return spec.Warnings[i].Loc.String() < spec.Warnings[j].Loc.String() })
	return spec, nil
}

// missingREST is the notice for an MCP binding with no REST binding beside
// it: generation goes on with the MCP server only, which is a legitimate
// Business, so --strict does not refuse it; but the user learns which file
// would have added the REST handler.
func missingREST(fsys fs.FS, file string) (Warning, bool) {
	if path.Base(file) != MCPFile {
		return Warning{}, false
	}
	rest := path.Join(path.Dir(file), RESTFile)
	if _, err := fs.Stat(fsys, rest); !errors.Is(err, fs.ErrNotExist) {
		return Warning{}, false
	}
	return Warning{Loc: Loc{File: rest}, Notice: true, Msg: fmt.Sprintf(
		"no REST binding: %s was looked for beside %s and is not in the tree, so only the MCP binding is generated (no rest.go); add the release's %s there to serve REST too",
		rest, file, RESTFile)}, true
}

// releaseStatements returns the info.version claims of the OpenRPC file
// and of its REST binding (when one is read), and notes the versions their
// server URLs name.
func releaseStatements(set *Set, root *Node, file string, rest *REST) ([]versionClaim, error) {
	roots, files := []*Node{root}, []string{file}
	if rest != nil {
		roots, files = append(roots, set.docs[rest.File]), append(files, rest.File)
	}
	var infos []versionClaim
	for i, r := range roots {
		c, err := infoVersion(r, files[i])
		if err != nil {
			return nil, err
		}
		if c != nil {
			infos = append(infos, *c)
		}
		set.urls.servers(r)
	}
	return infos, nil
}

// indexIDs reads the $id of every .json file so that references written as
// absolute https://ucp.dev/... URLs map to files in the tree.
func (set *Set) indexIDs() error {
	return fs.WalkDir(set.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("walk %s: %w", p, err)
		}
		if d.IsDir() || !strings.HasSuffix(p, ".json") {
			return nil
		}
		data, err := fs.ReadFile(set.fsys, p)
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		n, err := Parse(p, data)
		if err != nil {
			// Files nobody references may be broken without harm; a
			// referenced one fails again in doc() with this error.
			return nil
		}
		if id := n.Get("$id"); id != nil && id.Kind == String {
			u, _ := splitRef(id.Str)
			set.urls.note(u, p+"#/$id")
			if prev, dup := set.ids[u]; dup {
				return fmt.Errorf("%s#/$id: $id %q is also declared by %s", p, u, prev)
			}
			set.ids[u] = p
		}
		return nil
	})
}

func (set *Set) doc(file string) (*Node, error) {
	if n, ok := set.docs[file]; ok {
		return n, nil
	}
	data, err := fs.ReadFile(set.fsys, file)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", file, err)
	}
	n, err := Parse(file, data)
	if err != nil {
		return nil, err
	}
	base := "file:///" + file
	if id := n.Get("$id"); id != nil {
		if id.Kind != String {
			return nil, keywordError(id.Loc, "$id must be a string, got %s", id.Kind)
		}
		u, err := url.Parse(id.Str)
		if err != nil || !u.IsAbs() {
			return nil, keywordError(id.Loc, "$id must be an absolute URI, got %q", id.Str)
		}
		base, _ = splitRef(id.Str)
	}
	set.docs[file] = n
	set.bases[file] = base
	return n, nil
}

// fileOf maps a document URL to its file in the tree: the file declaring
// it as $id, a file: URL's path, or, for UCP's published
// (https://ucp.dev/<version>/<path>) and source (https://ucp.dev/<path>)
// layouts, the path below the host with any version segment removed.
func (set *Set) fileOf(docURL string) string {
	if file, ok := set.ids[docURL]; ok {
		return file
	}
	if strings.HasPrefix(docURL, "file:///") {
		return strings.TrimPrefix(docURL, "file:///")
	}
	if file, _, ok := TreePath(set.fsys, docURL); ok {
		return file
	}
	u, err := url.Parse(docURL)
	if err != nil {
		return docURL
	}
	return strings.TrimPrefix(path.Clean("/"+u.Path), "/")
}

// at returns the node at a JSON pointer inside a document.
func at(root *Node, ptr string) (*Node, error) {
	if ptr == "" {
		return root, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("fragment %q is not a JSON pointer (anchors are not supported)", ptr)
	}
	cur := root
	for _, raw := range strings.Split(ptr[1:], "/") {
		tok := strings.NewReplacer("~1", "/", "~0", "~").Replace(raw)
		var next *Node
		switch cur.Kind {
		case Object:
			next = cur.Get(tok)
		case Array:
			for i, it := range cur.Items {
				if fmt.Sprint(i) == tok {
					next = it
				}
			}
		}
		if next == nil {
			return nil, fmt.Errorf("JSON pointer %q not found (no %q)", ptr, tok)
		}
		cur = next
	}
	return cur, nil
}

// resolveRef resolves a $ref string found at loc to its target schema.
func (set *Set) resolveRef(loc Loc, ref string) (*Schema, error) {
	target, err := set.refNode(loc, ref)
	if err != nil {
		return nil, err
	}
	return set.parseSchema(target)
}

// refNode resolves a $ref string found at loc (the object holding it) to the
// node it points at, in this file or another one of the tree.
func (set *Set) refNode(loc Loc, ref string) (*Node, error) {
	base, err := url.Parse(set.bases[loc.File])
	if err != nil {
		return nil, keywordError(loc, "bad base URI: %v", err)
	}
	r, err := url.Parse(ref)
	if err != nil {
		return nil, keywordError(loc.Child("$ref"), "invalid $ref %q: %v", ref, err)
	}
	abs := base.ResolveReference(r).String()
	docURL, frag := splitRef(abs)
	if ufrag, err := url.PathUnescape(frag); err == nil {
		frag = ufrag
	}
	set.urls.note(docURL, loc.Child("$ref").String())
	file := set.fileOf(docURL)
	root, err := set.doc(file)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, keywordError(loc.Child("$ref"), "$ref %q: no such file %s", ref, file)
		}
		return nil, err
	}
	target, err := at(root, frag)
	if err != nil {
		return nil, keywordError(loc.Child("$ref"), "$ref %q: %v in %s", ref, err, file)
	}
	return target, nil
}

// deref follows an OpenRPC reference object ({"$ref": ...} in place of a
// method or content descriptor) to the object it names, across files and
// through chains of such objects; what names a thing of the kind wanted is
// for the caller to check. Any other node is returned as it is.
func (set *Set) deref(n *Node, what string) (*Node, error) {
	seen := map[Loc]bool{}
	for n.Kind == Object {
		r := n.Get("$ref")
		if r == nil {
			return n, nil
		}
		if r.Kind != String {
			return nil, keywordError(r.Loc, "$ref of a %s must be a string, got %s", what, r.Kind)
		}
		for _, m := range n.Members {
			if m.Key != "$ref" {
				return nil, keywordError(m.Value.Loc, "a %s given by $ref must have no other members, found %q", what, m.Key)
			}
		}
		if seen[n.Loc] {
			return nil, keywordError(r.Loc, "$ref %q of a %s is part of a reference loop", r.Str, what)
		}
		seen[n.Loc] = true
		target, err := set.refNode(n.Loc, r.Str)
		if err != nil {
			return nil, err
		}
		n = target
	}
	return n, nil
}

func (set *Set) resolveAll() error {
	// Parsing a ref target can discover new schemas with refs, so iterate
	// until every schema seen has been visited.
	done := map[*Schema]bool{}
	for {
		var pending []*Schema
		for _, s := range set.byLoc {
			if !done[s] && s.RefString != "" && s.Ref == nil {
				pending = append(pending, s)
			}
		}
		if len(pending) == 0 {
			return nil
		}
		sort.Slice(pending, func(i, j int) bool { return pending[i].Loc.String() < pending[j].Loc.String() })
		for _, s := range pending {
			done[s] = true
			t, err := set.resolveRef(s.Loc, s.RefString)
			if err != nil {
				return err
			}
			s.Ref = t
		}
	}
}

func (spec *Spec) parse(set *Set, root *Node) error {
	if root.Kind != Object {
		return keywordError(root.Loc, "OpenRPC document must be an object")
	}
	v := root.Get("openrpc")
	if v == nil || v.Kind != String {
		return keywordError(root.Loc.Child("openrpc"), "missing openrpc version string")
	}
	if !strings.HasPrefix(v.Str, "1.") {
		return keywordError(v.Loc, "unsupported OpenRPC version %q (want 1.x)", v.Str)
	}
	spec.OpenRPC = v.Str
	if info := root.Get("info"); info != nil {
		if t := info.Get("title"); t != nil && t.Kind == String {
			spec.Title = t.Str
		}
		if v := info.Get("version"); v != nil && v.Kind != String {
			return keywordError(v.Loc, "info.version must be a string, got %s", v.Kind)
		}
		if d := info.Get("description"); d != nil && d.Kind == String {
			spec.Description = d.Str
		}
	}
	if servers := root.Get("servers"); servers != nil && servers.Kind == Array && len(servers.Items) > 0 {
		if d := servers.Items[0].Get("variables").Get("endpoint").Get("default"); d != nil && d.Kind == String {
			spec.Endpoint = d.Str
		}
	}
	if comps := root.Get("components").Get("schemas"); comps != nil {
		if comps.Kind != Object {
			return keywordError(comps.Loc, "components.schemas must be an object")
		}
		for _, m := range comps.Members {
			s, err := set.parseSchema(m.Value)
			if err != nil {
				return err
			}
			spec.Components = append(spec.Components, &Property{Name: m.Key, Schema: s})
		}
	}
	methods := root.Get("methods")
	if methods == nil || methods.Kind != Array {
		return keywordError(root.Loc.Child("methods"), "methods must be an array")
	}
	seen := map[string]bool{}
	for _, mn := range methods.Items {
		mn, err := set.deref(mn, "method")
		if err != nil {
			return err
		}
		m, err := parseMethod(set, mn)
		if err != nil {
			return err
		}
		if seen[m.Name] {
			return keywordError(mn.Loc.Child("name"), "duplicate method name %q", m.Name)
		}
		seen[m.Name] = true
		spec.Methods = append(spec.Methods, m)
	}
	return nil
}

func parseMethod(set *Set, n *Node) (*Method, error) {
	if n.Kind != Object {
		return nil, keywordError(n.Loc, "method must be an object")
	}
	m := &Method{Loc: n.Loc}
	var err error
	if m.Name, err = reqString(n, "name"); err != nil {
		return nil, err
	}
	m.Summary, _ = optString(n, "summary")
	m.Description, _ = optString(n, "description")
	params := n.Get("params")
	if params == nil || params.Kind != Array {
		return nil, keywordError(n.Loc.Child("params"), "params must be an array")
	}
	for _, pn := range params.Items {
		p, err := parseParam(set, pn)
		if err != nil {
			return nil, err
		}
		m.Params = append(m.Params, p)
	}
	if rn := n.Get("result"); rn != nil {
		if m.Result, err = parseParam(set, rn); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func parseParam(set *Set, n *Node) (*Param, error) {
	n, err := set.deref(n, "content descriptor")
	if err != nil {
		return nil, err
	}
	if n.Kind != Object {
		return nil, keywordError(n.Loc, "content descriptor must be an object")
	}
	p := &Param{}
	if p.Name, err = reqString(n, "name"); err != nil {
		return nil, err
	}
	p.Description, _ = optString(n, "description")
	if r := n.Get("required"); r != nil {
		if r.Kind != Bool {
			return nil, keywordError(r.Loc, "required must be a boolean")
		}
		p.Required = r.Bool
	}
	sn := n.Get("schema")
	if sn == nil {
		return nil, keywordError(n.Loc.Child("schema"), "missing schema")
	}
	if p.Schema, err = set.parseSchema(sn); err != nil {
		return nil, err
	}
	return p, nil
}

func reqString(n *Node, key string) (string, error) {
	v := n.Get(key)
	if v == nil || v.Kind != String || v.Str == "" {
		return "", keywordError(n.Loc.Child(key), "missing or non-string %s", key)
	}
	return v.Str, nil
}

func optString(n *Node, key string) (string, bool) {
	v := n.Get(key)
	if v == nil || v.Kind != String {
		return "", false
	}
	return v.Str, true
}

// compile runs every method schema through santhosh-tekuri/jsonschema (Draft
// 2020-12, metaschema validation on), the reference the generated validators
// are tested against, so inputs it rejects never reach the emitters.
func (set *Set) compile(spec *Spec) error {
	c := set.Compiler()
	for _, m := range spec.Methods {
		for _, p := range append(append([]*Param{}, m.Params...), m.Result) {
			if p == nil {
				continue
			}
			if _, err := c.Compile(set.URL(p.Schema.Loc)); err != nil {
				return set.translate(err)
			}
		}
	}
	return nil
}

// URL returns the reference-validator URL of a schema location.
func (set *Set) URL(l Loc) string {
	return "file:///" + l.File + "#" + l.Pointer
}

// Compiler returns a santhosh-tekuri compiler preloaded with every document
// of the set (under its file: URL and its $id) and Draft 2020-12 defaults.
func (set *Set) Compiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(treeLoader{set: set})
	return c
}

// treeLoader serves the input tree to the reference compiler, mapping $id
// URLs to files, so compilation never touches the network.
type treeLoader struct{ set *Set }

func (l treeLoader) Load(u string) (any, error) {
	file := l.set.fileOf(u)
	if !isFile(l.set.fsys, file) {
		return nil, fmt.Errorf("no file in the input tree declares $id %s or stands for it", u)
	}
	n, err := l.set.doc(file)
	if err != nil {
		return nil, err
	}
	return n.Interface(), nil
}

// translate rewrites reference-compiler errors so that URLs become file
// paths, giving the file#/pointer: reason form.
func (set *Set) translate(err error) error {
	msg := err.Error()
	for id, file := range set.ids {
		msg = strings.ReplaceAll(msg, id, file)
	}
	msg = strings.ReplaceAll(msg, "file:///", "")
	return errors.New(msg)
}

// SchemaAt returns the parsed schema at loc, if the loader has seen it.
func (set *Set) SchemaAt(loc Loc) *Schema { return set.byLoc[loc] }

// Schemas lists every schema the loader parsed (those reachable from the
// methods and components), sorted by location, so the model can know every
// name the input could claim, not only the ones its methods use.
func (set *Set) Schemas() []*Schema {
	out := make([]*Schema, 0, len(set.byLoc))
	for _, s := range set.byLoc {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Loc.String() < out[j].Loc.String() })
	return out
}

// Loaded reports whether file was read while loading the spec.
func (set *Set) Loaded(file string) bool { _, ok := set.docs[file]; return ok }

// locationService reports whether a method of spec takes a schema from a
// document naming a capability of UCP's Location (dev.ucp.common.location.*),
// the one service whose REST binding the generator serves.
func locationService(spec *Spec) bool {
	for _, m := range spec.Methods {
		for _, p := range m.Params {
			s := p.Schema
			for s.Ref != nil {
				s = s.Ref
			}
			if root, err := spec.Set.Doc(s.Loc.File); err == nil {
				if n := root.Get("name"); n != nil && n.Kind == String && strings.HasPrefix(n.Str, "dev.ucp.common.location.") {
					return true
				}
			}
		}
	}
	return false
}
