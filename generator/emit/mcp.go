package emit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/generator/load"
)

const (
	mcpPkg       = "github.com/modelcontextprotocol/go-sdk/mcp"
	mcpserverPkg = "github.com/ucpgen/ucpgen/runtime/mcpserver"
	ucpcorePkg   = "github.com/ucpgen/ucpgen/runtime/ucpcore"
)

// emitMCP writes the hooks interface, the tool table, Register and the
// bundled input/output schemas. It needs tools of the UCP MCP binding's
// shape (see isMCPService); other services get types and validators only.
func emitMCP(f *jen.File, m *ir.Model) error {
	f.ImportName(mcpPkg, "mcp")
	f.ImportName(mcpserverPkg, "mcpserver")
	f.ImportName(ucpcorePkg, "ucpcore")
	f.ImportName(rpcerrPkg, "rpcerr")
	f.ImportName(capabilityPkg, "capability")
	mcpService, err := isMCPService(m)
	if err != nil {
		return err
	}
	if !mcpService {
		return errSkipFile
	}
	if err := (load.Release{Version: m.Version, From: m.Spec.Release.From}).Require(m.Spec.File); err != nil {
		return fmt.Errorf("%w; the generated ProtocolVersion and schema URLs carry it", err)
	}
	groups, err := capabilityGroups(m)
	if err != nil {
		return err
	}
	f.Comment("ProtocolVersion is the UCP release these tools implement, read from the").Line().
		Comment("input (see the file header); responses carry it in ucp.version.")
	f.Const().Id("ProtocolVersion").Op("=").Lit(m.Version)
	f.Add(hooksDoc(groups))
	for _, g := range groups {
		f.Add(capabilityInterface(g))
	}
	f.Add(composeFuncs())
	table, err := capabilityTable(m, groups)
	if err != nil {
		return err
	}
	f.Add(table)
	for _, t := range m.Tools {
		f.Add(toolFunc(t, groupOf(groups, t.Name)))
	}
	f.Add(toolsFunc())
	f.Add(registerFunc())
	caps, err := capabilitiesFunc(m)
	if err != nil {
		return err
	}
	f.Add(caps)
	f.Add(describedOutputFunc(m))
	owns, err := ownUCPMethods(m)
	if err != nil {
		return err
	}
	for _, c := range owns {
		f.Add(c)
	}
	f.Anon("embed")
	f.Add(schemaVars(m))
	return nil
}

func hookName(t *ir.Tool) string { return ir.GoName(t.Name) }

func schemaVar(t *ir.Tool, kind string) string { return lowerFirst(hookName(t)) + kind + "Schema" }

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]|0x20) + s[1:]
}

// toolFunc declares the function that describes tool t for the runtime,
// bound to the hooks of its capability.
func toolFunc(t *ir.Tool, g *capabilityGroup) jen.Code {
	res := t.Result
	return jen.Add(lineComments(wrap(fmt.Sprintf("%s describes the %s tool for the runtime, bound to hooks.", toolFuncName(t), t.Name), docWidth))).Line().
		Func().Id(toolFuncName(t)).Params(jen.Id("hooks").Id(g.Iface)).Qual(ucpcorePkg, "Tool").Block(
		jen.Return(jen.Qual(ucpcorePkg, "Tool").Values(jen.Dict{
			jen.Id("Name"):         jen.Lit(t.Name),
			jen.Id("Title"):        jen.Lit(t.Summary),
			jen.Id("Description"):  jen.Lit(t.Description),
			jen.Id("Capability"):   jen.Lit(t.Capability),
			jen.Id("InputSchema"):  jen.Qual(jsonPkg, "RawMessage").Call(jen.Id(schemaVar(t, "Input"))),
			jen.Id("OutputSchema"): jen.Qual(jsonPkg, "RawMessage").Call(jen.Id(schemaVar(t, "Output"))),
			jen.Id("Params"):       paramList(t),
			jen.Id("Bind"):         bindFunc(t),
			jen.Id("CheckOutput"): jen.Func().Params(jen.Id("data").Index().Byte()).Error().Block(
				jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("Decode"+res.Type.Name).Call(jen.Id("data")),
				jen.Return(jen.Err()),
			),
		})),
	)
}

// toolsFunc emits Tools: the tools of the capabilities hooks implement.
func toolsFunc() jen.Code {
	return jen.Comment("Tools describes the tools of every capability hooks implement, bound to them,").Line().
		Comment("capability by capability; Register and RESTHandler use it, and tests or custom").Line().
		Comment("servers may too. Hooks that implement no capability, or one only in part, are an").Line().
		Comment("error.").Line().
		Func().Id("Tools").Params(jen.Id("hooks").Id("Hooks")).Params(jen.Index().Qual(ucpcorePkg, "Tool"), jen.Error()).Block(
		jen.List(jen.Id("served"), jen.Err()).Op(":=").Qual(capabilityPkg, "Resolve").Call(jen.Id("hooks"), jen.Id("capabilities")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Var().Id("tools").Index().Qual(ucpcorePkg, "Tool"),
		jen.For(jen.List(jen.Id("_"), jen.Id("c")).Op(":=").Range().Id("served")).Block(
			jen.Id("tools").Op("=").Append(jen.Id("tools"), jen.Id("c").Dot("Items").Op("...")),
		),
		jen.Return(jen.Id("tools"), jen.Nil()),
	)
}

// versionCheck is the switch every entry point runs on opts.Version: empty
// means ProtocolVersion, any other release is refused.
func versionCheck(fn string, results ...jen.Code) jen.Code {
	return jen.Switch(jen.Id("o").Dot("Version")).Block(
		jen.Case(jen.Lit("")).Block(jen.Id("o").Dot("Version").Op("=").Id("ProtocolVersion")),
		jen.Case(jen.Id("ProtocolVersion")).Block(),
		jen.Default().Block(jen.Return(append(results, jen.Qual("fmt", "Errorf").Call(
			jen.Lit(fn+": opts.Version %q is not %s, the release these tools implement"), jen.Id("o").Dot("Version"), jen.Id("ProtocolVersion")))...)),
	)
}

func registerFunc() jen.Code {
	return jen.Comment("Register adds the tools of every capability hooks implement to server, wired to").Line().
		Comment("hooks through the ucpgen runtime (decode, validate, negotiate, call, fill ucp, map").Line().
		Comment("errors); a tool of a capability they do not implement is unknown to the server.").Line().
		Comment("Without a Negotiator the tools answer at ProtocolVersion; opts.Version may be left").Line().
		Comment("empty and must not name another release. opts.DescribedOutputSchemas chooses the").Line().
		Comment("output schemas with descriptions.").Line().
		Func().Id("Register").Params(jen.Id("server").Op("*").Qual(mcpPkg, "Server"), jen.Id("hooks").Id("Hooks"), jen.Id("opts").Op("*").Qual(ucpcorePkg, "Options")).Error().Block(
		jen.If(jen.Id("server").Op("==").Nil()).Block(
			jen.Return(jen.Qual("errors", "New").Call(jen.Lit("Register: server must not be nil"))),
		),
		jen.Var().Id("o").Qual(ucpcorePkg, "Options"),
		jen.If(jen.Id("opts").Op("!=").Nil()).Block(jen.Id("o").Op("=").Op("*").Id("opts")),
		versionCheck("Register"),
		jen.List(jen.Id("tools"), jen.Err()).Op(":=").Id("Tools").Call(jen.Id("hooks")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit("Register: %w"), jen.Err()))),
		jen.For(jen.List(jen.Id("_"), jen.Id("t")).Op(":=").Range().Id("tools")).Block(
			jen.If(jen.Id("o").Dot("DescribedOutputSchemas")).Block(
				jen.Id("t").Dot("OutputSchema").Op("=").Id("describedOutputSchema").Call(jen.Id("t").Dot("Name")),
			),
			jen.Qual(mcpserverPkg, "Add").Call(jen.Id("server"), jen.Id("t"), jen.Op("&").Id("o")),
		),
		jen.Return(jen.Nil()),
	)
}

// capabilitiesFunc emits Capabilities and BusinessProfile, which advertise
// the capabilities a Business's hooks implement. Capabilities returns a new
// slice on each call, so no caller can change what another advertises.
func capabilitiesFunc(m *ir.Model) (jen.Code, error) {
	service, err := m.PublishedURL(m.Spec.File)
	if err != nil {
		return nil, err
	}
	name, err := serviceName(m)
	if err != nil {
		return nil, err
	}
	spec, err := m.SpecURL("")
	if err != nil {
		return nil, err
	}
	code := jen.Comment("Capabilities lists the UCP capabilities hooks implement, for the Business profile").Line().
		Comment("at /.well-known/ucp and for negotiation; each call returns a new slice.").Line().
		Func().Id("Capabilities").Params(jen.Id("hooks").Id("Hooks")).Params(jen.Index().Qual(ucpcorePkg, "ProfileCapability"), jen.Error()).Block(
		jen.List(jen.Id("served"), jen.Err()).Op(":=").Qual(capabilityPkg, "Resolve").Call(jen.Id("hooks"), jen.Id("capabilities")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Var().Id("out").Index().Qual(ucpcorePkg, "ProfileCapability"),
		jen.For(jen.List(jen.Id("_"), jen.Id("c")).Op(":=").Range().Id("served")).Block(
			// A tool that declares no capability has nothing to advertise.
			jen.If(jen.Id("c").Dot("Name").Op("!=").Lit("")).Block(
				jen.Id("out").Op("=").Append(jen.Id("out"), jen.Qual(ucpcorePkg, "ProfileCapability").Values(jen.Dict{
					jen.Id("Name"):    jen.Id("c").Dot("Name"),
					jen.Id("Version"): jen.Id("ProtocolVersion"),
					jen.Id("Schema"):  jen.Id("c").Dot("Schema"),
					jen.Id("Spec"):    jen.Id("c").Dot("Spec"),
				})),
			),
		),
		jen.Return(jen.Id("out"), jen.Nil()),
	)
	if name == "" {
		// Tools that declare no capability have nothing to advertise, and
		// no service name to advertise it under.
		return code, nil
	}
	return code.Line().Line().
		Comment("BusinessProfile renders /.well-known/ucp for a Business whose MCP endpoint is").Line().
		Comment("endpoint, advertising the capabilities hooks implement.").Line().
		Func().Id("BusinessProfile").Params(jen.Id("hooks").Id("Hooks"), jen.Id("endpoint").String()).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.List(jen.Id("caps"), jen.Err()).Op(":=").Id("Capabilities").Call(jen.Id("hooks")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("BusinessProfile: %w"), jen.Err()))),
		jen.Return(jen.Qual(ucpcorePkg, "BusinessProfile").Call(
			jen.Id("ProtocolVersion"),
			jen.Index().Qual(ucpcorePkg, "ProfileService").Values(jen.Values(jen.Dict{
				jen.Id("Name"):      jen.Lit(name),
				jen.Id("Version"):   jen.Id("ProtocolVersion"),
				jen.Id("Transport"): jen.Lit("mcp"),
				jen.Id("Schema"):    jen.Lit(service),
				jen.Id("Spec"):      jen.Lit(spec),
				jen.Id("Endpoint"):  jen.Id("endpoint"),
			})),
			jen.Id("caps"),
		)),
	), nil
}

// capabilitySchemaURL is the published schema URL of a tool's capability,
// derived from the $id of the document that declares it.
func capabilitySchemaURL(m *ir.Model, t *ir.Tool) (string, error) {
	return m.PublishedURL(t.CapabilityFile)
}

// serviceName is the UCP service the tools belong to, for the Business
// profile: UCP names capabilities <reverse domain>.<service>.<capability>
// (dev.ucp.shopping.checkout), so it is the first three dot-separated
// components their names share; empty when no tool declares one.
func serviceName(m *ir.Model) (string, error) {
	service := ""
	for _, t := range m.Tools {
		if t.Capability == "" {
			continue
		}
		parts := strings.SplitN(t.Capability, ".", 4)
		if len(parts) < 4 {
			return "", fmt.Errorf("tool %s: capability %q has no service component (want reverse-domain.service.capability)", t.Name, t.Capability)
		}
		name := strings.Join(parts[:3], ".")
		if service != "" && name != service {
			return "", fmt.Errorf("tool %s: capability %q is not of service %s, which the other tools name", t.Name, t.Capability, service)
		}
		service = name
	}
	return service, nil
}

// schemaFile names the file holding one of a tool's schemas (kind is
// "input", "output" or "output.described").
func schemaFile(t *ir.Tool, kind string) string { return t.Name + "." + kind + ".json" }

// schemaKinds are the schema files of each tool in generated code, with the
// suffix of the variable that embeds each one.
var schemaKinds = []struct{ file, suffix string }{
	{"input", "Input"}, {"output", "Output"}, {"output.described", "OutputDescribed"},
}

// schemaVars declares the embedded schema files, one variable each.
func schemaVars(m *ir.Model) jen.Code {
	var defs []jen.Code
	for _, t := range m.Tools {
		for _, k := range schemaKinds {
			defs = append(defs,
				jen.Comment("//go:embed "+schemaFile(t, k.file)),
				jen.Id(schemaVar(t, k.suffix)).Index().Byte(),
			)
		}
	}
	return jen.Comment("The tools' self-contained JSON Schemas, kept as pretty JSON files beside this one so").Line().
		Comment("that they can be read and diffed. Annotations that assert nothing are left out, and so are").Line().
		Comment("the output schemas' descriptions unless Options.DescribedOutputSchemas asks for them.").Line().
		Var().Defs(defs...)
}

// describedOutputFunc emits the lookup from a tool name to its output
// schema with descriptions, which Register serves on request.
func describedOutputFunc(m *ir.Model) jen.Code {
	var cases []jen.Code
	for _, t := range m.Tools {
		cases = append(cases, jen.Case(jen.Lit(t.Name)).Block(jen.Return(jen.Id(schemaVar(t, "OutputDescribed")))))
	}
	return jen.Comment("describedOutputSchema is the output schema of the named tool with every description,").Line().
		Comment("or nil for a tool this package does not define.").Line().
		Func().Id("describedOutputSchema").Params(jen.Id("tool").String()).Qual(jsonPkg, "RawMessage").Block(
		jen.Switch(jen.Id("tool")).Block(cases...),
		jen.Return(jen.Nil()),
	)
}

// ToolSchemas returns the self-contained JSON Schemas of every tool,
// pretty-printed and keyed by file name. Without reduce it returns every
// keyword of the source schemas, as <tool>.input.json and
// <tool>.output.json, for tests to compare against. With reduce it returns
// what the generated code embeds: <tool>.input.json without the annotations
// that assert nothing but with every description (models read it),
// <tool>.output.json without descriptions either (clients validate results
// against it, and descriptions were half of tools/list), and
// <tool>.output.described.json with them; definitions used once are written
// in place. Every form accepts exactly what the full one does, and every
// form applies UCP's direction annotations for the tool's operation
// (ucp_request to the input, ucp_response to the output), so each accepts
// what the tool's validators accept: create_checkout's input does not ask
// for the checkout's id.
func ToolSchemas(m *ir.Model, reduce bool) (map[string][]byte, error) {
	out := map[string][]byte{}
	in, res, described := formFull, formFull, formFull
	if reduce {
		in, res, described = formDescribed, formLean, formDescribed
	}
	if ok, err := isMCPService(m); err != nil || !ok {
		return nil, fmt.Errorf("%s: not an MCP service of the UCP binding (every method takes a required meta and has a result): %v", m.Spec.File, err)
	}
	for _, t := range m.Tools {
		var names, required []string
		var schemas []*load.Schema
		for _, p := range t.Params {
			names = append(names, p.Name)
			schemas = append(schemas, p.Schema)
			if p.Required {
				required = append(required, p.Name)
			}
		}
		files := map[string][]byte{}
		data, err := objectSchema(m.Spec.Set, names, schemas, required, in, t.Op)
		if err != nil {
			return nil, fmt.Errorf("bundle %s input schema: %w", t.Name, err)
		}
		files["input"] = data
		if files["output"], err = refSchema(m.Spec.Set, t.Result.Schema, res, t.Op); err != nil {
			return nil, fmt.Errorf("bundle %s output schema: %w", t.Name, err)
		}
		if reduce {
			if files["output.described"], err = refSchema(m.Spec.Set, t.Result.Schema, described, t.Op); err != nil {
				return nil, fmt.Errorf("bundle %s described output schema: %w", t.Name, err)
			}
		}
		for kind, data := range files {
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, data, "", "  "); err != nil {
				return nil, fmt.Errorf("format %s: %w", schemaFile(t, kind), err)
			}
			pretty.WriteByte('\n')
			out[schemaFile(t, kind)] = pretty.Bytes()
		}
	}
	return out, nil
}

// ownUCPMethods emits OwnUCP for every struct result that the encoder gives
// AppendJSONWithUCP (a result with a required ucp member), once per type:
// the runtime merges the negotiated ucp into the one the hook set, so an
// error outcome keeps its status and a Business keeps what it lists there.
//
// The member is written by the generated encoder (json.Marshal's bytes, as
// a bare value: a nil list or map is null), since every call encodes it.
func ownUCPMethods(m *ir.Model) ([]jen.Code, error) {
	var out []jen.Code
	done := map[*ir.Type]bool{}
	for _, t := range m.Tools {
		r := t.Result.Type
		f := ucpField(r)
		if r.Kind != ir.Struct || f == nil || done[r] {
			continue
		}
		done[r] = true
		value, err := appendValue(f.Type, jen.Id("x").Dot(f.GoName), true, "ucp", false, 0)
		if err != nil {
			return nil, fmt.Errorf("OwnUCP of %s: %w", r.Name, err)
		}
		body := append([]jen.Code{jen.Var().Id("b").Index().Byte(), jen.Var().Err().Error()}, value...)
		out = append(out, jen.Comment("OwnUCP encodes the ucp member the hook set, which the runtime merges the").Line().
			Comment("negotiated one into.").Line().
			Func().Params(jen.Id("x").Op("*").Id(r.Name)).Id("OwnUCP").Params().Params(jen.Index().Byte(), jen.Error()).Block(
			append(body, jen.Return(jen.Id("b"), jen.Err()))...,
		))
	}
	return out, nil
}
