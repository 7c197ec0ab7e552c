// Package delta says what a UCP bump brings to a generated package. A
// regenerated package can gain a capability the Business has not written,
// lose a member its code reads, or change a member from optional to
// required; none of that shows in a file list of "wrote types.go". So the
// generator records a small, stable summary of the API surface (a Surface)
// beside the package, and the next run compares it with the new one and
// prints, one line per change, what was added, what was removed and which
// changes break the Business's code.
package delta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ucpgen/ucpgen/generator/ir"
)

// ManifestName is the file, in the generated package's folder, that holds
// the package's Surface, so the next generate run can tell what changed.
const ManifestName = "ucpgen.surface.json"

// Format is the version of the manifest's layout; a reader refuses a newer
// one rather than misreading it.
const Format = 1

// Surface is the API a generated package exposes to Business code, reduced
// to names, required-ness and short type descriptions so it can be stored,
// read back and compared across UCP versions.
type Surface struct {
	// Format is the manifest layout (see Format); its JSON name also marks
	// the file as ucpgen's.
	Format int `json:"ucpgen_surface"`
	// Version is the UCP release the package was generated for, empty for
	// a tree that states none.
	Version string `json:"ucp_version"`
	// Capabilities group the methods by the UCP capability that declares
	// them, sorted by name.
	Capabilities []Capability `json:"capabilities"`
	// Methods are the OpenRPC methods (MCP tools), sorted by name.
	Methods []Method `json:"methods"`
	// REST is the service's REST binding; nil when the tree has none.
	REST *REST `json:"rest,omitempty"`
	// Types are the named types reachable from a method, sorted by name.
	Types []Type `json:"types"`
}

// Capability lists the methods one UCP capability declares, because a
// Business serves and negotiates capabilities, not single methods.
type Capability struct {
	Name    string   `json:"name"`
	Methods []string `json:"methods"`
}

// Method is one OpenRPC method as the Business's hook sees it.
type Method struct {
	Name string `json:"name"`
	// Capability is the UCP capability declaring the method ("" for none).
	Capability string  `json:"capability"`
	Params     []Param `json:"params"`
	// Result describes the result's type, "" for a method without one.
	Result string `json:"result,omitempty"`
	// Types are the named types reachable from the method's params and
	// result, sorted, so a report can say which types a new method brings.
	Types []string `json:"types"`
}

// Param is one method argument, recorded because each is an argument of
// the method's hook.
type Param struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
	Type     string `json:"type"`
}

// REST is the REST binding's operations, recorded because the package's
// REST handler serves exactly these.
type REST struct {
	// Operations are sorted by path, then HTTP method.
	Operations []Operation `json:"operations"`
}

// Operation is one REST operation and the header parameters it declares,
// the parts of the binding a REST client depends on.
type Operation struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// ID is the operationId, the name of the method the operation binds.
	ID string `json:"operation_id"`
	// Headers are in document order.
	Headers []Header `json:"headers"`
}

// Header is a header parameter of an operation, kept with its
// required-ness because a client must send the required ones.
type Header struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
}

// Type is one named Go type of the package, the unit Business code refers
// to by name.
type Type struct {
	Name string `json:"name"`
	// Kind is struct, union, map, array, string, number, integer, boolean
	// or json (arbitrary JSON kept raw).
	Kind string `json:"kind"`
	// Of describes a named map or array type ("map[string]Amenity").
	Of string `json:"of,omitempty"`
	// Members are a struct's members in schema order.
	Members []Member `json:"members,omitempty"`
	// Variants are a union's branches in schema order.
	Variants []Variant `json:"variants,omitempty"`
	// Enum are a string type's allowed values in schema order.
	Enum []string `json:"enum,omitempty"`
}

// Member is one struct member: an optional one is opt.Value[Type] in Go, a
// required one plain Type, so required-ness is part of the Go API.
type Member struct {
	// Name is the JSON member name.
	Name     string `json:"name"`
	Required bool   `json:"required"`
	// Type describes the value's Go type without the opt wrapper
	// ("string", "[]Geo", "map[string]Amenity").
	Type string `json:"type"`
}

// Variant is one branch of a union: a pointer field of the union struct,
// which Business code sets or reads by name.
type Variant struct {
	// Name is the Go field name of the branch.
	Name string `json:"name"`
	Type string `json:"type"`
}

// kindNames are the manifest names of ir.Kind values, in their order.
var kindNames = []string{"struct", "map", "array", "string", "number", "integer", "boolean", "json", "union"}

func kindName(k ir.Kind) string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind%d", int(k))
}

// describe is the short Go form of a type: its name when it has one, else
// its shape.
func describe(t *ir.Type) string {
	if t == nil {
		return "json.RawMessage"
	}
	if t.IsNamed() {
		return t.Name
	}
	return shape(t)
}

// shape describes a type by its kind, ignoring its name.
func shape(t *ir.Type) string {
	switch t.Kind {
	case ir.Array:
		return "[]" + describe(t.Elem)
	case ir.Map:
		key := "string"
		if t.Key != nil {
			key = describe(t.Key)
		}
		return "map[" + key + "]" + describe(t.Elem)
	case ir.String:
		return "string"
	case ir.Number:
		return "float64"
	case ir.Integer:
		return "int64"
	case ir.Boolean:
		return "bool"
	case ir.Struct:
		return "struct"
	case ir.Union:
		return "union"
	}
	return "json.RawMessage"
}

// FromModel summarises the model's surface. Everything is sorted or kept in
// schema order, so the same input always gives the same Surface.
func FromModel(m *ir.Model) *Surface {
	s := &Surface{Format: Format, Version: m.Version, Capabilities: []Capability{}, Methods: []Method{}, Types: []Type{}}
	all := map[string]*ir.Type{}
	caps := map[string][]string{}
	for _, t := range m.Tools {
		meth := Method{Name: t.Name, Capability: t.Capability, Params: []Param{}}
		reach := map[string]*ir.Type{}
		for _, p := range t.Params {
			meth.Params = append(meth.Params, Param{Name: p.Name, Required: p.Required, Type: describe(p.Type)})
			collect(p.Type, reach)
		}
		if t.Result != nil {
			meth.Result = describe(t.Result.Type)
			collect(t.Result.Type, reach)
		}
		meth.Types = sortedKeys(reach)
		for name, typ := range reach {
			all[name] = typ
		}
		s.Methods = append(s.Methods, meth)
		caps[t.Capability] = append(caps[t.Capability], t.Name)
	}
	slices.SortFunc(s.Methods, func(a, b Method) int { return strings.Compare(a.Name, b.Name) })
	for _, name := range sortedKeys(caps) {
		methods := slices.Clone(caps[name])
		slices.Sort(methods)
		s.Capabilities = append(s.Capabilities, Capability{Name: name, Methods: methods})
	}
	for _, name := range sortedKeys(all) {
		s.Types = append(s.Types, typeOf(all[name]))
	}
	if m.Spec != nil && m.Spec.REST != nil {
		rest := &REST{Operations: []Operation{}}
		for _, op := range m.Spec.REST.Operations {
			o := Operation{Method: op.Method, Path: op.Path, ID: op.ID, Headers: []Header{}}
			for _, h := range op.Headers {
				o.Headers = append(o.Headers, Header{Name: h.Name, Required: h.Required})
			}
			rest.Operations = append(rest.Operations, o)
		}
		slices.SortFunc(rest.Operations, func(a, b Operation) int { return strings.Compare(a.key(), b.key()) })
		s.REST = rest
	}
	return s
}

// collect adds every named type reachable from t to into, stopping at types
// already there so recursive schemas end.
func collect(t *ir.Type, into map[string]*ir.Type) {
	if t == nil {
		return
	}
	if t.IsNamed() {
		if _, seen := into[t.Name]; seen {
			return
		}
		into[t.Name] = t
	}
	for _, f := range t.Fields {
		collect(f.Type, into)
	}
	for _, v := range t.Variants {
		collect(v.Type, into)
	}
	collect(t.Key, into)
	collect(t.Elem, into)
	collect(t.Extra, into)
}

// typeOf summarises one named type.
func typeOf(t *ir.Type) Type {
	out := Type{Name: t.Name, Kind: kindName(t.Kind)}
	switch t.Kind {
	case ir.Struct:
		out.Members = []Member{}
		for _, f := range t.Fields {
			out.Members = append(out.Members, Member{Name: f.JSONName, Required: f.Required, Type: describe(f.Type)})
		}
	case ir.Union:
		for _, v := range t.Variants {
			out.Variants = append(out.Variants, Variant{Name: v.GoName, Type: describe(v.Type)})
		}
	case ir.Map, ir.Array:
		out.Of = shape(t)
	}
	out.Enum = slices.Clone(t.Enum)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// key orders and matches operations: the path, then the HTTP method.
func (o Operation) key() string { return o.Path + " " + o.Method }

// Encode renders the manifest: indented JSON ending in a newline, fields in
// declaration order and each member or header on one line, so the
// committed file stays short and diffs line by line.
func (s *Surface) Encode() ([]byte, error) {
	b, err := json.Marshal(s)
	if err == nil {
		b, err = pretty(b)
	}
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", ManifestName, err)
	}
	return b, nil
}

// IsManifest reports whether data is a manifest ucpgen wrote (its first
// member is ucpgen_surface), so a file a user keeps under the same name is
// never taken for one and removed.
func IsManifest(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	t, err := dec.Token()
	return err == nil && t == "ucpgen_surface"
}

// Decode reads a manifest written by Encode and checks it, so a hand-edited
// or foreign file is refused with the member and the reason instead of
// producing a misleading report; name is the file, for messages.
func Decode(name string, data []byte) (*Surface, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Surface
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s: not a ucpgen surface manifest: %w", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: not a ucpgen surface manifest: data after the JSON object", name)
	}
	switch {
	case s.Format == 0:
		return nil, fmt.Errorf("%s: ucpgen_surface: missing; the file is not a ucpgen surface manifest", name)
	case s.Format > Format:
		return nil, fmt.Errorf("%s: ucpgen_surface: format %d is newer than this ucpgen reads (%d); use the ucpgen that wrote it", name, s.Format, Format)
	case s.Format < 0:
		return nil, fmt.Errorf("%s: ucpgen_surface: format %d is not a manifest format", name, s.Format)
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &s, nil
}

// check requires every name Compare matches on to be present and unique.
func (s *Surface) check() error {
	seen := map[string]bool{}
	// unique refuses a repeated name within scope, and an empty one unless
	// it may be empty; field is the member's path, for the message.
	unique := func(field, scope, name string, mayBeEmpty bool) error {
		if name == "" && !mayBeEmpty {
			return fmt.Errorf("%s: empty name", field)
		}
		if seen[scope+"\x00"+name] {
			return fmt.Errorf("%s: %q is listed twice", field, name)
		}
		seen[scope+"\x00"+name] = true
		return nil
	}
	for i, c := range s.Capabilities {
		// The methods no capability declares are grouped under "".
		if err := unique(fmt.Sprintf("capabilities/%d/name", i), "capability", c.Name, true); err != nil {
			return err
		}
	}
	for i, m := range s.Methods {
		if err := unique(fmt.Sprintf("methods/%d/name", i), "method", m.Name, false); err != nil {
			return err
		}
		for j, p := range m.Params {
			if err := unique(fmt.Sprintf("methods/%d/params/%d/name", i, j), "param "+m.Name, p.Name, false); err != nil {
				return err
			}
		}
	}
	if s.REST != nil {
		for i, o := range s.REST.Operations {
			field := fmt.Sprintf("rest/operations/%d", i)
			if o.Method == "" || o.Path == "" {
				return fmt.Errorf("%s: method and path are required", field)
			}
			if err := unique(field, "operation", o.Method+" "+o.Path, false); err != nil {
				return err
			}
			for j, h := range o.Headers {
				// HTTP header names are case-insensitive.
				if err := unique(fmt.Sprintf("%s/headers/%d/name", field, j), "header "+o.key(), strings.ToLower(h.Name), false); err != nil {
					return err
				}
			}
		}
	}
	for i, t := range s.Types {
		field := fmt.Sprintf("types/%d", i)
		if err := unique(field+"/name", "type", t.Name, false); err != nil {
			return err
		}
		if !slices.Contains(kindNames, t.Kind) {
			return fmt.Errorf("%s/kind: %q is not one of %s", field, t.Kind, strings.Join(kindNames, ", "))
		}
		for j, m := range t.Members {
			if err := unique(fmt.Sprintf("%s/members/%d/name", field, j), "member "+t.Name, m.Name, true); err != nil {
				return err
			}
		}
		for j, v := range t.Variants {
			if err := unique(fmt.Sprintf("%s/variants/%d/name", field, j), "variant "+t.Name, v.Name, false); err != nil {
				return err
			}
		}
		for j, e := range t.Enum {
			// An empty string is a valid enum value; only repeats are refused.
			if err := unique(fmt.Sprintf("%s/enum/%d", field, j), "enum "+t.Name, e, true); err != nil {
				return err
			}
		}
	}
	return nil
}
