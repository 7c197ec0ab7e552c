// Package ir is ucpgen's intermediate model: named Go types, fields and MCP
// tools derived from a loaded OpenRPC spec, with every allOf merged and the
// UCP direction annotations applied. Emitters read only this model (plus the
// source schemas it points at for constraints), never raw JSON.
package ir

import "github.com/ucpgen/ucpgen/generator/load"

// Direction says which way a payload travels; UCP's ucp_request and
// ucp_response annotations make the same schema differ between the two.
type Direction int

// Payload directions.
const (
	Request Direction = iota
	Response
)

func (d Direction) String() string {
	if d == Request {
		return "request"
	}
	return "response"
}

// Kind is the Go shape of a type.
type Kind int

// Type kinds.
const (
	Struct Kind = iota
	Map
	Array
	String
	Number
	Integer
	Boolean
	Any // arbitrary JSON, kept raw
	Union
)

// Model is everything the emitters need for one OpenRPC service.
type Model struct {
	Title       string
	Description string
	// Version is the UCP release the input describes (the OpenRPC
	// info.version), or empty for an input that names none.
	Version string
	Types   []*Type // named types, sorted by Name
	Tools   []*Tool // in OpenRPC method order
	// Spec is the loaded input, for emitters that bundle source schemas.
	Spec *load.Spec
}

// Tool is one OpenRPC method, served as an MCP tool.
type Tool struct {
	Name        string
	Summary     string
	Description string
	// Op is the UCP operation name used by per-operation annotations (e.g.
	// "search" for search_locations).
	Op string
	// Capability is the UCP capability name declared by the schema document
	// of the tool's domain parameter (its "name" keyword), or, when no param
	// declares one (get_checkout takes meta and an id), by the result's
	// document or the one document its oneOf branches name.
	Capability string
	// CapabilityFile is the schema document that declares Capability.
	CapabilityFile string
	Params         []*Param
	Result         *Param
}

// Param is a tool argument or result.
type Param struct {
	Name     string
	Required bool
	Type     *Type
	Schema   *load.Schema
}

// Type is a Go type to emit (Name set) or an anonymous composite.
type Type struct {
	Name      string
	Doc       string
	Kind      Kind
	Direction Direction
	// Sources are the schemas merged into this type, outermost first; the
	// validator emitter compiles their assertions.
	Sources []*load.Schema
	// Loc is where the type was first found, for messages.
	Loc load.Loc

	// Struct
	Fields []*Field
	// KeepUnknown is true when additionalProperties allows any member, so the
	// type must carry unknown members through decode and encode.
	KeepUnknown bool
	// Closed is true when additionalProperties is false.
	Closed bool
	// Extra types the values of members not listed in Fields when
	// additionalProperties is a schema (Map kind uses Elem instead).
	Extra *Type

	// Map and Array
	Key  *Type // map key type (a named string type or nil for string)
	Elem *Type

	// Scalars
	Enum   []string // string enums become typed constants
	Const  *load.Node
	Format string

	// Union
	Variants      []*Variant
	Discriminator string // member holding a const tag, when every variant has one
	ExactlyOne    bool   // oneOf (true) or anyOf (false)
}

// Field is one struct member.
type Field struct {
	JSONName string
	GoName   string
	Type     *Type
	Required bool
	Doc      string
	// Schemas are the property subschemas contributing to this field, in
	// merge order, including $ref siblings such as {"$ref": "#", "minProperties": 1}.
	Schemas []*load.Schema
}

// Variant is one branch of a union.
type Variant struct {
	GoName string
	Type   *Type
	Tag    string // discriminator value, when the union has one
}

// IsNamed reports whether the type is emitted as its own declaration.
func (t *Type) IsNamed() bool { return t != nil && t.Name != "" }
