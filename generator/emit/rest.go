package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/generator/load"
)

const restserverPkg = "github.com/ucpgen/ucpgen/runtime/restserver"

// This file emits rest.go: the REST binding of the same tools and Hooks as
// mcp.go, for services whose OpenAPI document sits beside the OpenRPC one.

// emitREST writes the operation table, RESTHandler and the profile entry of
// the REST binding. It needs the MCP binding's shape too (the handler runs
// the same tools), and a REST binding the loader matched to the methods.
func emitREST(f *jen.File, m *ir.Model) error {
	rest := m.Spec.REST
	if rest == nil {
		return errSkipFile
	}
	mcpService, err := isMCPService(m)
	if err != nil || !mcpService {
		return errSkipFile
	}
	f.ImportName(ucpcorePkg, "ucpcore")
	f.ImportName(restserverPkg, "restserver")
	schema, err := m.PublishedURL(rest.File)
	if err != nil {
		return err
	}
	name, err := serviceName(m)
	if err != nil {
		return err
	}
	if !restShaped(m, rest) {
		return errSkipFile
	}
	for _, op := range rest.Operations {
		if op.ResultMismatch != nil {
			return fmt.Errorf("REST handler: the success body must be the tool's result: %w", op.ResultMismatch)
		}
	}
	ops, err := restOperations(m, rest)
	if err != nil {
		return err
	}
	f.Comment("RESTSchema is where the release publishes the REST binding's OpenAPI document;").Line().
		Comment("the profile's REST entry names it.")
	f.Const().Id("RESTSchema").Op("=").Lit(schema)
	f.Add(ops)
	f.Add(restHandlerFunc())
	spec, err := m.SpecURL("")
	if err != nil {
		return err
	}
	f.Add(restServiceFunc(name, spec))
	return nil
}

// restShaped reports whether restserver can serve every operation: a JSON
// body that is the tool's one argument besides meta, and no path or query
// parameters (the Location binding's shape; the shopping binding's
// /checkout-sessions/{id} is not served yet).
func restShaped(m *ir.Model, rest *load.REST) bool {
	for _, t := range m.Tools {
		op := rest.Operation(t.Name)
		if op == nil || op.Body == nil || len(op.Params) > 0 || len(t.Params) != 2 || t.Params[0].Name != "meta" || op.BodyParam != t.Params[1].Name {
			return false
		}
	}
	return true
}

// restOperations emits RESTOperations, the operation table read from the
// OpenAPI document, in OpenRPC method order.
func restOperations(m *ir.Model, rest *load.REST) (jen.Code, error) {
	var entries []jen.Code
	for _, t := range m.Tools {
		op := rest.Operation(t.Name)
		if op == nil {
			return nil, fmt.Errorf("%s: no operation has operationId %q", rest.File, t.Name)
		}
		var headers []jen.Code
		for _, h := range op.Headers {
			d := jen.Dict{jen.Id("Name"): jen.Lit(h.Name)}
			if h.Required {
				d[jen.Id("Required")] = jen.True()
			}
			if h.Format != "" {
				d[jen.Id("Format")] = jen.Lit(h.Format)
			}
			headers = append(headers, jen.Values(d))
		}
		entries = append(entries, jen.Values(jen.Dict{
			jen.Id("Tool"):      jen.Lit(op.ID),
			jen.Id("Method"):    jen.Lit(op.Method),
			jen.Id("Path"):      jen.Lit(op.Path),
			jen.Id("MediaType"): jen.Lit(op.MediaType),
			jen.Id("Headers"):   jen.Index().Qual(restserverPkg, "Header").Values(headers...),
		}))
	}
	return jen.Comment("RESTOperations lists the operations of the REST binding, one per tool, as its").Line().
		Comment("OpenAPI document declares them; each call returns a new slice.").Line().
		Func().Id("RESTOperations").Params().Index().Qual(restserverPkg, "Operation").Block(
		jen.Return(jen.Index().Qual(restserverPkg, "Operation").Values(entries...)),
	), nil
}

// restHandlerFunc emits RESTHandler, which serves Tools(hooks) over REST.
func restHandlerFunc() jen.Code {
	return jen.Comment("RESTHandler serves the operations of every capability hooks implement over the REST").Line().
		Comment("binding, wired to hooks through the same runtime path as Register (decode, validate,").Line().
		Comment("negotiate, call, fill ucp, map errors); an operation of a capability they do not").Line().
		Comment("implement has no route. opts are Register's options; rest sets the base path, body").Line().
		Comment("cap, logger and the Budget, which the MCP endpoint should share.").Line().
		Func().Id("RESTHandler").Params(
		jen.Id("hooks").Id("Hooks"),
		jen.Id("opts").Op("*").Qual(ucpcorePkg, "Options"),
		jen.Id("rest").Op("*").Qual(restserverPkg, "Options"),
	).Params(jen.Qual("net/http", "Handler"), jen.Error()).Block(
		jen.Var().Id("o").Qual(ucpcorePkg, "Options"),
		jen.If(jen.Id("opts").Op("!=").Nil()).Block(jen.Id("o").Op("=").Op("*").Id("opts")),
		versionCheck("RESTHandler", jen.Nil()),
		jen.List(jen.Id("tools"), jen.Err()).Op(":=").Id("Tools").Call(jen.Id("hooks")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("RESTHandler: %w"), jen.Err()))),
		jen.Return(jen.Qual(restserverPkg, "New").Call(jen.Id("tools"), jen.Qual(restserverPkg, "OperationsOf").Call(jen.Id("tools"), jen.Id("RESTOperations").Call()), jen.Op("&").Id("o"), jen.Id("rest"))),
	)
}

// restServiceFunc emits RESTService and BusinessProfileWithREST, the
// profile entries of a Business that serves both transports.
func restServiceFunc(name, spec string) jen.Code {
	return jen.Comment("RESTService is the profile entry of the REST binding whose base URL is endpoint.").Line().
		Func().Id("RESTService").Params(jen.Id("endpoint").String()).Qual(ucpcorePkg, "ProfileService").Block(
		jen.Return(jen.Qual(ucpcorePkg, "ProfileService").Values(jen.Dict{
			jen.Id("Name"):      jen.Lit(name),
			jen.Id("Version"):   jen.Id("ProtocolVersion"),
			jen.Id("Transport"): jen.Lit("rest"),
			jen.Id("Schema"):    jen.Id("RESTSchema"),
			jen.Id("Spec"):      jen.Lit(spec),
			jen.Id("Endpoint"):  jen.Id("endpoint"),
		})),
	).Line().Line().
		Comment("BusinessProfileWithREST renders /.well-known/ucp for a Business that serves MCP at").Line().
		Comment("mcpEndpoint and REST with the base URL restEndpoint, advertising the capabilities").Line().
		Comment("hooks implement.").Line().
		Func().Id("BusinessProfileWithREST").Params(jen.Id("hooks").Id("Hooks"), jen.List(jen.Id("mcpEndpoint"), jen.Id("restEndpoint")).String()).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.List(jen.Id("doc"), jen.Err()).Op(":=").Id("BusinessProfile").Call(jen.Id("hooks"), jen.Id("mcpEndpoint")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Qual(ucpcorePkg, "AddProfileService").Call(jen.Id("doc"), jen.Id("RESTService").Call(jen.Id("restEndpoint")))),
	)
}
