package load

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/ucpgen/ucpgen/generator/load/internal/openapidoc"
)

// RESTFile is the name UCP gives a service's OpenAPI binding; it sits in the
// same folder as the service's OpenRPC files.
const RESTFile = "rest.openapi.json"

// MCPFile is the name of the OpenRPC file the REST binding mirrors method
// for method: UCP's MCP binding. Other OpenRPC files of the folder (the
// embedded protocol) are other transports with other methods.
const MCPFile = "mcp.openrpc.json"

// REST is a service's REST binding: its OpenAPI 3.1 document, each
// operation matched to the OpenRPC method of the same name.
type REST struct {
	// File is the OpenAPI document's path inside the input FS.
	File string
	// OpenAPI is the document's openapi version (3.1.x).
	OpenAPI string
	// Version is info.version, empty in the source layout when absent.
	Version string
	// Operations are in OpenRPC method order, one per method.
	Operations []*Operation
}

// Operation is one REST operation, the HTTP form of an OpenRPC method.
type Operation struct {
	// ID is the operationId, equal to the OpenRPC method name.
	ID string
	// Method is the HTTP method in upper case, Path the path template.
	Method, Path string
	Loc          Loc
	// Headers are the operation's header parameters, in document order.
	Headers []*Header
	// Params are its path and query parameters (In says which).
	Params []*Header
	// MediaType is the request body's media type; Body its schema, the same
	// schema as the method's parameter BodyParam. BodyRequired says whether
	// the document requires a body. All are empty without a request body.
	MediaType    string
	Body         *Schema
	BodyParam    string
	BodyRequired bool
	// Responses are the operation's responses in document order; Success
	// is the first 2xx one with a body.
	Responses []*Response
	Success   *Response
	// ResultMismatch, when not nil, says how Success's body differs from
	// the method's result schema.
	ResultMismatch error
}

// Header is a request or response header as the binding declares it.
type Header struct {
	Name string
	// In is where a parameter goes: header, path or query.
	In       string
	Required bool
	// Type and Format are the header schema's type and format (string, uuid).
	Type, Format string
	// Ref is the $ref the header came through ("" when written in place).
	Ref string
	Loc Loc
}

// Response is one declared response of an operation.
type Response struct {
	// Status is the response key ("200", "default").
	Status    string
	MediaType string
	// Body is the response schema, the method's result schema for 200.
	Body    *Schema
	Headers []*Header
	Loc     Loc
}

// Operation returns the operation for an OpenRPC method, nil if none.
func (r *REST) Operation(method string) *Operation {
	if r == nil {
		return nil
	}
	for _, op := range r.Operations {
		if op.ID == method {
			return op
		}
	}
	return nil
}

// OpenAPI loads the REST binding that sits next to spec's OpenRPC file, if
// there is one (nil, nil otherwise), and matches it against spec: every
// operationId must name a method, every method must have one operation,
// and each body must be the schema the method's parameter or result is.
// Schema $refs are resolved through spec's tree, so the source layout's
// relative refs and the published layout's https://ucp.dev/<version>/ ones
// both work.
func OpenAPI(fsys fs.FS, spec *Spec) (*REST, error) {
	if path.Base(spec.File) != MCPFile {
		return nil, nil
	}
	file := path.Join(path.Dir(spec.File), RESTFile)
	data, err := fs.ReadFile(fsys, file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", file, err)
	}
	// Our own parse first: it names duplicate members and syntax errors by
	// line, and holds the document for $ref resolution and pointers.
	root, err := Parse(file, data)
	if err != nil {
		return nil, err
	}
	set := spec.Set
	set.docs[file] = root
	set.bases[file] = "file:///" + file
	v := root.Get("openapi")
	if v == nil || v.Kind != String || !strings.HasPrefix(v.Str, "3.1") {
		return nil, keywordError(root.Loc.Child("openapi"), "want an OpenAPI 3.1 document (openapi: 3.1.x)")
	}
	if err := localRefs(root, root); err != nil {
		return nil, err
	}
	// Schema $refs point outside the document; they are resolved below
	// through the input tree.
	doc, err := openapidoc.Read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	rest := &REST{File: file, OpenAPI: v.Str, Version: doc.Version}
	if len(doc.Paths) == 0 {
		return nil, keywordError(root.Loc.Child("paths"), "no paths: the binding must have one operation per OpenRPC method")
	}
	if !bindsAnyMethod(spec, doc.Paths) {
		// The folder's binding is another OpenRPC file's (the shopping
		// folder holds embedded.openrpc.json beside mcp.openrpc.json, and
		// the REST document binds the latter); this service has none.
		return nil, nil
	}
	byID := map[string]*Operation{}
	for _, p := range doc.Paths {
		for _, o := range p.Ops {
			loc := root.Loc.Child("paths").Child(p.Path).Child(o.Method)
			if prev, dup := byID[o.ID]; dup {
				return nil, keywordError(loc.Child("operationId"), "operationId %q is also used by %s", o.ID, prev.Loc)
			}
			op, err := set.operation(spec, loc, strings.ToUpper(o.Method), p.Path, o)
			if err != nil {
				return nil, err
			}
			byID[op.ID] = op
		}
	}
	for _, m := range spec.Methods {
		op := byID[m.Name]
		if op == nil {
			return nil, keywordError(root.Loc.Child("paths"), "no operation has operationId %q, the OpenRPC method at %s", m.Name, m.Loc)
		}
		rest.Operations = append(rest.Operations, op)
	}
	return rest, nil
}

// bindsAnyMethod reports whether some operationId of the document names a
// method of spec.
func bindsAnyMethod(spec *Spec, paths []openapidoc.Path) bool {
	for _, p := range paths {
		for _, o := range p.Ops {
			if slices.ContainsFunc(spec.Methods, func(m *Method) bool { return m.Name == o.ID }) {
				return true
			}
		}
	}
	return false
}

// operation reads one operation and checks it against its OpenRPC method.
func (set *Set) operation(spec *Spec, loc Loc, method, p string, o openapidoc.Op) (*Operation, error) {
	op := &Operation{ID: o.ID, Method: method, Path: p, Loc: loc}
	if op.ID == "" {
		return nil, keywordError(loc.Child("operationId"), "missing operationId: it names the OpenRPC method the operation binds")
	}
	var m *Method
	for _, x := range spec.Methods {
		if x.Name == op.ID {
			m = x
		}
	}
	if m == nil {
		names := make([]string, len(spec.Methods))
		for i, x := range spec.Methods {
			names[i] = x.Name
		}
		return nil, keywordError(loc.Child("operationId"), "operationId %q names no method of %s (methods: %s)", op.ID, spec.File, strings.Join(names, ", "))
	}
	for i, prm := range o.Params {
		ploc := loc.Child("parameters").Child(fmt.Sprint(i))
		ref, err := set.refAt(ploc)
		if err != nil {
			return nil, err
		}
		h := &Header{Name: prm.Name, Required: prm.Required, Type: prm.Type, Format: prm.Format, Ref: ref, Loc: ploc}
		h.In = prm.In
		switch prm.In {
		case "header":
			op.Headers = append(op.Headers, h)
		case "path", "query":
			op.Params = append(op.Params, h)
		default:
			return nil, keywordError(ploc.Child("in"), "parameter %q is in %q; the binding takes header, path and query parameters", prm.Name, prm.In)
		}
	}
	if rb := o.Body; rb != nil {
		op.BodyRequired = rb.Required
		mt, body, err := set.content(loc.Child("requestBody"), rb)
		if err != nil {
			return nil, err
		}
		op.MediaType, op.Body = mt, body.schema
		if op.BodyParam, err = bodyParam(body, m); err != nil {
			return nil, err
		}
	}
	if !o.HasResponses {
		return nil, keywordError(loc.Child("responses"), "missing responses")
	}
	success := false
	for _, r := range o.Responses {
		status := r.Status
		rloc := loc.Child("responses").Child(status)
		resp := &Response{Status: status, Loc: rloc}
		if r.Content != nil {
			mt, b, err := set.content(rloc, r.Content)
			if err != nil {
				return nil, err
			}
			if strings.HasPrefix(status, "2") && !success && m.Result != nil {
				// A binding may answer in another shape than the MCP result
				// (UCP's shopping one does); the emitter that relies on the
				// two being one refuses the difference.
				success = true
				op.Success = resp
				op.ResultMismatch = sameSchema(b, m.Result.Schema, "the result of OpenRPC method "+m.Name)
			}
			resp.MediaType, resp.Body = mt, b.schema
		}
		for _, h := range r.Headers {
			hloc := rloc.Child("headers").Child(h.Name)
			ref, err := set.refAt(hloc)
			if err != nil {
				return nil, err
			}
			resp.Headers = append(resp.Headers, &Header{Name: h.Name, Required: h.Required, Type: h.Type, Format: h.Format, Ref: ref, Loc: hloc})
		}
		op.Responses = append(op.Responses, resp)
	}
	if !success && m.Result != nil {
		return nil, keywordError(loc.Child("responses"), "no 2xx response with a body: it carries the result of %s", m.Name)
	}
	return op, nil
}

// bodyParam names the method parameter a request body carries: the one
// whose schema the body's resolves to.
func bodyParam(body bodySchema, m *Method) (string, error) {
	var names []string
	for _, p := range m.Params {
		w := p.Schema
		for w.Ref != nil && refOnly(w) {
			w = w.Ref
		}
		if w.Loc == body.schema.Loc {
			return p.Name, nil
		}
		names = append(names, p.Name+" ("+w.Loc.String()+")")
	}
	return "", keywordError(body.loc, "resolves to %s, which is no parameter of OpenRPC method %s: %s", body.schema.Loc, m.Name, strings.Join(names, ", "))
}

// refAt is the $ref written at loc, or "" when the value is in place. The
// library resolves local $refs without keeping them, so they are read from
// the document itself.
func (set *Set) refAt(loc Loc) (string, error) {
	n, err := at(set.docs[loc.File], loc.Pointer)
	if err != nil {
		return "", keywordError(loc, "%v", err)
	}
	r := n.Get("$ref")
	if r == nil {
		return "", nil
	}
	if r.Kind != String || !strings.HasPrefix(r.Str, "#/") {
		return "", keywordError(r.Loc, "want a $ref into this document (#/components/...)")
	}
	if _, err := at(set.docs[loc.File], r.Str[1:]); err != nil {
		return "", keywordError(r.Loc, "$ref %q: %v", r.Str, err)
	}
	return r.Str, nil
}

// localRefs checks that every $ref into the document (#/...) names a value
// in it, so a broken parameter or header $ref is reported by pointer before
// the library sees it.
func localRefs(root, n *Node) error {
	for _, m := range n.Members {
		if m.Key == "$ref" && m.Value.Kind == String && strings.HasPrefix(m.Value.Str, "#") {
			if _, err := at(root, strings.TrimPrefix(m.Value.Str, "#")); err != nil {
				return keywordError(m.Value.Loc, "$ref %q: %v", m.Value.Str, err)
			}
		}
		if err := localRefs(root, m.Value); err != nil {
			return err
		}
	}
	for _, it := range n.Items {
		if err := localRefs(root, it); err != nil {
			return err
		}
	}
	return nil
}

// bodySchema is a body's schema with where it was declared and what it
// resolves to.
type bodySchema struct {
	loc    Loc
	schema *Schema
}

// content reads the single JSON media type of a body and resolves its
// schema through the input tree.
func (set *Set) content(loc Loc, content *openapidoc.Content) (string, bodySchema, error) {
	const mt = openapidoc.JSON
	cloc := loc.Child("content")
	if content == nil || len(content.MediaTypes) == 0 {
		return "", bodySchema{}, keywordError(cloc, "missing content: the binding carries JSON bodies")
	}
	if !content.JSON || len(content.MediaTypes) != 1 {
		return "", bodySchema{}, keywordError(cloc, "content must have exactly one media type, %s", mt)
	}
	sloc := cloc.Child(mt).Child("schema")
	n, err := at(set.docs[loc.File], sloc.Pointer)
	if err != nil {
		return "", bodySchema{}, keywordError(sloc, "missing schema")
	}
	s, err := set.parseSchema(n)
	if err != nil {
		return "", bodySchema{}, err
	}
	target, err := set.follow(s)
	if err != nil {
		return "", bodySchema{}, err
	}
	return mt, bodySchema{loc: sloc, schema: target}, nil
}

// follow resolves a chain of $ref-only schemas to the schema they name.
func (set *Set) follow(s *Schema) (*Schema, error) {
	for i := 0; s.RefString != "" && refOnly(s); i++ {
		if i > 32 {
			return nil, keywordError(s.Loc.Child("$ref"), "$ref chain does not end")
		}
		next := s.Ref
		if next == nil {
			var err error
			if next, err = set.resolveRef(s.Loc, s.RefString); err != nil {
				return nil, err
			}
		}
		s = next
	}
	return s, nil
}

// refOnly reports whether s says nothing but $ref (and annotations).
func refOnly(s *Schema) bool {
	if s.Node == nil || s.Node.Kind != Object {
		return false
	}
	for _, m := range s.Node.Members {
		switch m.Key {
		case "$ref", "description", "title", "$comment", "summary":
		default:
			return false
		}
	}
	return true
}

// sameSchema requires the body to resolve to the schema of the OpenRPC
// descriptor it binds.
func sameSchema(body bodySchema, want *Schema, what string) error {
	w := want
	for w.Ref != nil && refOnly(w) {
		w = w.Ref
	}
	if body.schema.Loc != w.Loc {
		return keywordError(body.loc, "resolves to %s, but %s is %s", body.schema.Loc, what, w.Loc)
	}
	return nil
}
