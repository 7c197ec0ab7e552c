// Package openapicheck holds REST exchanges to a UCP OpenAPI document with
// libopenapi-validator, which shares no code with ucpgen's generated
// validators or its REST handlers: the path and method, every declared
// header parameter with its format, the request media type and the
// response status. Bodies are not checked here: a UCP document's body
// schemas are $refs into the release's schema tree, which the tests hold
// bodies to with a JSON Schema validator of their own.
//
// Its API is plain functions over net/http values, so a test that imports
// it does not compile libopenapi's generic ordered maps again.
package openapicheck

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/pb33f/libopenapi"
	vconfig "github.com/pb33f/libopenapi-validator/config"
	valerrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/parameters"
	"github.com/pb33f/libopenapi-validator/paths"
	"github.com/pb33f/libopenapi/datamodel"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
)

// Checker checks requests and responses against one document. Requests
// are matched by their URL's path, so a test rewrites a request to the
// document's server form (below the document's paths) before asking.
type Checker struct {
	request  func(*http.Request) error
	response func(*http.Request, int) error
}

// Load reads the OpenAPI document at path. External $refs (the body
// schemas) are left unresolved. Call it only where Usable is true.
func Load(path string) (*Checker, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d, err := libopenapi.NewDocumentWithConfiguration(raw, &datamodel.DocumentConfiguration{SkipExternalRefResolution: true})
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	m, err := d.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("model of %s: %w", path, err)
	}
	doc := &document{
		model:  &m.Model,
		params: parameters.NewParameterValidator(&m.Model, vconfig.WithFormatAssertions()),
		opts:   vconfig.NewValidationOptions(vconfig.WithFormatAssertions()),
	}
	return &Checker{request: doc.request, response: doc.response}, nil
}

// Request reports what the document refuses in req as sent: an unknown
// path or method, a missing or malformed header parameter, a Content-Type
// it does not declare.
func (c *Checker) Request(req *http.Request) error { return c.request(req) }

// Response reports whether the document declares status for req's
// operation (or a default response).
func (c *Checker) Response(req *http.Request, status int) error { return c.response(req, status) }

// document is the parsed document behind a Checker.
type document struct {
	model  *v3.Document
	params parameters.ParameterValidator
	opts   *vconfig.ValidationOptions
}

// operation finds the document's operation for req.
func (d *document) operation(req *http.Request) (*v3.PathItem, *v3.Operation, string, error) {
	item, errs, found := paths.FindPath(req, d.model, d.opts)
	if len(errs) > 0 {
		return nil, nil, "", joined(errs)
	}
	op := item.GetOperations().GetOrZero(strings.ToLower(req.Method))
	if op == nil {
		return nil, nil, "", fmt.Errorf("%s %s: no such operation in the document", req.Method, found)
	}
	return item, op, found, nil
}

func (d *document) request(req *http.Request) error {
	item, op, found, err := d.operation(req)
	if err != nil {
		return err
	}
	if ok, errs := d.params.ValidateHeaderParamsWithPathItem(req, item, found); !ok {
		return joined(errs)
	}
	if op.RequestBody == nil || op.RequestBody.Content == nil {
		return fmt.Errorf("%s %s declares no request body", req.Method, found)
	}
	mt := strings.TrimSpace(strings.Split(req.Header.Get("Content-Type"), ";")[0])
	if _, ok := op.RequestBody.Content.Get(mt); !ok {
		return fmt.Errorf("%s %s: Content-Type %q is not a declared request media type", req.Method, found, mt)
	}
	return nil
}

func (d *document) response(req *http.Request, status int) error {
	_, op, found, err := d.operation(req)
	if err != nil {
		return err
	}
	if op.Responses == nil {
		return fmt.Errorf("%s %s declares no responses", req.Method, found)
	}
	if _, ok := op.Responses.Codes.Get(strconv.Itoa(status)); !ok && op.Responses.Default == nil {
		return fmt.Errorf("%s %s: status %d is not a declared response", req.Method, found, status)
	}
	return nil
}

// joined is the validator's errors as one, each message with its reason.
func joined(errs []*valerrors.ValidationError) error {
	msgs := make([]string, 0, len(errs))
	for _, e := range errs {
		msgs = append(msgs, e.Message+": "+e.Reason)
	}
	return errors.New(strings.Join(msgs, "; "))
}
