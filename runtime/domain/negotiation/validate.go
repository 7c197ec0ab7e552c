package negotiation

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/ucpgen/ucpgen/runtime/rpcerr"
	"github.com/ucpgen/ucpgen/schemas"
)

// ucpSchemaBase is the $id prefix of UCP's source layout; a file of a tree
// without its own $id is registered under this prefix and its path.
const ucpSchemaBase = "https://ucp.dev/schemas/"

// profileDocumentURL names the wrapper schema this package adds on top of a
// UCP tree that has no profile.json: the profile document is an object whose
// ucp member is a platform (or business, the %s) profile. It is a private
// identifier, never fetched.
const profileDocumentURL = "urn:ucpgen:negotiation:%s-profile-document"

// profileDocumentSchema states the document-level rule for trees that keep
// only ucp.json (2026-08-25 has no profile.json). keys and any other
// top-level member are left open, as UCP's draft wrapper leaves them.
const profileDocumentSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "required": ["ucp"],
  "properties": {
    "ucp": {"$ref": %q}
  }
}`

// ProfileSchema checks Platform profile documents (or, compiled by
// CompileBusinessProfileSchema, Business ones) against the profile schema of
// one UCP version, so a Business serving several versions checks
// each Platform by the rules of the version it speaks. Safe for concurrent use.
type ProfileSchema struct {
	sch *jsonschema.Schema
	// role is whose profiles the schema checks, "platform" or "business",
	// named in its messages.
	role string
	// version is the release the tree states (info.version of its MCP
	// OpenRPC document), "" when it states none.
	version string
}

// Version is the UCP release the schema's tree states in the info.version
// of services/common/mcp.openrpc.json, or "" when the tree states none (as
// UCP's source/ layout does), so a Business can tell which version it checks.
func (s *ProfileSchema) Version() string { return s.version }

var (
	bundledOnce sync.Once
	bundled     *ProfileSchema
	bundledErr  error
)

// BundledProfileSchema is the profile schema of ucpgen's own schema tree
// (package schemas), compiled once on first use because the tree is sizeable;
// it is what a Business without its own version's schemas is checked by.
func BundledProfileSchema() (*ProfileSchema, error) {
	bundledOnce.Do(func() {
		bundled, bundledErr = CompileProfileSchema(schemas.FS)
	})
	return bundled, bundledErr
}

// refuseLoader stops the compiler from reaching outside the given tree: a
// reference to anything not registered is a build fault, never a download.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema %s is not in the UCP schema tree", url)
}

// CompileProfileSchema builds the Platform profile check of one UCP schema
// tree. fsys holds the tree's schemas/ folder at its root (as package schemas
// and UCP's source/ folder do); every JSON Schema in it is registered under
// its $id, or under https://ucp.dev/ plus its path when it has none. The
// check is schemas/profile.json#/$defs/platform_schema when the tree has it,
// else a document wrapper around schemas/ucp.json#/$defs/platform_schema.
func CompileProfileSchema(fsys fs.FS) (*ProfileSchema, error) {
	return compileProfileSchema(fsys, "platform")
}

// CompileBusinessProfileSchema builds the check of a Business profile
// (/.well-known/ucp and the leaf profiles its supported_versions names) of
// one UCP schema tree, laid out as CompileProfileSchema expects, so that a
// Platform holds what it discovers to the rules of the version the profile
// declares. The check is the tree's business_schema.
func CompileBusinessProfileSchema(fsys fs.FS) (*ProfileSchema, error) {
	return compileProfileSchema(fsys, "business")
}

// compileProfileSchema compiles the role's profile schema ("platform" or
// "business") of the tree.
func compileProfileSchema(fsys fs.FS, role string) (*ProfileSchema, error) {
	def := "#/$defs/" + role + "_schema"
	c := jsonschema.NewCompiler()
	c.UseLoader(refuseLoader{})
	ids := map[string]string{} // path -> registered $id
	err := fs.WalkDir(fsys, "schemas", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || path.Ext(p) != ".json" {
			return nil
		}
		raw, err := fs.ReadFile(fsys, p)
		if err != nil {
			return fmt.Errorf("read schema %s: %w", p, err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return fmt.Errorf("parse schema %s: %w", p, err)
		}
		obj, ok := doc.(map[string]any)
		if !ok {
			return nil
		}
		id, _ := obj["$id"].(string)
		if id == "" {
			if _, isSchema := obj["$schema"]; !isSchema {
				return nil // not a JSON Schema (e.g. an OpenRPC document)
			}
			id = ucpSchemaBase + strings.TrimPrefix(p, "schemas/")
		}
		if err := c.AddResource(id, doc); err != nil {
			return fmt.Errorf("register schema %s as %s: %w", p, id, err)
		}
		ids[p] = id
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load UCP schemas: %w", err)
	}
	root := ""
	if id, ok := ids["schemas/profile.json"]; ok {
		root = id + def
	} else if id, ok := ids["schemas/ucp.json"]; ok {
		wrapper, err := jsonschema.UnmarshalJSON(strings.NewReader(fmt.Sprintf(profileDocumentSchema, id+def)))
		if err != nil {
			return nil, fmt.Errorf("parse profile document schema: %w", err)
		}
		docURL := fmt.Sprintf(profileDocumentURL, role)
		if err := c.AddResource(docURL, wrapper); err != nil {
			return nil, fmt.Errorf("register profile document schema: %w", err)
		}
		root = docURL
	} else {
		return nil, errors.New("load UCP schemas: the tree has neither schemas/profile.json nor schemas/ucp.json")
	}
	sch, err := c.Compile(root)
	if err != nil {
		return nil, fmt.Errorf("compile %s profile schema %s: %w", role, root, err)
	}
	return &ProfileSchema{sch: sch, role: role, version: treeVersion(fsys)}, nil
}

// treeVersion reads info.version of the tree's MCP OpenRPC document.
func treeVersion(fsys fs.FS) string {
	raw, err := fs.ReadFile(fsys, "services/common/mcp.openrpc.json")
	if err != nil {
		return ""
	}
	var doc struct {
		Info struct {
			Version string `json:"version"`
		} `json:"info"`
	}
	if json.Unmarshal(raw, &doc) != nil {
		return ""
	}
	return doc.Info.Version
}

// Check reports whether raw is a profile document (of the schema's role)
// under this schema. A violation is a *rpcerr.Discovery with code profile_malformed
// naming the first few failing locations.
func (s *ProfileSchema) Check(raw []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return malformed("The "+s.role+" profile is not valid JSON: "+err.Error()+".", err)
	}
	if _, ok := doc.(map[string]any); !ok {
		return malformed("The "+s.role+" profile must be a JSON object with a ucp member.", fmt.Errorf("document is a JSON %s", jsonKind(doc)))
	}
	if err := s.sch.Validate(doc); err != nil {
		var verr *jsonschema.ValidationError
		if !errors.As(err, &verr) {
			return fmt.Errorf("validate %s profile: %w", s.role, err)
		}
		return malformed("The "+s.role+" profile does not match the UCP "+s.role+" profile schema: "+describeViolations(verr)+".", err)
	}
	return nil
}

// validateProfileDocument checks raw against the bundled platform profile
// schema.
func validateProfileDocument(raw []byte) error {
	s, err := BundledProfileSchema()
	if err != nil {
		return err
	}
	return s.Check(raw)
}

// maxReportedViolations bounds the message sent back to the Platform.
const maxReportedViolations = 3

var englishPrinter = message.NewPrinter(language.English)

// describeViolations lists the innermost schema failures as "at <pointer>:
// <reason>", in schema order.
func describeViolations(verr *jsonschema.ValidationError) string {
	var leaves []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if pn, ok := e.ErrorKind.(*kind.PropertyNames); ok {
			// The library's instance location inside propertyNames is not
			// reliable, so name the offending key itself instead.
			leaves = append(leaves, fmt.Sprintf("member name %q: %s", pn.Property, firstLeafReason(e)))
			return
		}
		if len(e.Causes) == 0 {
			loc := ""
			for _, tok := range e.InstanceLocation {
				loc += "/" + rpcerr.EscapeToken(tok)
			}
			if len(e.InstanceLocation) == 0 {
				loc = "(document root)"
			}
			leaves = append(leaves, "at "+loc+": "+e.ErrorKind.LocalizedString(englishPrinter))
			return
		}
		causes := e.Causes
		switch e.ErrorKind.(type) {
		case *kind.AnyOf, *kind.OneOf:
			causes = matchingBranches(causes)
		}
		for _, c := range causes {
			walk(c)
		}
	}
	walk(verr)
	// Sibling properties are visited in map order by the validator, so order
	// by location (stable, keeping schema order at one location) to give the
	// Platform the same message every time.
	sort.SliceStable(leaves, func(i, j int) bool { return leafLocation(leaves[i]) < leafLocation(leaves[j]) })
	leaves = dedupe(leaves)
	more := ""
	if len(leaves) > maxReportedViolations {
		more = fmt.Sprintf(" (and %d more)", len(leaves)-maxReportedViolations)
		leaves = leaves[:maxReportedViolations]
	}
	return strings.Join(leaves, "; ") + more
}

// matchingBranches drops the alternatives of an anyOf/oneOf that failed on a
// const discriminator (e.g. transport "rest" for an mcp service), because
// they only say "this was not the other kind"; the branch that matched the
// discriminator holds the real reason. When every branch failed that way, all
// are kept.
func matchingBranches(branches []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	var keep []*jsonschema.ValidationError
	for _, b := range branches {
		if !hasConstFailure(b) {
			keep = append(keep, b)
		}
	}
	if len(keep) == 0 {
		return branches
	}
	return keep
}

func hasConstFailure(e *jsonschema.ValidationError) bool {
	if _, ok := e.ErrorKind.(*kind.Const); ok {
		return true
	}
	for _, c := range e.Causes {
		if hasConstFailure(c) {
			return true
		}
	}
	return false
}

// firstLeafReason is the message of the first innermost cause of e.
func firstLeafReason(e *jsonschema.ValidationError) string {
	for len(e.Causes) > 0 {
		e = e.Causes[0]
	}
	return e.ErrorKind.LocalizedString(englishPrinter)
}

// leafLocation is the "at <pointer>" or "member name" prefix of a message.
func leafLocation(msg string) string {
	loc, _, _ := strings.Cut(msg, ": ")
	return loc
}

// dedupe drops repeated messages, keeping the first occurrence; the walk
// order follows the schema, so the result is stable.
func dedupe(msgs []string) []string {
	seen := make(map[string]bool, len(msgs))
	out := msgs[:0]
	for _, m := range msgs {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

// jsonKind names the JSON type of a decoded value for error messages.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		return "number"
	}
}
