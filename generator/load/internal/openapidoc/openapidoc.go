// Package openapidoc reads the operations of an OpenAPI document with
// libopenapi and hands them on as plain values. It is the generator's one
// package that imports libopenapi (internal/openapicheck is the tests'; see
// internal/layout): the library's types are generic ordered maps, and a
// package whose API mentions them makes every importer compile their
// methods again (about 7,500 functions, seconds per package).
package openapidoc

import (
	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi/datamodel"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
)

// JSON is the one media type a UCP binding carries.
const JSON = "application/json"

// Doc is what the binding reads of a document.
type Doc struct {
	// Version is info.version ("" when info or its version is absent).
	Version string
	// Paths are the path items in document order; none when the document
	// has no paths.
	Paths []Path
}

// Path is one path item's operations.
type Path struct {
	Path string
	Ops  []Op
}

// Op is one operation.
type Op struct {
	// Method is the HTTP method as the document keys it (lower case).
	Method string
	ID     string
	Params []Param
	// Body is the request body, nil without one.
	Body *Content
	// HasResponses is false when the operation declares no responses
	// object (or no status codes in it).
	HasResponses bool
	Responses    []Response
}

// Param is one parameter.
type Param struct {
	Name, In     string
	Required     bool
	Type, Format string // of its schema: the first type, and format
}

// Content is a request or response body's content map.
type Content struct {
	// Required is the request body's required (false for a response).
	Required bool
	// MediaTypes are the content's keys, in document order.
	MediaTypes []string
	// JSON says whether application/json is a key with a media type object.
	JSON bool
}

// Response is one response, by status key.
type Response struct {
	Status string
	// Content is nil when the response has no content, or an empty one.
	Content *Content
	Headers []Header
}

// Header is one response header.
type Header struct {
	Name         string
	Required     bool
	Type, Format string
}

// Read parses data as an OpenAPI 3 document. External $refs are not
// followed: the caller resolves schemas through its own input tree (and
// following them also races inside the library's rolodex).
func Read(data []byte) (*Doc, error) {
	doc, err := libopenapi.NewDocumentWithConfiguration(data, &datamodel.DocumentConfiguration{SkipExternalRefResolution: true})
	if err != nil {
		return nil, err
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		return nil, err
	}
	out := &Doc{}
	if info := model.Model.Info; info != nil {
		out.Version = info.Version
	}
	if model.Model.Paths == nil || model.Model.Paths.PathItems == nil {
		return out, nil
	}
	for p, item := range model.Model.Paths.PathItems.FromOldest() {
		path := Path{Path: p}
		for method, o := range item.GetOperations().FromOldest() {
			path.Ops = append(path.Ops, operation(method, o))
		}
		out.Paths = append(out.Paths, path)
	}
	return out, nil
}

// operation copies one operation out of the model.
func operation(method string, o *v3.Operation) Op {
	op := Op{Method: method, ID: o.OperationId}
	for _, p := range o.Parameters {
		t, f := schemaType(p.Schema)
		op.Params = append(op.Params, Param{Name: p.Name, In: p.In, Required: p.Required != nil && *p.Required, Type: t, Format: f})
	}
	if rb := o.RequestBody; rb != nil {
		op.Body = content(rb.Content)
		if op.Body == nil {
			op.Body = &Content{}
		}
		op.Body.Required = rb.Required != nil && *rb.Required
	}
	if o.Responses == nil || o.Responses.Codes == nil {
		return op
	}
	op.HasResponses = true
	for status, r := range o.Responses.Codes.FromOldest() {
		resp := Response{Status: status, Content: content(r.Content)}
		if r.Headers != nil {
			for name, h := range r.Headers.FromOldest() {
				t, f := schemaType(h.Schema)
				resp.Headers = append(resp.Headers, Header{Name: name, Required: h.Required, Type: t, Format: f})
			}
		}
		op.Responses = append(op.Responses, resp)
	}
	return op
}

// content copies a content map's keys; nil when it is absent or empty.
func content(c *orderedmap.Map[string, *v3.MediaType]) *Content {
	if orderedmap.Len(c) == 0 {
		return nil
	}
	out := &Content{JSON: c.GetOrZero(JSON) != nil}
	for k := range c.KeysFromOldest() {
		out.MediaTypes = append(out.MediaTypes, k)
	}
	return out
}

// schemaType is a schema's first type and its format, "" for either when
// the schema is absent.
func schemaType(sp *base.SchemaProxy) (typ, format string) {
	if sp == nil {
		return "", ""
	}
	s := sp.Schema()
	if s == nil {
		return "", ""
	}
	if len(s.Type) > 0 {
		typ = s.Type[0]
	}
	return typ, s.Format
}
