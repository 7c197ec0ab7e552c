package emit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

// This file emits binding.go: the conversion from the generated request and
// Location types to the runtime predicate engine, so that a service never
// writes it by hand. It is emitted only for the operations of the Location
// capability (see LocationCapabilities). Within them it is driven by JSON
// member names and kinds found in the model, so a spec revision that renames
// or drops a member still generates compiling code: a filter it does not
// know becomes a raw extension filter (refused by the engine unless the
// Business registered a handler for it), a member of another evaluated
// operand (the hours filter, distance, geo, serves.address) that it does
// not map refuses the request that sets it, and a known member whose shape
// changed stops generation with an error. No member is silently dropped.

const (
	bindPredicatePkg = "github.com/ucpgen/ucpgen/runtime/domain/predicate"
	bindHoursPkg     = "github.com/ucpgen/ucpgen/runtime/domain/hours"
	bindRPCErrPkg    = "github.com/ucpgen/ucpgen/runtime/rpcerr"
	bindFmtPkg       = "fmt"
	bindSlicesPkg    = "slices"
	bindMapsPkg      = "maps"
)

// binder collects the declarations of binding.go, emitting each helper once
// even when several request types share it.
type binder struct {
	decls []jen.Code
	done  map[string]bool
	// argPrefix is the JSON Pointer of the domain request inside the tool
	// call's arguments, e.g. "/location".
	argPrefix string
}

// emitBinding writes PredicateQuery for every tool parameter that carries
// distance, serves or filters, and PredicateCandidate for every Location
// type a tool returns.
func emitBinding(f *jen.File, m *ir.Model) error {
	b := &binder{done: map[string]bool{}}
	for _, tool := range m.Tools {
		if !isLocationTool(tool) {
			continue
		}
		for _, p := range tool.Params {
			if !isRequestWithConstraints(p.Type) || b.done["query:"+p.Type.Name] {
				continue
			}
			b.done["query:"+p.Type.Name] = true
			b.argPrefix = "/" + bindPointerToken(p.Name)
			if err := b.query(p.Type); err != nil {
				return fmt.Errorf("tool %s param %s: %w", tool.Name, p.Name, err)
			}
		}
	}
	for _, tool := range m.Tools {
		if tool.Result == nil || !isLocationTool(tool) {
			continue
		}
		loc := locationElem(tool.Result.Type)
		if loc == nil || b.done["candidate:"+loc.Name] {
			continue
		}
		b.done["candidate:"+loc.Name] = true
		if err := b.candidate(loc); err != nil {
			return fmt.Errorf("tool %s result: %w", tool.Name, err)
		}
	}
	if len(b.decls) == 0 {
		return errSkipFile
	}
	for _, d := range b.decls {
		f.Add(d)
	}
	return nil
}

// LocationCapabilities are the UCP capabilities whose operations get the
// Location-only code: PredicateQuery and PredicateCandidate here, and
// NewService, Source and the conversions in service.go. A tool belongs to
// one when the schema document of its domain argument declares the
// capability in its "name" keyword, as location_search.json and
// location_lookup.json do; member names (distance, serves, locations)
// decide nothing, since other capabilities use them too.
var LocationCapabilities = []string{"dev.ucp.common.location.search", "dev.ucp.common.location.lookup"}

// isLocationTool reports whether a tool is an operation of the Location
// capability.
func isLocationTool(t *ir.Tool) bool { return slices.Contains(LocationCapabilities, t.Capability) }

// fieldNamed returns the struct member with the given JSON name, or nil.
func fieldNamed(t *ir.Type, jsonName string) *ir.Field {
	if t == nil || t.Kind != ir.Struct {
		return nil
	}
	for _, f := range t.Fields {
		if f.JSONName == jsonName {
			return f
		}
	}
	return nil
}

func isRequestWithConstraints(t *ir.Type) bool {
	if !t.IsNamed() || t.Kind != ir.Struct {
		return false
	}
	return fieldNamed(t, "distance") != nil || fieldNamed(t, "serves") != nil || fieldNamed(t, "filters") != nil
}

// locationElem returns the element type of a result's "locations" array
// when it is a named struct with an id.
func locationElem(t *ir.Type) *ir.Type {
	f := fieldNamed(t, "locations")
	if f == nil || f.Type.Kind != ir.Array || f.Type.Elem == nil {
		return nil
	}
	e := f.Type.Elem
	if !e.IsNamed() || e.Kind != ir.Struct || !isPlainString(fieldNamed(e, "id")) {
		return nil
	}
	return e
}

// isPlainString reports whether f is a string member (named string types
// included), the only kind a string conversion can read.
func isPlainString(f *ir.Field) bool {
	return f != nil && f.Type.Kind == ir.String
}

// withField runs body with v bound to the member's value when it is
// present: optional members are unwrapped with Get, required ones are
// always present.
func withField(recv string, f *ir.Field, v string, body ...jen.Code) jen.Code {
	if f.Required {
		return jen.Block(append([]jen.Code{jen.Id(v).Op(":=").Id(recv).Dot(f.GoName)}, body...)...)
	}
	return jen.If(jen.List(jen.Id(v), jen.Id("ok")).Op(":=").Id(recv).Dot(f.GoName).Dot("Get").Call(), jen.Id("ok")).Block(body...)
}

// stringOf is the plain string value of a string member; an absent
// optional member reads as "".
func stringOf(recv string, f *ir.Field) jen.Code {
	e := jen.Id(recv).Dot(f.GoName)
	if !f.Required {
		e = e.Dot("V")
	}
	if f.Type.IsNamed() {
		return jen.String().Call(e)
	}
	return e
}

// stringPtrOf is a *string for a string member of the value recv points
// at, pointing into it: nil when an optional member is absent.
func stringPtrOf(recv string, f *ir.Field) (jen.Code, error) {
	if f.Type.IsNamed() {
		return nil, fmt.Errorf("member %q: a named string type cannot be passed as *string", f.JSONName)
	}
	if f.Required {
		return jen.Op("&").Id(recv).Dot(f.GoName), nil
	}
	return jen.Id(recv).Dot(f.GoName).Dot("Ref").Call(), nil
}

// errReturn is `if err != nil { return zero, err }`.
func errReturn(zero jen.Code) jen.Code {
	return jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(zero, jen.Err()))
}

// marshalRaw binds raw to the JSON of v, wrapping an encoding error with the
// member's name.
func marshalRaw(v jen.Code, what string, zero jen.Code) []jen.Code {
	return []jen.Code{
		jen.List(jen.Id("raw"), jen.Err()).Op(":=").Qual(jsonPkg, "Marshal").Call(v),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(zero, jen.Qual(bindFmtPkg, "Errorf").Call(jen.Lit("encode "+what+": %w"), jen.Err()))),
	}
}

// query emits PredicateQuery on a request type.
func (b *binder) query(t *ir.Type) error {
	zero := jen.Qual(bindPredicatePkg, "Query").Values()
	var body []jen.Code
	body = append(body, jen.Var().Id("q").Qual(bindPredicatePkg, "Query"))
	if f := fieldNamed(t, "distance"); f != nil {
		fn, err := b.distance(f.Type)
		if err != nil {
			return err
		}
		body = append(body, withField("r", f, "v",
			jen.List(jen.Id("d"), jen.Err()).Op(":=").Id(fn).Call(jen.Id("v")),
			errReturn(zero),
			jen.Id("q").Dot("Distance").Op("=").Id("d"),
		))
	}
	if f := fieldNamed(t, "serves"); f != nil {
		fn, err := b.serves(f.Type)
		if err != nil {
			return err
		}
		body = append(body, withField("r", f, "v",
			jen.List(jen.Id("t"), jen.Err()).Op(":=").Id(fn).Call(jen.Id("v")),
			errReturn(zero),
			jen.Id("q").Dot("Serves").Op("=").Id("t"),
		))
	}
	if f := fieldNamed(t, "filters"); f != nil {
		fn, err := b.filters(f.Type)
		if err != nil {
			return err
		}
		body = append(body, withField("r", f, "v",
			jen.List(jen.Id("pf"), jen.Err()).Op(":=").Id(fn).Call(jen.Id("v")),
			errReturn(zero),
			jen.Id("q").Dot("Filters").Op("=").Id("pf"),
		))
	}
	// A number beyond float64 decodes to ±Inf; it is refused here, at its
	// pointer, before any caller reads or digests the query.
	body = append(body,
		jen.If(jen.Err().Op(":=").Id("q").Dot("CheckNumbers").Call(), jen.Err().Op("!=").Nil()).Block(
			jen.If(jen.List(jen.Id("ip"), jen.Id("ok")).Op(":=").Qual(bindRPCErrPkg, "AsInvalidParams").Call(jen.Err()), jen.Id("ok")).Block(
				jen.Return(zero, jen.Id("ip").Dot("Prefix").Call(jen.Lit(b.argPrefix))),
			),
			jen.Return(zero, jen.Err()),
		),
		jen.Return(jen.Id("q"), jen.Nil()))
	b.decls = append(b.decls, jen.Add(lineComments(fmt.Sprintf("PredicateQuery converts the structured constraints of a %s (distance, serves\n"+
		"and filters) into a predicate.Query, so services evaluate them with the\n"+
		"runtime engine instead of hand-written conversions. Free text, context and\n"+
		"signals are left out on purpose: they are never a constraint operand.\n"+
		"A malformed operand, a member of an operand the engine does not read\n"+
		"(declared or not) and a number that is not finite are each an\n"+
		"*rpcerr.InvalidParams naming the member.", t.Name))).Line().Func().Params(jen.Id("r").Op("*").Id(t.Name)).Id("PredicateQuery").Params().
		Params(jen.Qual(bindPredicatePkg, "Query"), jen.Error()).Block(body...),
	)
	return nil
}

// geo emits the Geo conversion and returns its function name.
func (b *binder) geo(t *ir.Type) (string, error) {
	lat, lon := fieldNamed(t, "latitude"), fieldNamed(t, "longitude")
	if !t.IsNamed() || lat == nil || lon == nil || !lat.Required || !lon.Required ||
		lat.Type.Kind != ir.Number || lon.Type.Kind != ir.Number {
		return "", fmt.Errorf("geo type %q: want a named struct with required number members latitude and longitude", t.Name)
	}
	fn := "predicate" + t.Name
	if b.done[fn] {
		return fn, nil
	}
	b.done[fn] = true
	b.decls = append(b.decls, jen.Add(jen.Commentf("%s reads a %s as the engine's WGS 84 point.", fn, t.Name)).Line().Func().Id(fn).Params(jen.Id("g").Id(t.Name)).Qual(bindPredicatePkg, "Geo").Block(
		jen.Return(jen.Qual(bindPredicatePkg, "Geo").Values(jen.Dict{
			jen.Id("Lat"): jen.Id("g").Dot(lat.GoName),
			jen.Id("Lon"): jen.Id("g").Dot(lon.GoName),
		})),
	),
	)
	return fn, nil
}

// distance emits the distance relation conversion.
func (b *binder) distance(t *ir.Type) (string, error) {
	center, max := fieldNamed(t, "center"), fieldNamed(t, "max")
	if !t.IsNamed() || center == nil || max == nil || !center.Required || !max.Required || max.Type.Kind != ir.Number {
		return "", fmt.Errorf("distance type %q: want a named struct with required members center (Geo) and max (number)", t.Name)
	}
	geoFn, err := b.geo(center.Type)
	if err != nil {
		return "", fmt.Errorf("distance.center: %w", err)
	}
	fn := "predicate" + t.Name
	if b.done[fn] {
		return fn, nil
	}
	b.done[fn] = true
	ptr := b.argPrefix + "/distance"
	checks, err := refuseUnmapped(t, func() *jen.Statement { return jen.Id("d") }, ptr, "distance", jen.Nil(), "center", "max")
	if err != nil {
		return "", err
	}
	geoChecks, err := refuseUnmapped(center.Type, func() *jen.Statement { return jen.Id("d").Dot(center.GoName) }, ptr+"/center", "distance.center", jen.Nil(), geoMembers...)
	if err != nil {
		return "", err
	}
	body := append(append(checks, geoChecks...),
		jen.Return(jen.Op("&").Qual(bindPredicatePkg, "Distance").Values(jen.Dict{
			jen.Id("Center"): jen.Id(geoFn).Call(jen.Id("d").Dot(center.GoName)),
			jen.Id("Max"):    jen.Id("d").Dot(max.GoName),
		}), jen.Nil()))
	b.decls = append(b.decls, jen.Add(jen.Commentf("%s reads the distance relation exactly as sent (no clamping of max), refusing a member of it or of its center that the engine does not read.", fn)).Line().
		Func().Id(fn).Params(jen.Id("d").Id(t.Name)).Params(jen.Op("*").Qual(bindPredicatePkg, "Distance"), jen.Error()).Block(body...),
	)
	return fn, nil
}

// serves emits the one-entry serves map conversion: point and address get
// typed operands, every other key (schema-declared or unknown) is passed by
// key with its raw JSON, and a map without exactly one entry is rejected.
func (b *binder) serves(t *ir.Type) (string, error) {
	if !t.IsNamed() || t.Kind != ir.Struct {
		return "", fmt.Errorf("serves type %q: want a named struct", t.Name)
	}
	fn := "predicate" + t.Name
	if b.done[fn] {
		return fn, nil
	}
	b.done[fn] = true
	ptr := b.argPrefix + "/serves"
	zero := jen.Nil()
	body := []jen.Code{
		jen.Var().Id("t").Qual(bindPredicatePkg, "Target"),
		jen.Var().Id("keys").Index().String(),
	}
	for _, f := range t.Fields {
		what := "serves." + f.JSONName
		inner := marshalRaw(jen.Id("v"), what, zero)
		inner = append(inner, jen.Id("keys").Op("=").Append(jen.Id("keys"), jen.Lit(f.JSONName)))
		dict := jen.Dict{jen.Id("Key"): jen.Lit(f.JSONName), jen.Id("Raw"): jen.Id("raw")}
		switch f.JSONName {
		case "point":
			geoFn, err := b.geo(f.Type)
			if err != nil {
				return "", fmt.Errorf("serves.point: %w", err)
			}
			checks, err := refuseUnmapped(f.Type, func() *jen.Statement { return jen.Id("v") }, ptr+"/point", "serves.point", zero, geoMembers...)
			if err != nil {
				return "", err
			}
			inner = append(checks, inner...)
			inner = append(inner, jen.Id("g").Op(":=").Id(geoFn).Call(jen.Id("v")))
			dict[jen.Id("Point")] = jen.Op("&").Id("g")
		case "address":
			checks, err := refuseUnmapped(f.Type, func() *jen.Statement { return jen.Id("v") }, ptr+"/address", "serves.address", zero, localityMembers...)
			if err != nil {
				return "", err
			}
			inner = append(checks, inner...)
			loc := jen.Dict{}
			for member, goField := range map[string]string{"address_country": "Country", "address_region": "Region", "postal_code": "PostalCode"} {
				if af := fieldNamed(f.Type, member); af != nil {
					if !isPlainString(af) {
						return "", fmt.Errorf("serves.address.%s: want a string member", member)
					}
					loc[jen.Id(goField)] = stringOf("v", af)
				}
			}
			if len(loc) == 0 {
				return "", fmt.Errorf("serves.address: type %q has none of address_country, address_region, postal_code", f.Type.Name)
			}
			dict[jen.Id("Address")] = jen.Op("&").Qual(bindPredicatePkg, "Locality").Values(loc)
		}
		inner = append(inner, jen.Id("t").Op("=").Qual(bindPredicatePkg, "Target").Values(dict))
		body = append(body, withField("s", f, "v", inner...))
	}
	if t.KeepUnknown || t.Extra != nil {
		raw := jen.Id("s").Dot("Unknown").Index(jen.Id("k"))
		loop := []jen.Code{jen.Id("keys").Op("=").Append(jen.Id("keys"), jen.Id("k"))}
		if t.Extra != nil {
			loop = append(loop, marshalRaw(raw, "serves extension", zero)...)
			raw = jen.Id("raw")
		}
		loop = append(loop, jen.Id("t").Op("=").Qual(bindPredicatePkg, "Target").Values(jen.Dict{jen.Id("Key"): jen.Id("k"), jen.Id("Raw"): raw}))
		body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(sortedUnknown("s"))).Block(loop...))
	}
	body = append(body,
		jen.If(jen.Len(jen.Id("keys")).Op("!=").Lit(1)).Block(
			jen.Id("keyword").Op(":=").Lit("maxProperties"),
			jen.If(jen.Len(jen.Id("keys")).Op("==").Lit(0)).Block(jen.Id("keyword").Op("=").Lit("minProperties")),
			jen.Return(jen.Nil(), jen.Qual(bindRPCErrPkg, "Invalid").Call(jen.Lit(ptr), jen.Id("keyword"),
				jen.Lit("serves must have exactly one key (point, address or a negotiated extension key), got %d: %q"),
				jen.Len(jen.Id("keys")), jen.Id("keys"))),
		),
		jen.Return(jen.Op("&").Id("t"), jen.Nil()),
	)
	b.decls = append(b.decls, jen.Add(jen.Commentf("%s reads the one-entry serves map, keeping the operand's JSON as supplied.", fn)).Line().Func().Id(fn).Params(jen.Id("s").Id(t.Name)).Params(jen.Op("*").Qual(bindPredicatePkg, "Target"), jen.Error()).Block(body...))
	return fn, nil
}

// filters emits the filters conversion: hours.open_at, amenities and items
// get typed operands; every other member becomes a raw extension filter so
// the engine rejects it unless the Business registered a handler.
func (b *binder) filters(t *ir.Type) (string, error) {
	if !t.IsNamed() || t.Kind != ir.Struct {
		return "", fmt.Errorf("filters type %q: want a named struct", t.Name)
	}
	fn := "predicate" + t.Name
	if b.done[fn] {
		return fn, nil
	}
	b.done[fn] = true
	zero := jen.Qual(bindPredicatePkg, "Filters").Values()
	body := []jen.Code{jen.Var().Id("out").Qual(bindPredicatePkg, "Filters")}
	appendExt := func(key, raw jen.Code) jen.Code {
		return jen.Id("out").Dot("Extensions").Op("=").Append(jen.Id("out").Dot("Extensions"),
			jen.Qual(bindPredicatePkg, "Extension").Values(jen.Dict{jen.Id("Key"): key, jen.Id("Raw"): raw}))
	}
	for _, f := range t.Fields {
		switch {
		case f.JSONName == "hours" && fieldNamed(f.Type, "open_at") != nil:
			inner, err := b.hoursFilter(f.Type, zero)
			if err != nil {
				return "", err
			}
			body = append(body, withField("f", f, "v", inner...))
		case (f.JSONName == "amenities" || f.JSONName == "items") && f.Type.Kind == ir.Array && f.Type.Elem.Kind == ir.String:
			dst, has := "Amenities", "HasAmenities"
			if f.JSONName == "items" {
				dst, has = "Items", "HasItems"
			}
			elem := jen.Id("e")
			if f.Type.Elem.IsNamed() {
				elem = jen.String().Call(jen.Id("e"))
			}
			body = append(body, withField("f", f, "v",
				jen.Id("out").Dot(has).Op("=").True(),
				jen.Id("out").Dot(dst).Op("=").Make(jen.Index().String(), jen.Lit(0), jen.Len(jen.Id("v"))),
				jen.For(jen.List(jen.Id("_"), jen.Id("e")).Op(":=").Range().Id("v")).Block(
					jen.Id("out").Dot(dst).Op("=").Append(jen.Id("out").Dot(dst), elem),
				),
			))
		default:
			inner := marshalRaw(jen.Id("v"), "filters."+f.JSONName, zero)
			inner = append(inner, appendExt(jen.Lit(f.JSONName), jen.Id("raw")))
			body = append(body, withField("f", f, "v", inner...))
		}
	}
	if t.KeepUnknown || t.Extra != nil {
		raw := jen.Id("f").Dot("Unknown").Index(jen.Id("k"))
		var loop []jen.Code
		if t.Extra != nil {
			loop = append(loop, marshalRaw(raw, "filter extension", zero)...)
			raw = jen.Id("raw")
		}
		loop = append(loop, appendExt(jen.Id("k"), raw))
		body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(sortedUnknown("f"))).Block(loop...))
	}
	body = append(body, jen.Return(jen.Id("out"), jen.Nil()))
	b.decls = append(b.decls, jen.Add(jen.Commentf("%s reads every filter member; none is dropped.", fn)).Line().Func().Id(fn).Params(jen.Id("f").Id(t.Name)).Params(jen.Qual(bindPredicatePkg, "Filters"), jen.Error()).Block(body...))
	return fn, nil
}

// hoursFilter is the body converting filters.hours (bound to v): open_at is
// parsed strictly, and any other member is rejected rather than ignored.
func (b *binder) hoursFilter(t *ir.Type, zero jen.Code) ([]jen.Code, error) {
	openAt := fieldNamed(t, "open_at")
	if !isPlainString(openAt) {
		return nil, fmt.Errorf("filters.hours.open_at: want a string member")
	}
	checks, err := refuseUnmapped(t, func() *jen.Statement { return jen.Id("v") }, b.argPrefix+"/filters/hours", "hours filter", zero, "open_at")
	if err != nil {
		return nil, err
	}
	parse := []jen.Code{
		jen.List(jen.Id("at"), jen.Err()).Op(":=").Qual(bindPredicatePkg, "ParseOpenAt").Call(stringOf("v", openAt)),
		// The engine's pointers are request-relative; this binding adds its own.
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.If(jen.List(jen.Id("ip"), jen.Id("ok")).Op(":=").Qual(bindRPCErrPkg, "AsInvalidParams").Call(jen.Err()), jen.Id("ok")).Block(
				jen.Return(zero, jen.Id("ip").Dot("Prefix").Call(jen.Lit(b.argPrefix))),
			),
			jen.Return(zero, jen.Err()),
		),
		jen.Id("out").Dot("OpenAt").Op("=").Op("&").Id("at"),
	}
	out := checks
	if openAt.Required {
		out = append(out, parse...)
	} else {
		out = append(out, jen.If(jen.Id("v").Dot(openAt.GoName).Dot("Set")).Block(parse...),
			jen.If(jen.Op("!").Id("v").Dot(openAt.GoName).Dot("Set")).Block(
				jen.Return(zero, jen.Qual(bindRPCErrPkg, "Invalid").Call(jen.Lit(b.argPrefix+"/filters/hours/open_at"), jen.Lit("required"), jen.Lit("the hours filter needs open_at"))),
			))
	}
	return out, nil
}

// The members of the operands the engine reads, in the order the binding
// maps them; drift declares the same lists for its member checks.
var (
	geoMembers      = []string{"latitude", "longitude"}
	localityMembers = []string{"address_country", "address_region", "postal_code"}
)

// refuseUnmapped returns the statements that refuse a request setting a
// member of the operand type t that the binding does not map (mapped lists
// the ones it does), with rpcerr.Invalid at ptr/<member> and keyword
// "unsupported": a member a newer schema declares is never dropped on the
// way to the engine. When t keeps members its schema does not declare (the
// operand objects are open: additionalProperties true or absent), the first
// of those in name order is refused the same way. One rule covers every
// operand the engine evaluates (distance and its center, serves.point,
// serves.address, filters.hours): a member the engine would not read could
// change what the operand means (a "unit" beside max, a "radius" beside a
// point), and LOCATION.md sections 4 and 5 say a Business that cannot honour
// an operand rejects it, never ignores it or answers a broader question. recv builds the operand's value and zero is the enclosing
// function's zero result. An unmapped required member is a generation
// error instead, because every request would carry it and none could be
// served.
func refuseUnmapped(t *ir.Type, recv func() *jen.Statement, ptr, what string, zero jen.Code, mapped ...string) ([]jen.Code, error) {
	if t == nil || t.Kind != ir.Struct {
		return nil, nil
	}
	var out []jen.Code
	for _, f := range t.Fields {
		if slices.Contains(mapped, f.JSONName) {
			continue
		}
		if f.Required {
			return nil, fmt.Errorf("%s: member %q is required by the schema, but the predicate engine does not interpret it (it reads only %s), so no request could be served; extend the runtime and this binding", what, f.JSONName, strings.Join(mapped, ", "))
		}
		out = append(out, jen.If(recv().Dot(f.GoName).Dot("Set")).Block(
			jen.Return(zero, jen.Qual(bindRPCErrPkg, "Invalid").Call(
				jen.Lit(ptr+"/"+bindPointerToken(f.JSONName)), jen.Lit("unsupported"),
				jen.Lit(fmt.Sprintf("%s member %%q is not supported; only %s", what, onlyList(mapped))), jen.Lit(f.JSONName))),
		))
	}
	if t.KeepUnknown || t.Extra != nil {
		out = append(out, jen.If(jen.Len(recv().Dot("Unknown")).Op(">").Lit(0)).Block(
			jen.Id("k").Op(":=").Qual(bindSlicesPkg, "Sorted").Call(jen.Qual(bindMapsPkg, "Keys").Call(recv().Dot("Unknown"))).Index(jen.Lit(0)),
			jen.Return(zero, jen.Qual(bindRPCErrPkg, "Invalid").Call(
				jen.Lit(ptr+"/").Op("+").Qual(bindRPCErrPkg, "EscapeToken").Call(jen.Id("k")), jen.Lit("unsupported"),
				jen.Lit(fmt.Sprintf("%s member %%q is not supported; only %s", what, onlyList(mapped))), jen.Id("k"))),
		))
	}
	return out, nil
}

// onlyList ends "only ..." in a refusal: "open_at is", "center and max
// are", "a, b and c are".
func onlyList(names []string) string {
	switch len(names) {
	case 1:
		return names[0] + " is"
	default:
		return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " are"
	}
}

// candidate emits PredicateCandidateInto and PredicateCandidate on a
// Location type.
func (b *binder) candidate(t *ir.Type) error {
	// c's lists are kept, emptied, for the appends below to refill.
	reused := jen.Dict{
		jen.Id("ID"):    stringOf("l", fieldNamed(t, "id")),
		jen.Id("Value"): jen.Id("l"),
	}
	if fieldNamed(t, "amenities") != nil {
		reused[jen.Id("Amenities")] = jen.Id("c").Dot("Amenities").Index(jen.Empty(), jen.Lit(0))
	}
	lists := jen.Dict{}
	if fieldNamed(t, "hours") != nil {
		lists[jen.Id("Hours")] = jen.Id("c").Dot("Schedule").Dot("Hours").Index(jen.Empty(), jen.Lit(0))
	}
	if fieldNamed(t, "exception_hours") != nil {
		lists[jen.Id("Exceptions")] = jen.Id("c").Dot("Schedule").Dot("Exceptions").Index(jen.Empty(), jen.Lit(0))
	}
	if len(lists) > 0 {
		reused[jen.Id("Schedule")] = jen.Qual(bindHoursPkg, "Schedule").Values(lists)
	}
	body := []jen.Code{
		jen.Op("*").Id("c").Op("=").Qual(bindPredicatePkg, "Candidate").Values(reused),
	}
	if f := fieldNamed(t, "geo"); f != nil {
		geoFn, err := b.geo(f.Type)
		if err != nil {
			return fmt.Errorf("%s.geo: %w", t.Name, err)
		}
		body = append(body, withField("l", f, "v",
			jen.Id("g").Op(":=").Id(geoFn).Call(jen.Id("v")),
			jen.Id("c").Dot("Geo").Op("=").Op("&").Id("g"),
		))
	}
	if f := fieldNamed(t, "amenities"); f != nil {
		add := func(e string, named bool) jen.Code {
			v := jen.Id(e)
			if named {
				v = jen.String().Call(jen.Id(e))
			}
			return jen.Id("c").Dot("Amenities").Op("=").Append(jen.Id("c").Dot("Amenities"), v)
		}
		switch {
		case f.Type.Kind == ir.Map:
			named := f.Type.Key != nil && f.Type.Key.IsNamed()
			body = append(body, withField("l", f, "v",
				presize(jen.Id("c").Dot("Amenities"), jen.String()),
				jen.For(jen.Id("k").Op(":=").Range().Id("v")).Block(add("k", named)),
				jen.Qual(bindSlicesPkg, "Sort").Call(jen.Id("c").Dot("Amenities")),
			))
		case f.Type.Kind == ir.Array && f.Type.Elem.Kind == ir.String:
			body = append(body, withField("l", f, "v",
				presize(jen.Id("c").Dot("Amenities"), jen.String()),
				jen.For(jen.List(jen.Id("_"), jen.Id("e")).Op(":=").Range().Id("v")).Block(add("e", f.Type.Elem.IsNamed())),
			))
		default:
			return fmt.Errorf("%s.amenities: want a map keyed by amenity id or a list of ids", t.Name)
		}
	}
	sched, err := b.schedule(t)
	if err != nil {
		return err
	}
	body = append(body, sched...)
	recv := jen.Params(jen.Id("l").Op("*").Id(t.Name))
	b.decls = append(b.decls,
		jen.Add(lineComments(fmt.Sprintf("PredicateCandidateInto is PredicateCandidate written to c, reusing the\n"+
			"lists c holds (their contents are overwritten), so that a load viewing\n"+
			"a million %ss one after another allocates them once.", t.Name))).Line().
			Func().Add(recv).Id("PredicateCandidateInto").Params(jen.Id("c").Op("*").Qual(bindPredicatePkg, "Candidate")).Block(body...),
		jen.Add(lineComments(fmt.Sprintf("PredicateCandidate presents the %s to the predicate engine (id, geo,\n"+
			"amenity keys and schedule), so services match it without hand-written\n"+
			"conversions. Value points back at l for the Business's hooks, and the\n"+
			"exception times point into l's own list.", t.Name))).Line().
			Func().Add(recv).Id("PredicateCandidate").Params().Qual(bindPredicatePkg, "Candidate").Block(
			jen.Var().Id("c").Qual(bindPredicatePkg, "Candidate"),
			jen.Id("l").Dot("PredicateCandidateInto").Call(jen.Op("&").Id("c")),
			jen.Return(jen.Id("c")),
		),
	)
	return nil
}

// presize gives the list the appends over v fill room for all of v at
// once (a million-store load otherwise spends about a kilobyte a store on
// the doubling copies); a list with room enough is reused, and an empty v
// leaves a nil list nil, as the appends would.
func presize(list, elem jen.Code) jen.Code {
	return jen.If(jen.Cap(list).Op("<").Len(jen.Id("v"))).Block(
		jen.Add(list).Op("=").Make(jen.Index().Add(elem), jen.Lit(0), jen.Len(jen.Id("v"))),
	)
}

// schedule is the body filling c.Schedule from timezone, hours and
// exception_hours, keeping "absent" apart from "empty".
func (b *binder) schedule(t *ir.Type) ([]jen.Code, error) {
	var out []jen.Code
	if f := fieldNamed(t, "timezone"); f != nil {
		if !isPlainString(f) {
			return nil, fmt.Errorf("%s.timezone: want a string member", t.Name)
		}
		out = append(out, jen.Id("c").Dot("Schedule").Dot("Timezone").Op("=").Add(stringOf("l", f)))
	}
	if f := fieldNamed(t, "hours"); f != nil {
		e := f.Type.Elem
		day, opens, closes := fieldNamed(e, "day"), fieldNamed(e, "opens"), fieldNamed(e, "closes")
		if f.Type.Kind != ir.Array || !isPlainString(day) || !isPlainString(opens) || !isPlainString(closes) {
			return nil, fmt.Errorf("%s.hours: want a list of {day, opens, closes} strings", t.Name)
		}
		out = append(out, withField("l", f, "v",
			jen.Id("c").Dot("Schedule").Dot("HasHours").Op("=").True(),
			presize(jen.Id("c").Dot("Schedule").Dot("Hours"), jen.Qual(bindHoursPkg, "Interval")),
			jen.For(jen.List(jen.Id("_"), jen.Id("h")).Op(":=").Range().Id("v")).Block(
				jen.Id("c").Dot("Schedule").Dot("Hours").Op("=").Append(jen.Id("c").Dot("Schedule").Dot("Hours"),
					jen.Qual(bindHoursPkg, "Interval").Values(jen.Dict{
						jen.Id("Day"):    stringOf("h", day),
						jen.Id("Opens"):  stringOf("h", opens),
						jen.Id("Closes"): stringOf("h", closes),
					})),
			),
		))
	}
	if f := fieldNamed(t, "exception_hours"); f != nil {
		e := f.Type.Elem
		from, through := fieldNamed(e, "valid_from"), fieldNamed(e, "valid_through")
		opens, closes := fieldNamed(e, "opens"), fieldNamed(e, "closes")
		if f.Type.Kind != ir.Array || !isPlainString(from) || !isPlainString(through) || !isPlainString(opens) || !isPlainString(closes) {
			return nil, fmt.Errorf("%s.exception_hours: want a list of {valid_from, valid_through, opens?, closes?} strings", t.Name)
		}
		op, err := stringPtrOf("x", opens)
		if err != nil {
			return nil, fmt.Errorf("%s.exception_hours: %w", t.Name, err)
		}
		cl, err := stringPtrOf("x", closes)
		if err != nil {
			return nil, fmt.Errorf("%s.exception_hours: %w", t.Name, err)
		}
		out = append(out, withField("l", f, "v",
			jen.Id("c").Dot("Schedule").Dot("HasExceptions").Op("=").True(),
			presize(jen.Id("c").Dot("Schedule").Dot("Exceptions"), jen.Qual(bindHoursPkg, "Exception")),
			// By index: the times point into the Location's own list
			// rather than into copies made for them.
			jen.For(jen.Id("i").Op(":=").Range().Id("v")).Block(
				jen.Id("x").Op(":=").Op("&").Id("v").Index(jen.Id("i")),
				jen.Id("c").Dot("Schedule").Dot("Exceptions").Op("=").Append(jen.Id("c").Dot("Schedule").Dot("Exceptions"),
					jen.Qual(bindHoursPkg, "Exception").Values(jen.Dict{
						jen.Id("ValidFrom"):    stringOf("x", from),
						jen.Id("ValidThrough"): stringOf("x", through),
						jen.Id("Opens"):        op,
						jen.Id("Closes"):       cl,
					})),
			),
		))
	}
	return out, nil
}

// bindPointerToken escapes one JSON Pointer reference token (RFC 6901).
func bindPointerToken(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			out = append(out, '~', '0')
		case '/':
			out = append(out, '~', '1')
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}
