// Package drift compares the enum values that ucpgen's runtime interprets
// with the values the loaded schemas allow. UCP counts a new enum value as a
// compatible change, so a release can add a weekday or a serves kind that
// regenerates cleanly while the runtime, which branches on the old values,
// would quietly treat data carrying it as unusable. Each such value becomes
// a warning naming the schema location and the runtime package; the CLI's
// --strict turns it into an error.
package drift

import (
	"fmt"
	"slices"

	"github.com/ucpgen/ucpgen/generator/load"
	"github.com/ucpgen/ucpgen/runtime/domain/hours"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/envelope"
)

// Declaration ties a runtime package's list of interpreted values to the
// schema location that enumerates them.
type Declaration struct {
	// Package is the runtime package's import path and Name the list's
	// qualified identifier, both named in warnings so the reader knows what
	// to extend.
	Package, Name string
	// Values are the values the runtime interprets.
	Values []string
	// File and Pointer locate the schema (slash path in the tree, JSON
	// Pointer in the file); the enumeration is found below it through
	// $ref, allOf, anyOf and oneOf.
	File, Pointer string
	// Property names the member whose values are enumerated; "" with
	// PropertyNames set reads the schema's propertyNames instead.
	Property      string
	PropertyNames bool
}

const runtimePath = "github.com/ucpgen/ucpgen/runtime/"

// Declarations are the runtime's interpreted values and where UCP's
// schemas enumerate them. A runtime package that starts branching on
// another enumerated value adds its list here.
func Declarations() []Declaration {
	return []Declaration{
		{Package: runtimePath + "domain/hours", Name: "hours.Weekdays", Values: hours.Weekdays[:],
			File: "schemas/common/types/daily_hour.json", Property: "day"},
		{Package: runtimePath + "domain/predicate", Name: "predicate.ServesKinds", Values: predicate.ServesKinds,
			File: "schemas/common/types/location_serves.json", PropertyNames: true},
		{Package: runtimePath + "envelope", Name: "envelope.MessageTypes", Values: envelope.MessageTypes,
			File: "schemas/common/types/message.json", Property: "type"},
		{Package: runtimePath + "envelope", Name: "envelope.Statuses", Values: envelope.Statuses,
			File: "schemas/ucp.json", Pointer: "/$defs/base", Property: "status"},
	}
}

// Check returns a warning for every value that the schemas of spec allow
// at a declared location and the runtime does not interpret. Declarations
// whose file the spec never loaded are skipped, since that tree does not
// describe the capability the runtime serves.
func Check(spec *load.Spec, decls []Declaration) []load.Warning {
	var out []load.Warning
	for _, d := range decls {
		if !spec.Set.Loaded(d.File) {
			continue
		}
		// Only schemas the loader parsed count: a location no method
		// reaches shapes nothing that is generated or served.
		root := spec.Set.SchemaAt(load.Loc{File: d.File, Pointer: d.Pointer})
		if root == nil {
			continue
		}
		for _, v := range enumerated(root, d) {
			if slices.Contains(d.Values, v.value) {
				continue
			}
			out = append(out, load.Warning{Loc: v.loc, Msg: fmt.Sprintf(
				"value %q is not interpreted by the runtime package %s (%s lists %q); data carrying it is refused at load or fails the request, so extend %s before serving it",
				v.value, d.Package, d.Name, d.Values, d.Name)})
		}
	}
	return out
}

type value struct {
	value string
	loc   load.Loc
}

// enumerated collects the string enum and const values of d's member (or
// property names) below root.
func enumerated(root *load.Schema, d Declaration) []value {
	var out []value
	seen := map[load.Loc]bool{}
	for _, shape := range alternatives(root) {
		var target *load.Schema
		if d.PropertyNames {
			target = shape.PropertyNames
		} else {
			target = shape.Property(d.Property)
		}
		for _, s := range alternatives(target) {
			for _, e := range s.Enum {
				if e.Kind == load.String && !seen[e.Loc] {
					seen[e.Loc] = true
					out = append(out, value{e.Str, e.Loc})
				}
			}
			if c := s.Const; c != nil && c.Kind == load.String && !seen[c.Loc] {
				seen[c.Loc] = true
				out = append(out, value{c.Str, c.Loc})
			}
		}
	}
	return out
}

// alternatives is s with every schema it reaches through $ref, allOf,
// anyOf and oneOf, in source order, each once.
func alternatives(s *load.Schema) []*load.Schema {
	var out []*load.Schema
	seen := map[*load.Schema]bool{}
	var walk func(*load.Schema)
	walk = func(s *load.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		out = append(out, s)
		walk(s.Ref)
		for _, list := range [][]*load.Schema{s.AllOf, s.AnyOf, s.OneOf} {
			for _, sub := range list {
				walk(sub)
			}
		}
	}
	walk(s)
	return out
}
