package emit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

// This file groups a model's tools by UCP capability: the unit a Business
// adopts. Each group becomes one hook interface in mcp.go, and the runtime
// (runtime/capability) serves exactly the groups a Business's value
// implements, so a release that only adds capabilities leaves every line a
// Business wrote compiling and serves nothing it did not implement.

const capabilityPkg = "github.com/ucpgen/ucpgen/runtime/capability"

// capabilityGroup is one capability with the tools that serve it, in
// OpenRPC method order.
type capabilityGroup struct {
	// Name is the UCP capability name; empty for tools that declare none,
	// which then form a group of one each and are not advertised.
	Name  string
	Tools []*ir.Tool
	// Iface is the hook interface's Go name.
	Iface string
}

// capabilityGroups returns the model's capabilities in the order their
// first tool appears.
func capabilityGroups(m *ir.Model) ([]*capabilityGroup, error) {
	service, err := serviceName(m)
	if err != nil {
		return nil, err
	}
	var out []*capabilityGroup
	by := map[string]*capabilityGroup{}
	for _, t := range m.Tools {
		if g := by[t.Capability]; g != nil && t.Capability != "" {
			g.Tools = append(g.Tools, t)
			continue
		}
		g := &capabilityGroup{Name: t.Capability, Tools: []*ir.Tool{t}, Iface: hooksInterfaceName(service, t)}
		by[t.Capability] = g
		out = append(out, g)
	}
	names := map[string]string{}
	for _, g := range out {
		if other, dup := names[g.Iface]; dup {
			return nil, fmt.Errorf("capabilities %q and %q both make the hook interface %s", other, g.Name, g.Iface)
		}
		if slices.ContainsFunc(m.Types, func(t *ir.Type) bool { return t.Name == g.Iface }) {
			return nil, fmt.Errorf("capability %q: hook interface %s collides with a generated type of that name", g.Name, g.Iface)
		}
		names[g.Iface] = g.Name
	}
	return out, nil
}

// hooksInterfaceName names a capability's hook interface after the
// capability without its service (dev.ucp.common.location.search is
// LocationSearchHooks, dev.ucp.common.ask is AskHooks), or after the tool
// for a tool that declares no capability.
func hooksInterfaceName(service string, t *ir.Tool) string {
	if t.Capability == "" {
		return ir.GoName(t.Name) + "Hooks"
	}
	return ir.GoName(strings.TrimPrefix(t.Capability, service+".")) + "Hooks"
}

// groupOf returns the group serving the named tool, or nil.
func groupOf(groups []*capabilityGroup, tool string) *capabilityGroup {
	for _, g := range groups {
		if slices.ContainsFunc(g.Tools, func(t *ir.Tool) bool { return t.Name == tool }) {
			return g
		}
	}
	return nil
}

// hooksDoc is the Hooks alias and its documentation: what every hook
// interface of the package shares.
func hooksDoc(groups []*capabilityGroup) jen.Code {
	var ifaces []string
	for _, g := range groups {
		ifaces = append(ifaces, g.Iface)
	}
	return jen.Add(lineComments(wrap("Hooks is a Business's implementation of this service: any value that implements one or more of the capability interfaces ("+strings.Join(ifaces, ", ")+"). Register, RESTHandler and the profile functions serve exactly the capabilities it implements, so a UCP release that adds a capability changes nothing a Business wrote and serves nothing it did not write. Join values with Compose; leave an implemented capability out with Omit.", docWidth))).Line().
		Comment("").Line().
		Comment("Every hook method is called with arguments that already passed decoding and").Line().
		Comment("validation, in the method's param order and under its param names (an optional").Line().
		Comment("one the call left out is nil). Return typed errors from runtime/rpcerr to choose").Line().
		Comment("the JSON-RPC error; any other error becomes -32603 without its text reaching the").Line().
		Comment("client. The negotiated version and capabilities are merged into the ucp member of").Line().
		Comment("the response by the runtime; its other members are kept.").Line().
		Type().Id("Hooks").Op("=").Any()
}

// capabilityInterface declares one capability's hook interface.
func capabilityInterface(g *capabilityGroup) jen.Code {
	var methods []jen.Code
	for _, t := range g.Tools {
		doc := fmt.Sprintf("%s serves the %s tool: %s", hookName(t), t.Name, t.Summary)
		params := []jen.Code{jen.Id("ctx").Qual("context", "Context")}
		for i, p := range t.Params {
			params = append(params, jen.Id(argIdents(t)[i]).Add(argType(p)))
		}
		methods = append(methods, lineComments(wrap(doc, docWidth-1)), jen.Id(hookName(t)).Params(params...).
			Params(jen.Op("*").Add(goType(t.Result.Type)), jen.Error()))
	}
	doc := fmt.Sprintf("%s is the %s capability: implement it to serve it.", g.Iface, g.Name)
	if g.Name == "" {
		doc = fmt.Sprintf("%s serves the %s tool, which declares no capability.", g.Iface, g.Tools[0].Name)
	}
	return jen.Add(lineComments(wrap(doc, docWidth))).Line().Type().Id(g.Iface).Interface(methods...)
}

// composeFuncs declares Compose and Omit, the package's spelling of the
// runtime's.
func composeFuncs() jen.Code {
	return jen.Comment("Compose joins values that each implement some of the capabilities, such as").Line().
		Comment("NewService's Location capabilities and a Business's own hooks for the others;").Line().
		Comment("two values that implement the same capability are an error when served.").Line().
		Func().Id("Compose").Params(jen.Id("parts").Op("...").Id("Hooks")).Id("Hooks").Block(
		jen.Return(jen.Qual(capabilityPkg, "Compose").Call(jen.Id("parts").Op("..."))),
	).Line().Line().
		Comment("Omit leaves out capabilities (by UCP name) that hooks implement but the Business").Line().
		Comment("does not serve; a name that is not a capability of this package is an error when").Line().
		Comment("served.").Line().
		Func().Id("Omit").Params(jen.Id("hooks").Id("Hooks"), jen.Id("capabilities").Op("...").String()).Id("Hooks").Block(
		jen.Return(jen.Qual(capabilityPkg, "Omit").Call(jen.Id("hooks"), jen.Id("capabilities").Op("..."))),
	)
}

// capabilityTable declares the table the runtime resolves hooks against:
// every capability with its interface and a binder of its tools.
func capabilityTable(m *ir.Model, groups []*capabilityGroup) (jen.Code, error) {
	var entries []jen.Code
	for _, g := range groups {
		schema, spec := "", ""
		if g.Name != "" {
			u, err := capabilitySchemaURL(m, g.Tools[0])
			if err != nil {
				return nil, fmt.Errorf("capability %s: %w", g.Name, err)
			}
			schema = u
			if spec, err = m.SpecURL(g.Name); err != nil {
				return nil, fmt.Errorf("capability %s: %w", g.Name, err)
			}
		}
		var tools []jen.Code
		for _, t := range g.Tools {
			tools = append(tools, jen.Id(toolFuncName(t)).Call(jen.Id("h")))
		}
		entries = append(entries, jen.Values(jen.Dict{
			jen.Id("Name"):      jen.Lit(g.Name),
			jen.Id("Schema"):    jen.Lit(schema),
			jen.Id("Spec"):      jen.Lit(spec),
			jen.Id("Interface"): jen.Qual("reflect", "TypeFor").Types(jen.Id(g.Iface)).Call(),
			jen.Id("Bind"): jen.Func().Params(jen.Id("hooks").Any()).Params(jen.Index().Qual(ucpcorePkg, "Tool"), jen.Bool()).Block(
				jen.List(jen.Id("h"), jen.Id("ok")).Op(":=").Id("hooks").Assert(jen.Id(g.Iface)),
				jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Nil(), jen.False())),
				jen.Return(jen.Index().Qual(ucpcorePkg, "Tool").Values(tools...), jen.True()),
			),
		}))
	}
	return jen.Comment("capabilities is every capability of the service, in OpenRPC method order, with").Line().
		Comment("the interface that adopts it and the tools it serves.").Line().
		Var().Id("capabilities").Op("=").Index().Qual(capabilityPkg, "Capability").Types(jen.Qual(ucpcorePkg, "Tool")).Values(entries...), nil
}

// toolFuncName is the function describing tool t bound to its hooks.
func toolFuncName(t *ir.Tool) string { return lowerFirst(hookName(t)) + "Tool" }
