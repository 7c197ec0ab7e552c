package emit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

// This file emits service.go: NewService, which implements Hooks on top of a
// Business's data source (runtime/domain/finder), the request digests that
// bind pagination cursors, and the conversions between shapes the schemas
// repeat (Location -> LookupLocation, lookup messages -> the Message union).
// Everything is derived from the model by JSON member name, so a member added
// to a schema flows through without hand code, and a shape the service cannot
// serve faithfully stops generation with an error instead of dropping data.

const (
	finderPkg     = "github.com/ucpgen/ucpgen/runtime/domain/finder"
	lookupPkg     = "github.com/ucpgen/ucpgen/runtime/domain/lookup"
	paginationPkg = "github.com/ucpgen/ucpgen/runtime/domain/pagination"
)

// digestSkipped are request members that never decide which Locations match
// or in which order: paging itself, and the buyer hints (context, signals)
// that the spec lets a Platform reveal step by step across pages.
var digestSkipped = []string{"pagination", "context", "signals"}

// serviceModel is what the service needs from the model: the two tools, their
// request and response types and the Location types they return.
type serviceModel struct {
	search, lookup         *ir.Tool
	searchReq, lookupReq   *ir.Type
	searchResp, lookupResp *ir.Type
	loc, lookupLoc         *ir.Type
	meta                   *ir.Type
	argPrefix              string
}

// findService picks the search and lookup tools; ok is false for a model
// that is not the Location capability (then no service.go is written).
func findService(m *ir.Model) (serviceModel, bool) {
	var s serviceModel
	for _, t := range m.Tools {
		if len(t.Params) != 2 || t.Result == nil {
			return s, false
		}
		switch t.Capability {
		case LocationCapabilities[0]:
			s.search = t
		case LocationCapabilities[1]:
			s.lookup = t
		}
	}
	if s.search == nil || s.lookup == nil {
		return s, false
	}
	s.meta = s.search.Params[0].Type
	s.searchReq, s.lookupReq = s.search.Params[1].Type, s.lookup.Params[1].Type
	s.searchResp, s.lookupResp = s.search.Result.Type, s.lookup.Result.Type
	s.loc, s.lookupLoc = locationElem(s.searchResp), locationElem(s.lookupResp)
	s.argPrefix = "/" + bindPointerToken(s.search.Params[1].Name)
	ok := s.loc != nil && s.lookupLoc != nil && s.meta.IsNamed() &&
		isRequestWithConstraints(s.searchReq) && isRequestWithConstraints(s.lookupReq) &&
		s.lookup.Params[1].Name == s.search.Params[1].Name
	return s, ok
}

// emitService writes service.go for the Location capability.
func emitService(f *jen.File, m *ir.Model) error {
	s, ok := findService(m)
	if !ok {
		return errSkipFile
	}
	for _, name := range []string{"Source", "Candidate", "Hints", "SourceCapabilities", "ServesTarget", "ServiceOptions", "NewService", "Service"} {
		if slices.ContainsFunc(m.Types, func(t *ir.Type) bool { return t.Name == name }) {
			return fmt.Errorf("service: generated type %s collides with the service's own declaration", name)
		}
	}
	f.ImportName(finderPkg, "finder")
	f.ImportName(lookupPkg, "lookup")
	f.ImportName(paginationPkg, "pagination")
	f.ImportName(bindPredicatePkg, "predicate")
	f.ImportName(rpcerrPkg, "rpcerr")
	f.Add(serviceAliases(s))
	f.Add(newServiceFunc(s))
	search, err := searchMethod(s)
	if err != nil {
		return err
	}
	f.Add(search)
	lookup, err := lookupMethod(s)
	if err != nil {
		return err
	}
	f.Add(lookup)
	conv, err := lookupLocationConversion(s.loc, s.lookupLoc)
	if err != nil {
		return err
	}
	f.Add(conv)
	msgs, err := messagesConversion(s.lookupResp)
	if err != nil {
		return err
	}
	f.Add(msgs)
	for _, req := range []*ir.Type{s.searchReq, s.lookupReq} {
		if fieldNamed(req, "pagination") != nil {
			digest, err := digestMethod(req)
			if err != nil {
				return err
			}
			f.Add(digest)
		}
	}
	f.Add(domainErrorFunc())
	return nil
}

func serviceAliases(s serviceModel) jen.Code {
	loc := jen.Id(s.loc.Name)
	return jen.Comment("Source is what a Business implements on the data-hooks path: where its").Line().
		Comment("Locations, aliases, service areas and item availability come from.").Line().
		Comment("NewService runs the whole capability on top of it.").Line().
		Type().Id("Source").Op("=").Qual(finderPkg, "Source").Types(loc).Line().Line().
		Comment("Candidate is one Location a Source returns, with its relevance score and").Line().
		Comment("the source's own handle.").Line().
		Type().Id("Candidate").Op("=").Qual(finderPkg, "Candidate").Types(jen.Id(s.loc.Name)).Line().Line().
		Comment("Hints tell a Source what a search needs so it can push work down.").Line().
		Type().Id("Hints").Op("=").Qual(finderPkg, "Hints").Line().Line().
		Comment("SourceCapabilities is what a Source can evaluate; a request beyond it is").Line().
		Comment("rejected with -32602 before any candidate is read.").Line().
		Type().Id("SourceCapabilities").Op("=").Qual(finderPkg, "Capabilities").Line().Line().
		Comment("ServesTarget is the serves operand a Source evaluates.").Line().
		Type().Id("ServesTarget").Op("=").Qual(bindPredicatePkg, "Target").Line().Line().
		Comment("ServiceOptions are NewService's page, batch and cursor-key limits; the zero").Line().
		Comment("value is the recommended configuration.").Line().
		Type().Id("ServiceOptions").Op("=").Qual(finderPkg, "Options")
}

func newServiceFunc(s serviceModel) jen.Code {
	loc := s.loc.Name
	return jen.Comment("NewService implements the Location capabilities on top of src: it decodes").Line().
		Comment("nothing itself (the runtime already did), converts each request for the finder").Line().
		Comment("engine, runs it, and renders the typed response. Compose it with the Business's").Line().
		Comment("own hooks for the service's other capabilities; the hook interfaces stay the").Line().
		Comment("escape hatch for a Business that wants full control.").Line().
		Func().Id("NewService").Params(jen.Id("src").Id("Source"), jen.Id("opts").Id("ServiceOptions")).Params(jen.Op("*").Id("Service"), jen.Error()).Block(
		jen.List(jen.Id("e"), jen.Err()).Op(":=").Qual(finderPkg, "New").Types(jen.Id(loc)).Call(
			jen.Id("src"),
			jen.Qual(finderPkg, "Binding").Types(jen.Id(loc)).Values(jen.Dict{
				jen.Id("ID"): jen.Func().Params(jen.Id("l").Op("*").Id(loc)).String().Block(
					jen.Return(stringOf("l", fieldNamed(s.loc, "id"))),
				),
				jen.Id("Candidate"): jen.Parens(jen.Op("*").Id(loc)).Dot("PredicateCandidate"),
			}),
			jen.Id("opts"),
		),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Qual(bindFmtPkg, "Errorf").Call(jen.Lit("new service: %w"), jen.Err()))),
		jen.Return(jen.Op("&").Id("Service").Values(jen.Dict{jen.Id("engine"): jen.Id("e")}), jen.Nil()),
	).Line().Line().
		Comment("Service implements the search and lookup capabilities over the finder engine; it").Line().
		Comment("has those hook methods only, whatever else a later release adds to the service.").Line().
		Type().Id("Service").Struct(jen.Id("engine").Op("*").Qual(finderPkg, "Engine").Types(jen.Id(loc)))
}

// hookSignature is the Hooks method of tool t on *service.
func hookSignature(s serviceModel, t *ir.Tool) *jen.Statement {
	return jen.Func().Params(jen.Id("s").Op("*").Id("Service")).Id(hookName(t)).Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("_").Op("*").Id(s.meta.Name),
		jen.Id("req").Op("*").Id(t.Params[1].Type.Name),
	).Params(jen.Op("*").Id(t.Result.Type.Name), jen.Error())
}

// ucpMember is the response's ucp member with the version filled in, or an
// error when the response has no such required member.
func ucpMember(resp *ir.Type) (jen.Dict, error) {
	f := fieldNamed(resp, "ucp")
	if f == nil || !f.Required || !f.Type.IsNamed() || fieldNamed(f.Type, "version") == nil {
		return nil, fmt.Errorf("service: %s needs a required ucp member with a version", resp.Name)
	}
	return jen.Dict{jen.Id(f.GoName): jen.Id(f.Type.Name).Values(jen.Dict{
		jen.Id(fieldNamed(f.Type, "version").GoName): jen.Id("ProtocolVersion"),
	})}, nil
}

// queryPrelude converts the request and returns early on error.
func queryPrelude() []jen.Code {
	return []jen.Code{
		jen.If(jen.Id("req").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit("nil request")))),
		jen.List(jen.Id("q"), jen.Err()).Op(":=").Id("req").Dot("PredicateQuery").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
	}
}

func searchMethod(s serviceModel) (jen.Code, error) {
	req, resp := s.searchReq, s.searchResp
	ucp, err := ucpMember(resp)
	if err != nil {
		return nil, err
	}
	locs := fieldNamed(resp, "locations")
	pag := fieldNamed(resp, "pagination")
	if pag == nil || !pag.Type.IsNamed() {
		return nil, fmt.Errorf("service: %s needs a pagination member", resp.Name)
	}
	hasNext, cursor, total := fieldNamed(pag.Type, "has_next_page"), fieldNamed(pag.Type, "cursor"), fieldNamed(pag.Type, "total_count")
	if hasNext == nil || !hasNext.Required || cursor == nil || cursor.Required || total == nil || total.Required || total.Type.Kind != ir.Integer {
		return nil, fmt.Errorf("service: %s needs has_next_page and optional cursor and integer total_count", pag.Type.Name)
	}
	body := queryPrelude()
	body = append(body,
		jen.List(jen.Id("digest"), jen.Err()).Op(":=").Id("req").Dot("ConstraintDigest").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Id("sr").Op(":=").Qual(finderPkg, "SearchRequest").Values(jen.Dict{jen.Id("Query"): jen.Id("q"), jen.Id("Digest"): jen.Id("digest")}),
	)
	if f := fieldNamed(req, "query"); f != nil && isPlainString(f) {
		body = append(body, jen.Id("sr").Dot("Text").Op("=").Add(stringOf("req", f)))
	}
	if f := fieldNamed(req, "pagination"); f != nil {
		c, l := fieldNamed(f.Type, "cursor"), fieldNamed(f.Type, "limit")
		if c == nil || l == nil || c.Required || l.Required || !isPlainString(c) || c.Type.IsNamed() || l.Type.Kind != ir.Integer {
			return nil, fmt.Errorf("service: %s.pagination needs optional cursor (string) and limit (integer)", req.Name)
		}
		body = append(body, withField("req", f, "p",
			jen.Id("sr").Dot("Cursor").Op("=").Id("p").Dot(c.GoName).Dot("Ptr").Call(),
			jen.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Id("p").Dot(l.GoName).Dot("Get").Call(), jen.Id("ok")).Block(
				jen.Comment("Out-of-range limits keep their sign: below 1 is rejected, above the maximum is lowered."),
				jen.Id("n").Op(":=").Int().Call(jen.Max(jen.Min(jen.Id("v"), jen.Qual("math", "MaxInt32")), jen.Qual("math", "MinInt32"))),
				jen.Id("sr").Dot("Limit").Op("=").Op("&").Id("n"),
			),
		))
	}
	ucp[jen.Id(locs.GoName)] = jen.Make(jen.Index().Id(s.loc.Name), jen.Len(jen.Id("page").Dot("Locations")))
	pr := jen.Dict{jen.Id(hasNext.GoName): jen.Id("page").Dot("HasNextPage")}
	body = append(body,
		jen.List(jen.Id("page"), jen.Err()).Op(":=").Id("s").Dot("engine").Dot("Search").Call(jen.Id("ctx"), jen.Id("sr")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("domainError").Call(jen.Err(), jen.Lit(s.argPrefix)))),
		jen.Id("resp").Op(":=").Op("&").Id(resp.Name).Values(ucp),
		jen.For(jen.List(jen.Id("i"), jen.Id("l")).Op(":=").Range().Id("page").Dot("Locations")).Block(
			jen.Id("resp").Dot(locs.GoName).Index(jen.Id("i")).Op("=").Op("*").Id("l"),
		),
	)
	if site, ok := serviceMemo(s); ok {
		body = append(body, memoSet(site.field))
	}
	body = append(body,
		jen.Id("pr").Op(":=").Id(pag.Type.Name).Values(pr),
		jen.If(jen.Id("page").Dot("Cursor").Op("!=").Lit("")).Block(
			jen.Id("pr").Dot(cursor.GoName).Op("=").Qual(optPkg, "Some").Call(jen.Id("page").Dot("Cursor")),
		),
		jen.If(jen.Id("page").Dot("TotalCount").Op("!=").Nil()).Block(
			jen.Id("pr").Dot(total.GoName).Op("=").Qual(optPkg, "Some").Call(jen.Int64().Call(jen.Op("*").Id("page").Dot("TotalCount"))),
		),
	)
	if pag.Required {
		body = append(body, jen.Id("resp").Dot(pag.GoName).Op("=").Id("pr"))
	} else {
		body = append(body, jen.Id("resp").Dot(pag.GoName).Op("=").Qual(optPkg, "Some").Call(jen.Id("pr")))
	}
	body = append(body, jen.Return(jen.Id("resp"), jen.Nil()))
	return jen.Add(lineComments(wrap(fmt.Sprintf("%s answers %s through the finder engine: one page in keyset order, "+
		"every constraint matched exactly, the cursor bound to ConstraintDigest.", hookName(s.search), s.search.Name), 76))).Line().
		Add(hookSignature(s, s.search).Block(body...)), nil
}

func lookupMethod(s serviceModel) (jen.Code, error) {
	req, resp := s.lookupReq, s.lookupResp
	ucp, err := ucpMember(resp)
	if err != nil {
		return nil, err
	}
	ids := fieldNamed(req, "ids")
	if ids == nil || !ids.Required || ids.Type.Kind != ir.Array || ids.Type.Elem.Kind != ir.String || ids.Type.Elem.IsNamed() {
		return nil, fmt.Errorf("service: %s needs a required ids member (list of strings)", req.Name)
	}
	locs := fieldNamed(resp, "locations")
	msgs := fieldNamed(resp, "messages")
	if msgs == nil || msgs.Required {
		return nil, fmt.Errorf("service: %s needs an optional messages member", resp.Name)
	}
	ucp[jen.Id(locs.GoName)] = jen.Make(jen.Index().Id(s.lookupLoc.Name), jen.Len(jen.Id("res").Dot("Entries")))
	body := queryPrelude()
	body = append(body,
		jen.List(jen.Id("res"), jen.Err()).Op(":=").Id("s").Dot("engine").Dot("Lookup").Call(jen.Id("ctx"),
			jen.Qual(finderPkg, "LookupRequest").Values(jen.Dict{jen.Id("IDs"): jen.Id("req").Dot(ids.GoName), jen.Id("Query"): jen.Id("q")})),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("domainError").Call(jen.Err(), jen.Lit(s.argPrefix)))),
		jen.Id("resp").Op(":=").Op("&").Id(resp.Name).Values(ucp),
		jen.For(jen.List(jen.Id("i"), jen.Id("en")).Op(":=").Range().Id("res").Dot("Entries")).Block(
			jen.Id("resp").Dot(locs.GoName).Index(jen.Id("i")).Op("=").Id("en").Dot("Location").Dot(s.lookupLoc.Name).Call(jen.Id("en").Dot("Inputs")),
		),
		jen.If(jen.Len(jen.Id("res").Dot("Messages")).Op(">").Lit(0)).Block(
			jen.List(jen.Id("m"), jen.Err()).Op(":=").Id("lookupMessages").Call(jen.Id("res").Dot("Messages")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Id("resp").Dot(msgs.GoName).Op("=").Qual(optPkg, "Some").Call(jen.Id("m")),
		),
		jen.Return(jen.Id("resp"), jen.Nil()),
	)
	return jen.Add(lineComments(wrap(fmt.Sprintf("%s answers %s through the finder engine: every processed id "+
		"resolved in one source call, refined, and reported once per Location with its inputs.", hookName(s.lookup), s.lookup.Name), 76))).Line().
		Add(hookSignature(s, s.lookup).Block(body...)), nil
}

// lookupLocationConversion emits (*Location).LookupLocation(inputs): every
// member of the lookup shape copied from the member of the same name, plus
// inputs. A member on either side without a counterpart stops generation,
// because it would be dropped from lookup responses without a trace.
func lookupLocationConversion(loc, out *ir.Type) (jen.Code, error) {
	inputs := fieldNamed(out, "inputs")
	if inputs == nil || inputs.Type.Kind != ir.Array || !inputs.Type.Elem.IsNamed() || fieldNamed(inputs.Type.Elem, "id") == nil {
		return nil, fmt.Errorf("service: %s needs an inputs member (list of {id})", out.Name)
	}
	inputID := fieldNamed(inputs.Type.Elem, "id")
	if !isPlainString(inputID) || !inputID.Required || inputID.Type.IsNamed() {
		return nil, fmt.Errorf("service: %s.inputs[].id must be a required string", out.Name)
	}
	dict := jen.Dict{}
	for _, f := range out.Fields {
		if f == inputs {
			continue
		}
		src := fieldNamed(loc, f.JSONName)
		if src == nil {
			return nil, fmt.Errorf("service: %s member %q has no counterpart in %s", out.Name, f.JSONName, loc.Name)
		}
		if src.Required != f.Required || typeKey(src.Type) != typeKey(f.Type) {
			return nil, fmt.Errorf("service: member %q differs between %s and %s", f.JSONName, loc.Name, out.Name)
		}
		dict[jen.Id(f.GoName)] = jen.Id("l").Dot(src.GoName)
	}
	for _, f := range loc.Fields {
		if fieldNamed(out, f.JSONName) == nil {
			return nil, fmt.Errorf("service: %s member %q has no counterpart in %s; lookup would drop it", loc.Name, f.JSONName, out.Name)
		}
	}
	if loc.KeepUnknown != out.KeepUnknown || (loc.Extra == nil) != (out.Extra == nil) {
		return nil, fmt.Errorf("service: %s and %s keep unknown members differently", loc.Name, out.Name)
	}
	if loc.KeepUnknown || loc.Extra != nil {
		dict[jen.Id("Unknown")] = jen.Id("l").Dot("Unknown")
	}
	elem := inputs.Type.Elem.Name
	dict[jen.Id(inputs.GoName)] = jen.Make(jen.Index().Id(elem), jen.Len(jen.Id("inputs")))
	return jen.Add(lineComments(wrap(fmt.Sprintf("%s is l as lookup returns it, with the request identifiers that resolved to it. "+
		"It is generated member by member, so a member added to %s flows into lookup responses.", out.Name, loc.Name), 76))).Line().
		Func().Params(jen.Id("l").Op("*").Id(loc.Name)).Id(out.Name).Params(jen.Id("inputs").Index().String()).Id(out.Name).Block(
		jen.Id("out").Op(":=").Id(out.Name).Values(dict),
		jen.For(jen.List(jen.Id("i"), jen.Id("id")).Op(":=").Range().Id("inputs")).Block(
			jen.Id("out").Dot(inputs.GoName).Index(jen.Id("i")).Op("=").Id(elem).Values(jen.Dict{jen.Id(inputID.GoName): jen.Id("id")}),
		),
		jen.Return(jen.Id("out")),
	), nil
}

// typeKey identifies a Go type expression, so two members can be compared.
func typeKey(t *ir.Type) string {
	return fmt.Sprintf("%#v", jen.Null().Add(goType(t)))
}

// messagesConversion emits lookupMessages: each lookup.Message becomes the
// Message union variant whose discriminator is its type, for every variant
// that needs nothing beyond type, code and content.
func messagesConversion(resp *ir.Type) (jen.Code, error) {
	f := fieldNamed(resp, "messages")
	if f.Type.Kind != ir.Array || f.Type.Elem.Kind != ir.Union || !f.Type.Elem.IsNamed() {
		return nil, fmt.Errorf("service: %s.messages must be a list of a named union", resp.Name)
	}
	union := f.Type.Elem
	var cases []jen.Code
	for _, v := range union.Variants {
		t := v.Type
		if v.Tag == "" || !t.IsNamed() || t.Kind != ir.Struct {
			continue
		}
		dict := jen.Dict{}
		usable := true
		for _, vf := range t.Fields {
			var val jen.Code
			switch vf.JSONName {
			case "type", "content":
				if !isPlainString(vf) || vf.Type.IsNamed() {
					usable = false
				}
				val = jen.Id("m").Dot(ir.GoName(vf.JSONName))
			case "code":
				if vf.Type.Kind != ir.String {
					usable = false
					break
				}
				val = jen.Id("m").Dot("Code")
				if vf.Type.IsNamed() {
					val = jen.Id(vf.Type.Name).Call(val)
				}
			default:
				if vf.Required {
					usable = false
				}
				continue
			}
			if !vf.Required {
				val = jen.Qual(optPkg, "Some").Call(val)
			}
			dict[jen.Id(vf.GoName)] = val
		}
		if !usable {
			continue
		}
		cases = append(cases, jen.Case(jen.Lit(v.Tag)).Block(
			jen.Id("out").Index(jen.Id("i")).Op("=").Id(union.Name).Values(jen.Dict{jen.Id(v.GoName): jen.Op("&").Id(t.Name).Values(dict)}),
		))
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("service: no variant of %s can carry a lookup message (type, code, content)", union.Name)
	}
	cases = append(cases, jen.Default().Block(
		jen.Return(jen.Nil(), jen.Qual(bindFmtPkg, "Errorf").Call(jen.Lit("lookup message type %q has no "+union.Name+" variant"), jen.Id("m").Dot("Type"))),
	))
	return jen.Commentf("lookupMessages renders the lookup bookkeeping messages as the %s union.", union.Name).Line().
		Func().Id("lookupMessages").Params(jen.Id("in").Index().Qual(lookupPkg, "Message")).Params(jen.Index().Id(union.Name), jen.Error()).Block(
		jen.Id("out").Op(":=").Make(jen.Index().Id(union.Name), jen.Len(jen.Id("in"))),
		jen.For(jen.List(jen.Id("i"), jen.Id("m")).Op(":=").Range().Id("in")).Block(jen.Switch(jen.Id("m").Dot("Type")).Block(cases...)),
		jen.Return(jen.Id("out"), jen.Nil()),
	), nil
}

// digestMethod emits ConstraintDigest on a request type: every member except
// those in digestSkipped, plus every unknown member, each as its JSON name
// and canonical JSON (the bytes json.Marshal writes for the decoded value:
// map keys sorted, raw members compacted). The JSON comes from the
// generated encoders, which write those bytes without reflection, into one
// buffer that holds every part. Absent members contribute nothing, so a
// member added in a new schema version changes the digest exactly when a
// request uses it.
func digestMethod(t *ir.Type) (jen.Code, error) {
	body := []jen.Code{
		jen.Var().Err().Error(),
		// Room for the usual request's parts, so most digests grow nothing.
		jen.Id("b").Op(":=").Make(jen.Index().Byte(), jen.Lit(0), jen.Lit(digestRoom)),
		jen.Id("parts").Op(":=").Make(jen.Index().Index().Byte(), jen.Lit(0), jen.Lit(digestParts)),
	}
	// add appends the part pair of one member: its name, then its JSON
	// written by value (statements that append to b, returning b and err
	// on failure as encoders do), run in a function literal so those
	// returns stay the encoder's.
	add := func(name jen.Code, value []jen.Code) []jen.Code {
		enc := jen.Func().Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
			append([]jen.Code{jen.Var().Err().Error()}, append(value, jen.Return(jen.Id("b"), jen.Err()))...)...)
		return []jen.Code{
			jen.Id("n").Op(":=").Len(jen.Id("b")),
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.Add(name).Op("...")),
			jen.Id("v").Op(":=").Len(jen.Id("b")),
			jen.If(jen.List(jen.Id("b"), jen.Err()).Op("=").Add(enc).Call(jen.Id("b")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Index(jen.Lit(32)).Byte().Values(), jen.Qual(bindFmtPkg, "Errorf").Call(jen.Lit("digest member %q: %w"), name, jen.Err())),
			),
			// Capped, so later parts appended to b never write into this one.
			jen.Id("parts").Op("=").Append(jen.Id("parts"), jen.Id("b").Index(jen.Id("n"), jen.Id("v"), jen.Id("v")), jen.Id("b").Index(jen.Id("v"), jen.Len(jen.Id("b")), jen.Len(jen.Id("b")))),
		}
	}
	for _, f := range t.Fields {
		if slices.Contains(digestSkipped, f.JSONName) {
			continue
		}
		v := jen.Id("r").Dot(f.GoName)
		if !f.Required {
			v = jen.Id("r").Dot(f.GoName).Dot("V")
		}
		// Not required: json.Marshal of a bare nil list or map is null.
		value, err := appendValue(f.Type, v, true, f.JSONName, false, 0)
		if err != nil {
			return nil, fmt.Errorf("digest of %s: %w", t.Name, err)
		}
		if f.Required {
			body = append(body, jen.Block(add(jen.Lit(f.JSONName), value)...))
		} else {
			body = append(body, jen.If(jen.Id("r").Dot(f.GoName).Dot("Set")).Block(add(jen.Lit(f.JSONName), value)...))
		}
	}
	if t.KeepUnknown || t.Extra != nil {
		extra := &ir.Type{Kind: ir.Any}
		if t.Extra != nil {
			extra = t.Extra
		}
		value, err := appendValue(extra, jen.Id("r").Dot("Unknown").Index(jen.Id("k")), false, "additional member", false, 1)
		if err != nil {
			return nil, fmt.Errorf("digest of %s: %w", t.Name, err)
		}
		body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(sortedUnknown("r"))).Block(
			add(jen.Id("k"), value)...,
		))
	}
	body = append(body, jen.Return(jen.Qual(paginationPkg, "ConstraintDigest").Call(jen.Id("parts").Op("...")), jen.Nil()))
	return jen.Add(lineComments(wrap(fmt.Sprintf("ConstraintDigest binds a pagination cursor to this %s: every member except %s "+
		"(which never decide the matches or their order), and every unknown member, each as its name and canonical JSON "+
		"(the bytes json.Marshal writes, from the generated encoders). "+
		"It is generated from the request type, so a member added in a new schema version is covered without hand code.", t.Name, strings.Join(digestSkipped, ", ")), 76))).Line().
		Func().Params(jen.Id("r").Op("*").Id(t.Name)).Id("ConstraintDigest").Params().Params(jen.Index(jen.Lit(32)).Byte(), jen.Error()).Block(body...), nil
}

// digestRoom and digestParts size ConstraintDigest's buffer and part list
// for a usual request (a query, a circle and a few filters).
const (
	digestRoom  = 256
	digestParts = 8
)

func domainErrorFunc() jen.Code {
	return jen.Comment("domainError makes the engine's request-relative pointers relative to the").Line().
		Comment("tool arguments, as argumentError does for decoding errors.").Line().
		Func().Id("domainError").Params(jen.Err().Error(), jen.Id("prefix").String()).Error().Block(
		jen.If(jen.List(jen.Id("ip"), jen.Id("ok")).Op(":=").Qual(rpcerrPkg, "AsInvalidParams").Call(jen.Err()), jen.Id("ok")).Block(
			jen.Return(jen.Id("ip").Dot("Prefix").Call(jen.Id("prefix"))),
		),
		jen.Return(jen.Err()),
	)
}
