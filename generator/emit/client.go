package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
)

const ucpclientPkg = "github.com/ucpgen/ucpgen/runtime/ucpclient"

// This file emits client.go: the Platform side of the same tools, a typed
// Client over runtime/ucpclient with one method per tool, and for a tool
// whose request and response carry UCP pagination, iterators that walk
// every page. The runtime does discovery, transports, retries and limits;
// what is emitted here only names the tools and their types.

// clientTool is one tool as the client sees it.
type clientTool struct {
	t    *ir.Tool
	body *ir.Param // the argument besides meta
	path string    // the REST operation's path, "" without a REST binding
	page *clientPaging
}

// clientPaging is how a paginated tool's request and response hold UCP
// pagination: the fields that carry it and, when the response has exactly
// one list of named items besides messages, that list.
type clientPaging struct {
	reqField, reqCursor    *ir.Field
	respField, respMore    *ir.Field
	respCursor, itemsField *ir.Field
}

// emitClient writes Client, NewClient and the typed methods. It needs MCP
// tools of the binding's shape whose body is a named object.
func emitClient(f *jen.File, m *ir.Model) error {
	mcpService, err := isMCPService(m)
	if err != nil || !mcpService {
		return errSkipFile
	}
	name, err := serviceName(m)
	if err != nil {
		return err
	}
	for _, t := range m.Types {
		if t.Name == "Client" {
			return fmt.Errorf("client: the schemas define a type named Client, which the client would shadow")
		}
	}
	rest := m.Spec.REST != nil && restShaped(m, m.Spec.REST)
	var tools []clientTool
	for _, t := range m.Tools {
		if len(t.Params) != 2 || t.Params[0].Name != "meta" || t.Params[1].Type == nil || t.Params[1].Type.Kind != ir.Struct || t.Params[1].Type.Name == "" || t.Result == nil || t.Result.Type == nil || t.Result.Type.Name == "" {
			return errSkipFile
		}
		ct := clientTool{t: t, body: t.Params[1], page: paging(t.Params[1].Type, t.Result.Type)}
		if rest {
			ct.path = m.Spec.REST.Operation(t.Name).Path
		}
		tools = append(tools, ct)
	}
	f.ImportName(ucpclientPkg, "ucpclient")
	f.Add(clientService(name, tools))
	f.Add(clientType())
	for _, ct := range tools {
		f.Add(clientMethod(ct))
		if ct.page != nil {
			f.Add(pagesMethod(ct))
			if ct.page.itemsField != nil {
				f.Add(allMethod(ct))
			}
			f.Add(nextCursorMethod(ct))
		}
	}
	return nil
}

// field is t's member named json, or nil.
func field(t *ir.Type, json string) *ir.Field {
	if t == nil {
		return nil
	}
	for _, f := range t.Fields {
		if f.JSONName == json {
			return f
		}
	}
	return nil
}

// paging finds UCP pagination in a tool's request and response: a
// pagination object with a string cursor in both, and has_next_page, a
// boolean, in the response; nil when either lacks it.
func paging(req, resp *ir.Type) *clientPaging {
	p := &clientPaging{reqField: field(req, "pagination"), respField: field(resp, "pagination")}
	if p.reqField == nil || p.respField == nil || p.reqField.Type.Name == "" || p.respField.Type.Name == "" {
		return nil
	}
	p.reqCursor = field(p.reqField.Type, "cursor")
	p.respCursor = field(p.respField.Type, "cursor")
	p.respMore = field(p.respField.Type, "has_next_page")
	if p.reqCursor == nil || p.respCursor == nil || p.respMore == nil ||
		p.reqCursor.Type.Kind != ir.String || p.respCursor.Type.Kind != ir.String || p.respMore.Type.Kind != ir.Boolean {
		return nil
	}
	for _, f := range resp.Fields {
		if f.JSONName == "messages" || f.Type.Kind != ir.Array || f.Type.Elem == nil || f.Type.Elem.Name == "" {
			continue
		}
		if p.itemsField != nil {
			p.itemsField = nil // two lists: which one is "all" is not obvious
			break
		}
		p.itemsField = f
	}
	return p
}

// optValue reads a field's value, through opt.Value when it is optional.
func optValue(x *jen.Statement, f *ir.Field) *jen.Statement {
	s := x.Dot(f.GoName)
	if !f.Required {
		s = s.Dot("V")
	}
	return s
}

// clientService emits ClientService, the descriptor ucpclient calls by.
func clientService(name string, tools []clientTool) jen.Code {
	var entries []jen.Code
	for _, ct := range tools {
		d := jen.Dict{
			jen.Id("Name"):       jen.Lit(ct.t.Name),
			jen.Id("Capability"): jen.Lit(ct.t.Capability),
			jen.Id("Body"):       jen.Lit(ct.body.Name),
		}
		if ct.path != "" {
			d[jen.Id("Path")] = jen.Lit(ct.path)
		}
		entries = append(entries, jen.Values(d))
	}
	return jen.Comment("ClientService is this package's service as runtime/ucpclient calls it: give it to").Line().
		Comment("runtime/ucpclient/discovery.Discover to reach a Business, and the Conn to NewClient. Each").Line().
		Comment("call returns a new value.").Line().
		Func().Id("ClientService").Params().Qual(ucpclientPkg, "Service").Block(
		jen.Return(jen.Qual(ucpclientPkg, "Service").Values(jen.Dict{
			jen.Id("Name"):    jen.Lit(name),
			jen.Id("Version"): jen.Id("ProtocolVersion"),
			jen.Id("Tools"):   jen.Index().Qual(ucpclientPkg, "Tool").Values(entries...),
		})),
	)
}

// clientType emits Client, NewClient, Conn and Close.
func clientType() jen.Code {
	mismatch := jen.Qual("fmt", "Errorf").Call(jen.Lit("NewClient: conn calls %s %s, not %s %s"), jen.Id("got").Dot("Name"), jen.Id("got").Dot("Version"), jen.Id("want").Dot("Name"), jen.Id("want").Dot("Version"))
	return jen.Comment("Client is a Platform's typed client of one Business at ProtocolVersion: one method per tool,").Line().
		Comment("each validating its request before sending it and its answer before returning it. It is").Line().
		Comment("safe for concurrent use.").Line().
		Type().Id("Client").Struct(jen.Id("conn").Op("*").Qual(ucpclientPkg, "Conn")).Line().Line().
		Comment("NewClient types the calls of conn, a connection to a Business made for ClientService (by").Line().
		Comment("runtime/ucpclient/discovery.Discover, which reads the Business's profile, or ucpclient.New).").Line().
		Func().Id("NewClient").Params(jen.Id("conn").Op("*").Qual(ucpclientPkg, "Conn")).Params(jen.Op("*").Id("Client"), jen.Error()).Block(
		jen.If(jen.Id("conn").Op("==").Nil()).Block(jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(jen.Lit("NewClient: conn must not be nil")))),
		jen.List(jen.Id("got"), jen.Id("want")).Op(":=").List(jen.Id("conn").Dot("Service").Call(), jen.Id("ClientService").Call()),
		jen.If(jen.Id("got").Dot("Name").Op("!=").Id("want").Dot("Name").Op("||").Id("got").Dot("Version").Op("!=").Id("want").Dot("Version")).Block(
			jen.Return(jen.Nil(), mismatch),
		),
		jen.Return(jen.Op("&").Id("Client").Values(jen.Dict{jen.Id("conn"): jen.Id("conn")}), jen.Nil()),
	).Line().Line().
		Comment("Conn is the connection: the version, transport, endpoint and capabilities in use.").Line().
		Func().Params(jen.Id("c").Op("*").Id("Client")).Id("Conn").Params().Op("*").Qual(ucpclientPkg, "Conn").Block(
		jen.Return(jen.Id("c").Dot("conn")),
	).Line().Line().
		Comment("Close ends the MCP session, if one is open.").Line().
		Func().Params(jen.Id("c").Op("*").Id("Client")).Id("Close").Params().Error().Block(
		jen.Return(jen.Id("c").Dot("conn").Dot("Close").Call()),
	)
}

// clientMethod emits the typed method of one tool.
func clientMethod(ct clientTool) jen.Code {
	doc := fmt.Sprintf("%s calls %s (%s) if the Business advertises %s; nothing is sent otherwise.", hookName(ct.t), ct.t.Name, ct.t.Summary, ct.t.Capability)
	return jen.Add(lineComments(wrap(doc, docWidth))).Line().
		Func().Params(jen.Id("c").Op("*").Id("Client")).Id(hookName(ct.t)).Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id(ct.body.Name).Op("*").Id(ct.body.Type.Name),
	).Params(jen.Op("*").Id(ct.t.Result.Type.Name), jen.Error()).Block(
		jen.Return(jen.Qual(ucpclientPkg, "Call").Call(jen.Id("ctx"), jen.Id("c").Dot("conn"), jen.Lit(ct.t.Name), jen.Id(ct.body.Name), jen.Id("Decode"+ct.t.Result.Type.Name))),
	)
}

// pagesMethod emits <Tool>Pages, which walks every page from the request
// given, each later one carrying the cursor of the page before.
func pagesMethod(ct clientTool) jen.Code {
	p, req, resp := ct.page, ct.body.Type.Name, ct.t.Result.Type.Name
	arg := ct.body.Name
	set := func(f *ir.Field, target *jen.Statement, v jen.Code) jen.Code {
		if f.Required {
			return target.Dot(f.GoName).Op("=").Add(v)
		}
		return target.Dot(f.GoName).Op("=").Qual(optPkg, "Some").Call(v)
	}
	doc := fmt.Sprintf("%sPages walks every page of %s from %s as given, each later page asked for with the cursor the page before returned (and no other); it stops after the last page or at the first error, which it yields.", hookName(ct.t), ct.t.Name, arg)
	return jen.Add(lineComments(wrap(doc, docWidth))).Line().
		Func().Params(jen.Id("c").Op("*").Id("Client")).Id(hookName(ct.t)+"Pages").Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id(arg).Op("*").Id(req),
	).Qual("iter", "Seq2").Types(jen.Op("*").Id(resp), jen.Error()).Block(
		jen.Return(jen.Qual(ucpclientPkg, "Pages").Call(
			jen.Id("ctx"),
			jen.Func().Params(jen.Id("ctx").Qual("context", "Context")).Params(jen.Op("*").Id(resp), jen.Error()).Block(
				jen.Return(jen.Id("c").Dot(hookName(ct.t)).Call(jen.Id("ctx"), jen.Id(arg))),
			),
			jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("cursor").String()).Params(jen.Op("*").Id(resp), jen.Error()).Block(
				jen.Id("next").Op(":=").Op("*").Id(arg),
				jen.Id("page").Op(":=").Add(optValue(jen.Id("next"), p.reqField)),
				set(p.reqCursor, jen.Id("page"), jen.Id("cursor")),
				set(p.reqField, jen.Id("next"), jen.Id("page")),
				jen.Return(jen.Id("c").Dot(hookName(ct.t)).Call(jen.Id("ctx"), jen.Op("&").Id("next"))),
			),
		)),
	)
}

// allMethod emits <Tool>All, the items of every page in page order.
func allMethod(ct clientTool) jen.Code {
	items, resp := ct.page.itemsField, ct.t.Result.Type.Name
	elem := ct.page.itemsField.Type.Elem.Name
	doc := fmt.Sprintf("%sAll yields the %s of every page of %s, in page order (see %sPages).", hookName(ct.t), items.JSONName, ct.t.Name, hookName(ct.t))
	return jen.Add(lineComments(wrap(doc, docWidth))).Line().
		Func().Params(jen.Id("c").Op("*").Id("Client")).Id(hookName(ct.t)+"All").Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id(ct.body.Name).Op("*").Id(ct.body.Type.Name),
	).Qual("iter", "Seq2").Types(jen.Id(elem), jen.Error()).Block(
		jen.Return(jen.Qual(ucpclientPkg, "Items").Call(
			jen.Id("c").Dot(hookName(ct.t)+"Pages").Call(jen.Id("ctx"), jen.Id(ct.body.Name)),
			jen.Func().Params(jen.Id("r").Op("*").Id(resp)).Index().Id(elem).Block(jen.Return(optValue(jen.Id("r"), items))),
		)),
	)
}

// nextCursorMethod emits NextCursor on the response, which Pages reads.
func nextCursorMethod(ct clientTool) jen.Code {
	p, resp := ct.page, ct.t.Result.Type.Name
	get := func(x *jen.Statement, f *ir.Field, name string, missing jen.Code) []jen.Code {
		if f.Required {
			return []jen.Code{jen.Id(name).Op(":=").Add(x.Dot(f.GoName))}
		}
		return []jen.Code{
			jen.List(jen.Id(name), jen.Id("ok")).Op(":=").Add(x.Dot(f.GoName)).Dot("Get").Call(),
			jen.If(jen.Op("!").Id("ok")).Block(missing),
		}
	}
	last := jen.Return(jen.Lit(""), jen.False(), jen.Nil())
	body := get(jen.Id("x"), p.respField, "p", last)
	more := optValue(jen.Id("p"), p.respMore)
	body = append(body, jen.If(jen.Op("!").Add(more)).Block(last))
	body = append(body, get(jen.Id("p"), p.respCursor, "cursor",
		jen.Return(jen.Lit(""), jen.False(), jen.Qual("errors", "New").Call(jen.Lit(p.respField.JSONName+"."+p.respMore.JSONName+" is true but "+p.respField.JSONName+"."+p.respCursor.JSONName+" is missing"))))...)
	body = append(body, jen.Return(jen.Id("cursor"), jen.True(), jen.Nil()))
	return jen.Comment("NextCursor is the cursor of the page after this one, and false on the last page; Pages reads it.").Line().
		Func().Params(jen.Id("x").Op("*").Id(resp)).Id("NextCursor").Params().Params(jen.String(), jen.Bool(), jen.Error()).Block(body...)
}
