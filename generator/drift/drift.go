// Package drift compares what ucpgen's runtime interprets with what the
// loaded schemas allow: the enum values it branches on, and the members of
// each type it evaluates (filters, serves, distance, the hours filter, geo,
// locality and the schedule entries). UCP counts a new enum value or a new
// optional member as a compatible change, so a release can add a weekday
// or an `accessible` filter that regenerates cleanly while the runtime,
// which knows only the old ones, would treat data carrying it as unusable
// or refuse requests using it. Each such value or member becomes a warning
// naming the schema location and the runtime package; the CLI's --strict
// turns it into an error.
package drift

import (
	"fmt"
	"slices"

	"github.com/ucpgen/ucpgen/generator/load"
	"github.com/ucpgen/ucpgen/runtime/domain/hours"
	"github.com/ucpgen/ucpgen/runtime/domain/predicate"
	"github.com/ucpgen/ucpgen/runtime/envelope"
)

// Declaration ties a runtime package's list of interpreted values, or of
// the members one of its types reads, to the schema location that
// declares them.
type Declaration struct {
	// Package is the runtime package's import path and Name the list's or
	// type's qualified identifier, both named in warnings so the reader
	// knows what to extend.
	Package, Name string
	// Values are the values (or, with Members, the member names) the
	// runtime interprets.
	Values []string
	// File and Pointer locate the schema (slash path in the tree, JSON
	// Pointer in the file); the enumeration is found below it through
	// $ref, allOf, anyOf and oneOf.
	File, Pointer string
	// Property names the member whose values are enumerated; "" with
	// PropertyNames set reads the schema's propertyNames instead.
	Property      string
	PropertyNames bool
	// Members makes Values the names of the members the runtime reads
	// from the object schema at File#Pointer (through $ref, allOf, anyOf
	// and oneOf), and every other member the schema declares a drift.
	// Inert lists members the runtime knowingly leaves unread because the
	// schema makes them presentation only; they are no drift. Effect says
	// what happens to a member the runtime does not read, for the warning.
	Members bool
	Inert   []string
	Effect  string
}

const runtimePath = "github.com/ucpgen/ucpgen/runtime/"

// Effects of a member the runtime does not read, by where it is used.
const (
	refusedRequest = "a request using it is refused as unsupported (-32602 at its pointer)"
	notRead        = "a Location's value of it is not read when the runtime evaluates that Location"
)

// Declarations are the runtime's interpreted values and members and where
// UCP's schemas declare them. A runtime package that starts branching on
// another enumerated value, or reading another member, adds it here; the
// member lists are the members generator/emit/binding.go maps onto the
// runtime's types, and a member it does not map refuses the request.
func Declarations() []Declaration {
	pred, hrs := runtimePath+"domain/predicate", runtimePath+"domain/hours"
	return []Declaration{
		{Package: pred, Name: "predicate.Filters", Values: []string{"hours", "amenities", "items"},
			File: "schemas/common/types/location_filter.json", Members: true,
			Effect: "a request using it is refused as an unsupported filter (-32602 at its pointer) unless the Business registers an extension filter for it (SourceCapabilities.Filters, predicate.Engine.ExtensionFilters)"},
		{Package: pred, Name: "predicate.Filters.OpenAt", Values: []string{"open_at"},
			File: "schemas/common/types/location_filter.json", Pointer: "/properties/hours", Members: true, Effect: refusedRequest},
		{Package: pred, Name: "predicate.ServesKinds", Values: predicate.ServesKinds,
			File: "schemas/common/types/location_serves.json", Members: true,
			Effect: "a request using it is refused (-32602 at its pointer) unless the Business accepts it as a serves extension key"},
		{Package: pred, Name: "predicate.Locality", Values: []string{"address_country", "address_region", "postal_code"},
			File: "schemas/common/types/location_serves.json", Pointer: "/properties/address", Members: true, Effect: refusedRequest},
		{Package: pred, Name: "predicate.Distance", Values: []string{"center", "max"},
			File: "schemas/common/types/location_distance.json", Members: true, Effect: refusedRequest},
		{Package: pred, Name: "predicate.Geo", Values: []string{"latitude", "longitude"},
			File: "schemas/common/types/geo.json", Members: true, Effect: refusedRequest + ", and " + notRead},
		{Package: hrs, Name: "hours.Interval", Values: []string{"day", "opens", "closes"},
			File: "schemas/common/types/daily_hour.json", Members: true, Effect: notRead},
		{Package: hrs, Name: "hours.Exception", Values: []string{"valid_from", "valid_through", "opens", "closes"}, Inert: []string{"title"},
			File: "schemas/common/types/exception_hour.json", Members: true, Effect: notRead},

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
		if d.Members {
			for _, m := range members(root) {
				if slices.Contains(d.Values, m.value) || slices.Contains(d.Inert, m.value) {
					continue
				}
				out = append(out, load.Warning{Loc: m.loc, Msg: fmt.Sprintf(
					"member %q is not interpreted by the runtime package %s (%s reads %q); %s, so extend %s and ucpgen's binding before serving it",
					m.value, d.Package, d.Name, d.Values, d.Effect, d.Name)})
			}
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

// members collects the names of the properties declared below root, in
// source order, each once at the first place it is declared.
func members(root *load.Schema) []value {
	var out []value
	seen := map[string]bool{}
	for _, shape := range alternatives(root) {
		for _, p := range shape.Properties {
			if !seen[p.Name] {
				seen[p.Name] = true
				out = append(out, value{p.Name, p.Schema.Loc})
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

// ServedFrom keeps the declarations that apply to a package generated to
// serve its version from a newer one (--serve-from). Its requests reach
// the runtime only after the generated conversion maps them onto the newer
// package's types, whose members are checked when that package is
// generated, and a member that changed shape is a Conversion method the
// Business writes; so the member declarations are dropped (the 2026-08-21
// filters' inventory is such a member) and the enum values kept.
func ServedFrom(decls []Declaration) []Declaration {
	var out []Declaration
	for _, d := range decls {
		if !d.Members {
			out = append(out, d)
		}
	}
	return out
}
