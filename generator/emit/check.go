package emit

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/ucpgen/ucpgen/generator/ir"
	"github.com/ucpgen/ucpgen/generator/load"
	"github.com/ucpgen/ucpgen/runtime/schemacheck"
)

const (
	checkPkg  = "github.com/ucpgen/ucpgen/runtime/schemacheck"
	rpcerrPkg = "github.com/ucpgen/ucpgen/runtime/rpcerr"
)

// schemaKey names one compiled schema: the same source schema compiles
// differently per direction and operation because ucp_request/ucp_response
// rewrite the required list and drop omitted members.
type schemaKey struct {
	loc string
	dir ir.Direction
	op  string
}

// checkTable turns schemas into straight-line Go check functions, one per
// schema, direction and operation:
//
//	func checkX(c *schemacheck.Checker, v *schemacheck.Value, at *schemacheck.Path)
//
// Schemas used as a branch (anyOf, oneOf, not, if, propertyNames, union
// variants) are run through match(checkX, ...) (a quiet yes/no) and
// explain(checkX, ...) (the first violation, for messages); match inlines,
// so that its call of checkX is direct too. Every call is direct, so the Go compiler keeps
// the *Path chain on the stack and a valid document builds no pointer
// strings. Constant operands (bounds, patterns, non-string enums) become
// package variables so that checks allocate nothing.
//
// Emitting runs in two passes over the same schemas. The first (plan == nil)
// compiles every schema under a placeholder name and decides which builds are
// the same: a build that only calls another ($ref alone) becomes that call, and
// builds with the same text for another direction or operation share one
// function. The second pass compiles again with the final names, so that
// every name says only what its function covers.
type checkTable struct {
	plan      *namePlan
	funcs     []jen.Code
	vars      []jen.Code
	branch    map[string]bool
	branches  []string
	nvars     int
	enumFn    map[string]string // enum value texts -> function
	enumNames map[string]bool
	patterns  map[string]string
	varNames  map[string]string // prefix and value text -> package variable
	// passedNames names the schemacheck.Passed of each item check whose
	// arrays are remembered (rememberPassed).
	passedNames map[string]string
	// tails maps a statement to the form it takes as a function's last
	// statement: its trailing return is dropped (dropAtEnd drops it whole).
	tails map[jen.Code]jen.Code
	// kindOnly recognises a type check, in both its forms, so that a
	// function doing nothing else is named after the types when several
	// schemas share it.
	kindOnly map[jen.Code]string // type check -> the types it accepts

	// first pass only
	recs     map[schemaKey]*checkRecord
	all      []*checkRecord          // by id
	order    []*checkRecord          // records in completion order
	bodies   map[string]*checkRecord // canonical body text -> record
	refCalls map[jen.Code]*checkRecord

	// second pass only
	done map[schemaKey]bool
}

// checkRecord is one compiled build in the first pass.
type checkRecord struct {
	id     int
	key    schemaKey
	loc    load.Loc
	open   bool         // being compiled
	cyclic bool         // referenced while being compiled
	same   *checkRecord // the record whose function this build uses instead
	dirs   map[ir.Direction]bool
	ops    map[string]bool
	// also lists the other schema locations whose builds use this record's
	// function because their bodies are the same text.
	also []load.Loc
	kind string // set when the body is a type check alone (see kindOnly)
}

// token is the placeholder suffix of a record in the first pass.
func (r *checkRecord) token() string { return fmt.Sprintf("Ref%dZz", r.id) }

// canon follows same links to the record whose function is emitted. The
// links cannot loop: a record only ever points at one completed before it
// whose own chain does not lead back (see suffixFor).
func (r *checkRecord) canon() *checkRecord {
	for r.same != nil {
		r = r.same
	}
	return r
}

// namePlan is the first pass's outcome: the final suffix of every build,
// which builds get a function, and what each function covers.
type namePlan struct {
	names map[schemaKey]string
	emit  map[schemaKey]bool
	docs  map[schemaKey]string
}

func newCheckTable(plan *namePlan) *checkTable {
	return &checkTable{
		plan: plan, branch: map[string]bool{},
		enumFn: map[string]string{}, enumNames: map[string]bool{}, patterns: map[string]string{},
		varNames: map[string]string{}, passedNames: map[string]string{}, tails: map[jen.Code]jen.Code{}, kindOnly: map[jen.Code]string{},
		recs: map[schemaKey]*checkRecord{}, bodies: map[string]*checkRecord{},
		refCalls: map[jen.Code]*checkRecord{}, done: map[schemaKey]bool{},
	}
}

// dropAtEnd is the tail form of a statement that does nothing as a
// function's last statement.
var dropAtEnd = jen.Null()

// withTail records the form stmt takes as a function's last statement.
func (st *checkTable) withTail(stmt, tail jen.Code) jen.Code {
	st.tails[stmt] = tail
	return stmt
}

// trimTail rewrites a function body's last statements into their tail
// forms, so that no function ends in "if ... { return }".
func (st *checkTable) trimTail(body []jen.Code) []jen.Code {
	for len(body) > 0 {
		tail, ok := st.tails[body[len(body)-1]]
		if !ok {
			break
		}
		if tail == dropAtEnd {
			body = body[:len(body)-1]
			continue
		}
		body = append(body[:len(body)-1:len(body)-1], tail)
		break
	}
	return body
}

var tokenRE = regexp.MustCompile(`Ref(\d+)Zz`)

// suffixFor returns the name suffix of s compiled for dir and op (checkX,
// matchX, explainX), compiling it on first use.
func (st *checkTable) suffixFor(s *load.Schema, dir ir.Direction, op string) (string, error) {
	k := schemaKey{loc: s.Loc.String(), dir: dir, op: op}
	if st.plan != nil {
		return st.finalSuffix(s, k)
	}
	if r, ok := st.recs[k]; ok {
		if r.open {
			r.cyclic = true
		}
		return r.token(), nil
	}
	r := &checkRecord{id: len(st.recs), key: k, loc: s.Loc, open: true, dirs: map[ir.Direction]bool{}, ops: map[string]bool{}}
	st.recs[k] = r
	st.all = append(st.all, r)
	body, err := st.compile(s, dir, op)
	r.open = false
	if err != nil {
		return "", err
	}
	body = st.trimTail(body)
	if len(body) == 1 {
		if target := st.refCalls[body[0]]; target != nil && target.canon() != r {
			r.same = target
			return r.token(), nil
		}
	}
	if !r.cyclic {
		text := tokenRE.ReplaceAllStringFunc(fmt.Sprintf("%#v", jen.Block(body...)), func(t string) string {
			var id int
			fmt.Sscanf(t, "Ref%dZz", &id)
			return st.byID(id).canon().token()
		})
		// Builds with the same text share one function, whichever schema
		// they come from: many members say no more than type: string.
		if prev, ok := st.bodies[text]; ok {
			r.same = prev
			prev.dirs[dir], prev.ops[op] = true, true
			if s.Loc != prev.loc && !slices.Contains(prev.also, s.Loc) {
				prev.also = append(prev.also, s.Loc)
			}
			return r.token(), nil
		}
		st.bodies[text] = r
	}
	if len(body) == 1 {
		r.kind = st.kindOnly[body[0]]
	}
	r.dirs[dir], r.ops[op] = true, true
	st.order = append(st.order, r)
	return r.token(), nil
}

// byID finds a first-pass record by its number.
func (st *checkTable) byID(id int) *checkRecord { return st.all[id] }

// finalSuffix compiles s in the second pass and emits its function when the
// plan says the build has one of its own.
func (st *checkTable) finalSuffix(s *load.Schema, k schemaKey) (string, error) {
	n, ok := st.plan.names[k]
	if !ok {
		return "", fmt.Errorf("%s: schema missing from the first pass", s.Loc)
	}
	if st.done[k] {
		return n, nil
	}
	st.done[k] = true
	body, err := st.compile(s, k.dir, k.op)
	if err != nil {
		return "", err
	}
	if st.plan.emit[k] {
		st.funcs = append(st.funcs, jen.Comment(st.plan.docs[k]).Line().
			Func().Id("check"+n).Params(
			jen.Id("c").Op("*").Qual(checkPkg, "Checker"),
			jen.Id("v").Op("*").Qual(checkPkg, "Value"),
			jen.Id("at").Op("*").Qual(checkPkg, "Path"),
		).Block(st.trimTail(body)...))
	}
	return n, nil
}

// plan names the functions the first pass decided to emit. A function is
// named after its schema location alone when that location has one build;
// otherwise the direction, then the operation, tell its builds apart.
func (st *checkTable) namePlan() *namePlan {
	p := &namePlan{names: map[schemaKey]string{}, emit: map[schemaKey]bool{}, docs: map[schemaKey]string{}}
	groups := map[string][]*checkRecord{}
	for _, r := range st.order {
		b := recordBase(r)
		groups[b] = append(groups[b], r)
	}
	used := map[string]bool{}
	final := map[*checkRecord]string{}
	for _, r := range st.order {
		b := recordBase(r)
		g := groups[b]
		n := b
		perOp := false
		if len(g) > 1 {
			n = b + dirWord(r)
			clash := 0
			for _, o := range g {
				if dirWord(o) == dirWord(r) {
					clash++
				}
			}
			if clash > 1 {
				n += opWord(r)
				perOp = true
			}
		}
		base := n
		for i := 2; used[n]; i++ {
			n = fmt.Sprintf("%s%d", base, i)
		}
		used[n] = true
		final[r] = n
		p.emit[r.key] = true
		p.docs[r.key] = checkDoc(r, n, useLabel(r, perOp))
	}
	for k, r := range st.recs {
		p.names[k] = final[r.canon()]
	}
	return p
}

// recordBase is the name suffix of a record before direction and operation
// are added: the accepted types when the body is a type check alone shared
// by several schemas, else its first schema's location.
func recordBase(r *checkRecord) string {
	if r.kind != "" && len(r.also) > 0 {
		return ir.GoName(r.kind)
	}
	return baseName(r.loc)
}

// checkDoc is the doc comment of checkN: the schema it checks and how many
// others share it.
func checkDoc(r *checkRecord, n, label string) string {
	switch {
	case len(r.also) == 0:
		return fmt.Sprintf("Checks %s (%s).", r.loc, label)
	case r.kind != "":
		return fmt.Sprintf("check%s rejects a value that is not %s; it is the whole check of %d schemas (%s).", n, withArticle(r.kind), len(r.also)+1, label)
	}
	return fmt.Sprintf("Checks %s (%s) and the %d other schemas with the same rules.", r.loc, label, len(r.also))
}

// dirWord is the direction part of a function name: empty when one
// function serves both directions.
func dirWord(r *checkRecord) string {
	if len(r.dirs) != 1 {
		return ""
	}
	for d := range r.dirs {
		return ir.GoName(d.String())
	}
	return ""
}

// opWord is the operation part of a function name: empty when the
// function serves every operation that builds it.
func opWord(r *checkRecord) string {
	if len(r.ops) != 1 {
		return ""
	}
	for op := range r.ops {
		return ir.GoName(op)
	}
	return ""
}

// useLabel says, in a function's doc comment, which directions the
// function serves and, when the operation's annotations made its build
// differ (perOp), which operations.
func useLabel(r *checkRecord, perOp bool) string {
	var dirs []string
	for _, d := range []ir.Direction{ir.Request, ir.Response} {
		if r.dirs[d] {
			dirs = append(dirs, d.String())
		}
	}
	label := strings.Join(dirs, " and ")
	var ops []string
	for op := range r.ops {
		if op != "" {
			ops = append(ops, op)
		}
	}
	sort.Strings(ops)
	if perOp && len(ops) > 0 {
		label += "; " + strings.Join(ops, " and ")
	}
	return label
}

// call emits checkX(c, v, at) followed by the quiet-mode early return.
func (st *checkTable) call(s *load.Schema, dir ir.Direction, op string, v, at jen.Code) ([]jen.Code, error) {
	n, err := st.suffixFor(s, dir, op)
	if err != nil {
		return nil, err
	}
	c := jen.Id("check"+n).Call(jen.Id("c"), v, at)
	if st.plan == nil {
		if r := st.recs[schemaKey{loc: s.Loc.String(), dir: dir, op: op}]; r != nil {
			st.refCalls[c] = r
		}
	}
	return []jen.Code{c, st.stopCheck()}, nil
}

// callOnce is call on v itself, or nothing when this body already calls
// the same function there (a type merged from sources that share a base):
// the repeat could only add violations Checker drops as duplicates. The
// first pass keeps every call, so that its texts compare as before.
func (st *checkTable) callOnce(called map[string]bool, s *load.Schema, dir ir.Direction, op string) ([]jen.Code, error) {
	if st.plan != nil {
		n, err := st.suffixFor(s, dir, op)
		if err != nil {
			return nil, err
		}
		if called[n] {
			return nil, nil
		}
		called[n] = true
	}
	return st.call(s, dir, op, jen.Id("v"), jen.Id("at"))
}

// stopCheck is the quiet-mode early return after a nested check.
func (st *checkTable) stopCheck() jen.Code {
	return st.withTail(jen.If(jen.Id("c").Dot("Stop").Call()).Block(jen.Return()), dropAtEnd)
}

// useBranch marks s as a branch and returns its suffix.
func (st *checkTable) useBranch(s *load.Schema, dir ir.Direction, op string) (string, error) {
	n, err := st.suffixFor(s, dir, op)
	if err != nil {
		return "", err
	}
	st.markBranch(n)
	return n, nil
}

// markBranch records that checkX is used as a branch, so that matchX and
// explainX are emitted for it (once, in first-use order).
func (st *checkTable) markBranch(n string) {
	if !st.branch[n] {
		st.branch[n] = true
		st.branches = append(st.branches, n)
	}
}

// branchFuncs emits match and explain, which run a check function quietly
// or for its first message, when some schema is used as a branch.
func (st *checkTable) branchFuncs() []jen.Code {
	if len(st.branches) == 0 {
		return nil
	}
	params := func() []jen.Code {
		return []jen.Code{
			jen.Id("check").Func().Params(jen.Op("*").Qual(checkPkg, "Checker"), jen.Op("*").Qual(checkPkg, "Value"), jen.Op("*").Qual(checkPkg, "Path")),
			jen.Id("v").Op("*").Qual(checkPkg, "Value"), jen.Id("at").Op("*").Qual(checkPkg, "Path"),
		}
	}
	return []jen.Code{
		// Small enough to inline, so that check is called directly and the
		// quiet Checker stays on the stack.
		jen.Comment("match runs check quietly for a yes or no, without messages.").Line().
			Func().Id("match").Params(params()...).Bool().Block(
			jen.Id("q").Op(":=").Qual(checkPkg, "Quiet").Call(),
			jen.Id("check").Call(jen.Op("&").Id("q"), jen.Id("v"), jen.Id("at")),
			jen.Return(jen.Op("!").Id("q").Dot("Failed").Call()),
		),
		jen.Comment("explain returns the first violation check finds, for the message of a failed branch.").Line().
			Func().Id("explain").Params(params()...).String().Block(
			jen.Var().Id("r").Qual(checkPkg, "Checker"),
			jen.Id("check").Call(jen.Op("&").Id("r"), jen.Id("v"), jen.Id("at")),
			jen.Return(jen.Id("r").Dot("First").Call()),
		),
	}
}

// matchCall is match(checkN, args...).
func matchCall(n string, args ...jen.Code) *jen.Statement {
	return jen.Id("match").Call(append([]jen.Code{jen.Id("check" + n)}, args...)...)
}

// explainCall is explain(checkN, args...).
func explainCall(n string, args ...jen.Code) *jen.Statement {
	return jen.Id("explain").Call(append([]jen.Code{jen.Id("check" + n)}, args...)...)
}

// baseName is the name suffix for a schema location, without direction,
// operation or de-duplicating number: the file stem and pointer in Go case.
func baseName(loc load.Loc) string {
	stem := strings.TrimSuffix(loc.File[strings.LastIndex(loc.File, "/")+1:], ".json")
	return ir.GoName(stem + " " + strings.ReplaceAll(loc.Pointer, "/", " "))
}

// newVar declares a package variable for a constant operand, once per
// distinct value, so identical checks stay textually identical.
func (st *checkTable) newVar(prefix string, value jen.Code) string {
	key := prefix + "|" + fmt.Sprintf("%#v", value)
	if n, ok := st.varNames[key]; ok {
		return n
	}
	st.nvars++
	n := fmt.Sprintf("%s%d", prefix, st.nvars)
	st.varNames[key] = n
	st.vars = append(st.vars, jen.Id(n).Op("=").Add(value))
	return n
}

func nodeText(s *load.Schema, key string) string {
	if n := s.Node.Get(key); n != nil && n.Kind == load.Number {
		return n.Num.String()
	}
	return ""
}

// compile returns the body of one check function. Keywords are checked in a
// fixed order ($ref, type, const, enum, then the keywords of the value's
// kind, then allOf, anyOf, oneOf, not, if), so messages come out in a
// stable order. Every assertion keyword the loader accepts is either
// compiled or refused here, so nothing is silently dropped.
func (st *checkTable) compile(s *load.Schema, dir ir.Direction, op string) ([]jen.Code, error) {
	if s.Bool != nil {
		if !*s.Bool {
			return []jen.Code{st.reportThenStop("Never", jen.Id("at"))}, nil
		}
		return nil, nil
	}
	if s.MultipleOf != nil {
		return nil, fmt.Errorf("%s: multipleOf is not supported by the validator", s.Loc)
	}
	var body []jen.Code
	called := map[string]bool{}
	if s.Ref != nil {
		c, err := st.callOnce(called, s.Ref, dir, op)
		if err != nil {
			return nil, err
		}
		body = append(body, c...)
	}
	if len(s.Types) > 0 {
		body = append(body, st.typeCheck(s.Types))
	}
	only := func(t string) bool { return len(s.Types) == 1 && s.Types[0] == t }
	// After "type": "string" has returned on any other kind, the string
	// forms of const and enum need not test the kind again.
	if s.Const != nil {
		body = append(body, st.constCheck(s.Const, only("string")))
	}
	if s.Enum != nil {
		body = append(body, st.enumCheck(s.Enum, s.Loc, only("string")))
	}
	guard := func(kind string, stmts []jen.Code) {
		if len(stmts) == 0 {
			return
		}
		if only(strings.ToLower(kind)) || kind == "Number" && only("integer") {
			body = append(body, stmts...)
			return
		}
		cond := func() jen.Code { return jen.Id("v").Dot("Kind").Op("==").Qual(checkPkg, kind) }
		body = append(body, st.withTail(jen.If(cond()).Block(stmts...), jen.If(cond()).Block(st.trimTail(stmts)...)))
	}
	obj, err := st.objectChecks(s, dir, op)
	if err != nil {
		return nil, err
	}
	guard("Object", obj)
	arr, err := st.arrayChecks(s, dir, op)
	if err != nil {
		return nil, err
	}
	guard("Array", arr)
	str, err := st.stringChecks(s)
	if err != nil {
		return nil, err
	}
	guard("String", str)
	num, err := st.numberChecks(s)
	if err != nil {
		return nil, err
	}
	guard("Number", num)
	for _, a := range s.AllOf {
		c, err := st.callOnce(called, a, dir, op)
		if err != nil {
			return nil, err
		}
		body = append(body, c...)
	}
	comb, err := st.combinators(s, dir, op)
	if err != nil {
		return nil, err
	}
	return append(body, comb...), nil
}

// typeCheck rejects a value of the wrong JSON type and returns: the other
// keywords say nothing useful about such a value.
func (st *checkTable) typeCheck(types []string) jen.Code {
	var bits schemacheck.Types
	for _, t := range types {
		bits |= schemacheck.TypeNamed(t)
	}
	var cond jen.Code
	switch {
	case len(types) == 1 && types[0] == "integer":
		cond = jen.Op("!").Qual(checkPkg, "IsInteger").Call(jen.Id("v"))
	case len(types) == 1:
		kind := map[string]string{"null": "Null", "boolean": "Bool", "object": "Object", "array": "Array", "number": "Number", "string": "String"}[types[0]]
		cond = jen.Id("v").Dot("Kind").Op("!=").Qual(checkPkg, kind)
	default:
		cond = jen.Op("!").Qual(checkPkg, "HasType").Call(jen.Id("v"), jen.Lit(int(bits)))
	}
	report := func() jen.Code {
		return jen.Id("c").Dot("Type").Call(jen.Id("at"), jen.Id("v"), jen.Lit(bits.String()))
	}
	stmt, tail := jen.If(cond).Block(report(), jen.Return()), jen.If(cond).Block(report())
	st.kindOnly[stmt] = bits.String()
	st.kindOnly[tail] = st.kindOnly[stmt]
	return st.withTail(stmt, tail)
}

// failWith emits "if cond && c.Report(args) { return }", or, as a function's
// last statement, "if cond { c.Report(args) }".
func (st *checkTable) failWith(cond jen.Code, report string, args ...jen.Code) jen.Code {
	return st.withTail(jen.If(jen.Add(cond).Op("&&").Id("c").Dot(report).Call(args...)).Block(jen.Return()),
		jen.If(cond).Block(jen.Id("c").Dot(report).Call(args...)))
}

// reportThenStop emits "if c.Report(args) { return }" for reports that test
// their own condition, or, as a function's last statement, the bare call.
func (st *checkTable) reportThenStop(report string, args ...jen.Code) jen.Code {
	return st.withTail(jen.If(jen.Id("c").Dot(report).Call(args...)).Block(jen.Return()), jen.Id("c").Dot(report).Call(args...))
}

// constCheck compares v with the constant; isString says the value is
// already known to be a string.
func (st *checkTable) constCheck(n *load.Node, isString bool) jen.Code {
	text := string(n.JSON())
	var bad jen.Code
	switch {
	case n.Kind == load.String && isString:
		bad = jen.Id("v").Dot("Str").Op("!=").Lit(n.Str)
	case n.Kind == load.String:
		bad = jen.Op("!").Parens(jen.Id("v").Dot("Kind").Op("==").Qual(checkPkg, "String").Op("&&").Id("v").Dot("Str").Op("==").Lit(n.Str))
	default:
		name := st.newVar("constValue", jen.Qual(checkPkg, "MustValue").Call(jen.Lit(text)))
		bad = jen.Op("!").Qual(checkPkg, "Equal").Call(jen.Op("&").Id(name), jen.Id("v"))
	}
	return st.failWith(bad, "Const", jen.Id("at"), jen.Id("v"), jen.Lit(text))
}

// enumCheck compiles an all-string enum to a switch and anything else to a
// JSON-equality scan over package variables; isString says the value is
// already known to be a string.
func (st *checkTable) enumCheck(values []*load.Node, loc load.Loc, isString bool) jen.Code {
	texts := make([]string, len(values))
	allStrings := true
	for i, e := range values {
		texts[i] = string(e.JSON())
		allStrings = allStrings && e.Kind == load.String
	}
	parsed := make([]schemacheck.Value, len(texts))
	for i, t := range texts {
		parsed[i] = schemacheck.MustValue(t)
	}
	list := schemacheck.EnumText(parsed)
	var bad jen.Code
	if allStrings {
		key := strings.Join(texts, "\x00")
		fn, seen := st.enumFn[key]
		if !seen {
			// Named after the first schema that lists these values; a later
			// schema with the same list shares the function.
			fn = "inEnum" + baseName(loc)
			for i := 2; st.enumNames[fn]; i++ {
				fn = fmt.Sprintf("inEnum%s%d", baseName(loc), i)
			}
			st.enumNames[fn] = true
			st.enumFn[key] = fn
			var lits []jen.Code
			for _, e := range values {
				lits = append(lits, jen.Lit(e.Str))
			}
			st.funcs = append(st.funcs, jen.Commentf("%s reports whether s is one of the strings %s lists.", fn, loc).Line().Func().Id(fn).Params(jen.Id("s").String()).Bool().Block(
				jen.Switch(jen.Id("s")).Block(jen.Case(lits...).Block(jen.Return(jen.True()))),
				jen.Return(jen.False()),
			))
		}
		bad = jen.Op("!").Id(fn).Call(jen.Id("v").Dot("Str"))
		if !isString {
			bad = jen.Op("!").Parens(jen.Id("v").Dot("Kind").Op("==").Qual(checkPkg, "String").Op("&&").Id(fn).Call(jen.Id("v").Dot("Str")))
		}
	} else {
		var vals []jen.Code
		for _, t := range texts {
			vals = append(vals, jen.Qual(checkPkg, "MustValue").Call(jen.Lit(t)))
		}
		name := st.newVar("enumValues", jen.Index().Qual(checkPkg, "Value").Values(vals...))
		bad = jen.Op("!").Qual(checkPkg, "InEnum").Call(jen.Id("v"), jen.Id(name))
	}
	return st.failWith(bad, "Enum", jen.Id("at"), jen.Id("v"), jen.Lit(list))
}

// required applies the direction's annotations to the required list and
// returns the properties that remain.
func required(s *load.Schema, dir ir.Direction, op string) ([]string, []*load.Property, error) {
	req := append([]string(nil), s.Required...)
	var props []*load.Property
	for _, p := range s.Properties {
		ann, err := ir.Annotation(p.Schema, dir, op)
		if err != nil {
			return nil, nil, err
		}
		switch ann {
		case "omit":
			req = without(req, p.Name)
			continue
		case "optional":
			req = without(req, p.Name)
		case "required":
			if !slices.Contains(req, p.Name) {
				req = append(req, p.Name)
			}
		}
		props = append(props, p)
	}
	return req, props, nil
}

func (st *checkTable) objectChecks(s *load.Schema, dir ir.Direction, op string) ([]jen.Code, error) {
	v, at := jen.Id("v"), jen.Id("at")
	nMembers := jen.Len(jen.Id("v").Dot("Members"))
	var out []jen.Code
	if s.MinProperties != nil && *s.MinProperties > 0 {
		out = append(out, st.failWith(nMembers.Clone().Op("<").Lit(*s.MinProperties), "MinProperties", at, v, jen.Lit(*s.MinProperties)))
	}
	if s.MaxProperties != nil {
		out = append(out, st.failWith(jen.Len(jen.Id("v").Dot("Members")).Op(">").Lit(*s.MaxProperties), "MaxProperties", at, v, jen.Lit(*s.MaxProperties)))
	}
	req, props, err := required(s, dir, op)
	if err != nil {
		return nil, err
	}
	if len(req) > 0 {
		names := []jen.Code{at, v}
		for _, r := range req {
			names = append(names, jen.Lit(r))
		}
		out = append(out, st.reportThenStop("Require", names...))
	}
	for _, d := range s.DependentRequired {
		var inner []jen.Code
		for _, r := range d.Requires {
			inner = append(inner, st.failWith(jen.Id("v").Dot("Get").Call(jen.Lit(r)).Op("==").Nil(), "DependentRequired", at, jen.Lit(r), jen.Lit(d.Property)))
		}
		present := func() jen.Code { return jen.Id("v").Dot("Get").Call(jen.Lit(d.Property)).Op("!=").Nil() }
		out = append(out, st.withTail(jen.If(present()).Block(inner...), jen.If(present()).Block(st.trimTail(inner)...)))
	}
	ap := s.AdditionalProperties
	if ap.IsBool(true) {
		ap = nil
	}
	if len(props) == 0 && ap == nil && s.PropertyNames == nil {
		return out, nil
	}
	mv, mp := jen.Op("&").Id("m").Dot("Value"), jen.Op("&").Id("mp")
	var loop []jen.Code
	loop = append(loop,
		jen.Id("m").Op(":=").Op("&").Id("v").Dot("Members").Index(jen.Id("i")),
		jen.Id("mp").Op(":=").Id("at").Dot("Member").Call(jen.Id("m").Dot("Name")),
	)
	var nameCheck string // the propertyNames check's suffix, when there is one
	if s.PropertyNames != nil {
		n, err := st.useBranch(s.PropertyNames, dir, op)
		if err != nil {
			return nil, err
		}
		nameCheck = n
		loop = append(loop, jen.If(
			jen.Id("nv").Op(":=").Qual(checkPkg, "NameValue").Call(jen.Id("m").Dot("Name")),
			jen.Op("!").Add(matchCall(n, jen.Op("&").Id("nv"), jen.Op("&").Id("mp"))),
		).Block(
			jen.If(jen.Id("c").Dot("Fail").Call()).Block(
				jen.Id("c").Dot("Add").Call(jen.Op("&").Id("mp"), jen.Lit("propertyNames"),
					jen.Qual(checkPkg, "PropertyNameMessage").Call(jen.Id("m").Dot("Name"), explainCall(n, jen.Op("&").Id("nv"), jen.Nil()))),
			),
			st.stopCheck(),
		))
	}
	// Members checked by the same function share one case.
	var order []string
	names := map[string][]jen.Code{}
	for _, p := range props {
		n, err := st.suffixFor(p.Schema, dir, op)
		if err != nil {
			return nil, err
		}
		if names[n] == nil {
			order = append(order, n)
		}
		names[n] = append(names[n], jen.Lit(p.Name))
	}
	var cases []jen.Code
	for _, n := range order {
		cases = append(cases, jen.Case(names[n]...).Block(jen.Id("check"+n).Call(jen.Id("c"), mv.Clone(), mp.Clone())))
	}
	switch {
	case ap.IsBool(false):
		cases = append(cases, jen.Default().Block(jen.Id("c").Dot("Additional").Call(mp.Clone(), jen.Id("m").Dot("Name"))))
	case ap != nil:
		n, err := st.suffixFor(ap, dir, op)
		if err != nil {
			return nil, err
		}
		cases = append(cases, jen.Default().Block(jen.Id("check"+n).Call(jen.Id("c"), mv.Clone(), mp.Clone())))
	}
	if len(cases) > 0 {
		loop = append(loop, jen.Switch(jen.Id("m").Dot("Name")).Block(cases...), st.stopCheck())
	}
	each := jen.For(jen.Id("i").Op(":=").Range().Id("v").Dot("Members")).Block(loop...)
	if len(props) > 0 || !containerItems(ap) {
		return append(out, each), nil
	}
	// A map of objects (a store's amenities) repeats across records as
	// an array of them does: its members' checks are remembered alike.
	n, err := st.suffixFor(ap, dir, op)
	if err != nil {
		return nil, err
	}
	key := n + "Members"
	if nameCheck != "" {
		key += "Named" + nameCheck
	}
	return append(out, st.rememberPassed(key, each)), nil
}

func (st *checkTable) arrayChecks(s *load.Schema, dir ir.Direction, op string) ([]jen.Code, error) {
	v, at := jen.Id("v"), jen.Id("at")
	var out []jen.Code
	if s.MinItems != nil && *s.MinItems > 0 {
		out = append(out, st.failWith(jen.Len(jen.Id("v").Dot("Items")).Op("<").Lit(*s.MinItems), "MinItems", at, v, jen.Lit(*s.MinItems)))
	}
	if s.MaxItems != nil {
		out = append(out, st.failWith(jen.Len(jen.Id("v").Dot("Items")).Op(">").Lit(*s.MaxItems), "MaxItems", at, v, jen.Lit(*s.MaxItems)))
	}
	if s.UniqueItems {
		out = append(out, st.reportThenStop("Unique", at, v))
	}
	if s.Contains != nil {
		c, err := st.containsCheck(s, dir, op)
		if err != nil {
			return nil, err
		}
		out = append(out, c...)
	}
	if s.Items != nil && !s.Items.IsBool(true) {
		n, err := st.suffixFor(s.Items, dir, op)
		if err != nil {
			return nil, err
		}
		each := jen.For(jen.Id("i").Op(":=").Range().Id("v").Dot("Items")).Block(
			jen.Id("ip").Op(":=").Id("at").Dot("Item").Call(jen.Id("i")),
			jen.Id("check"+n).Call(jen.Id("c"), jen.Op("&").Id("v").Dot("Items").Index(jen.Id("i")), jen.Op("&").Id("ip")),
			st.stopCheck(),
		)
		if !containerItems(s.Items) {
			return append(out, each), nil
		}
		out = append(out, st.rememberPassed(n, each))
	}
	return out, nil
}

// rememberPassed wraps the loop that checks an array's items against
// check<n> (or, for n = <m>Members, an object's members against check<m>)
// so that a value whose text passed before is not checked again
// (schemacheck.Passed): arrays and maps of objects repeat word for word
// across the records of a dataset, such as a chain's opening hours and
// amenities. One Passed serves every value whose loop is the same.
func (st *checkTable) rememberPassed(n string, each jen.Code) jen.Code {
	name, ok := st.passedNames[n]
	if !ok {
		name = "passed" + n
		st.passedNames[n] = name
		st.vars = append(st.vars, jen.Id(name).Op("=").Op("&").Qual(checkPkg, "Passed").Values())
	}
	return jen.If(jen.Op("!").Id(name).Dot("HasValue").Call(jen.Id("v"))).Block(
		jen.Id("failed").Op(":=").Id("c").Dot("Failed").Call(),
		each,
		jen.If(jen.Op("!").Id("failed").Op("&&").Op("!").Id("c").Dot("Failed").Call()).Block(
			jen.Id(name).Dot("AddValue").Call(jen.Id("v")),
		),
	)
}

// containerItems reports whether items (through $ref and allOf) says its
// values are objects or arrays: the arrays worth remembering, whose items
// take more to check than their text takes to look up.
func containerItems(items *load.Schema) bool {
	return items.Reaches(func(s *load.Schema) bool {
		return len(s.Types) == 1 && (s.Types[0] == "object" || s.Types[0] == "array")
	})
}

// containsCheck counts the items matching the contains schema (quietly,
// through matchX) and reports a count outside [minContains, maxContains].
// Counting stops once the count passes both bounds' reach: at min when
// there is no max, and past max otherwise.
func (st *checkTable) containsCheck(s *load.Schema, dir ir.Direction, op string) ([]jen.Code, error) {
	min, max := 1, -1
	if s.MinContains != nil {
		min = *s.MinContains
	}
	if s.MaxContains != nil {
		max = *s.MaxContains
	}
	if min == 0 && max < 0 {
		return nil, nil // every array has at least zero matching items
	}
	n, err := st.useBranch(s.Contains, dir, op)
	if err != nil {
		return nil, err
	}
	limit := jen.Lit(min)
	if max >= 0 {
		limit = jen.Lit(max + 1)
	}
	at := jen.Id("at")
	count := jen.For(jen.Id("i").Op(":=").Range().Id("v").Dot("Items")).Block(
		jen.Id("ip").Op(":=").Id("at").Dot("Item").Call(jen.Id("i")),
		jen.If(matchCall(n, jen.Op("&").Id("v").Dot("Items").Index(jen.Id("i")), jen.Op("&").Id("ip"))).Block(
			jen.Id("matched").Op("++"),
			jen.If(jen.Id("matched").Op("==").Add(limit)).Block(jen.Break()),
		),
	)
	report := st.reportThenStop("Contains", at, jen.Id("matched"), jen.Lit(min), jen.Lit(max), jen.Lit(s.MinContains != nil))
	return []jen.Code{jen.Id("matched").Op(":=").Lit(0), count, report}, nil
}

func (st *checkTable) stringChecks(s *load.Schema) ([]jen.Code, error) {
	v, at := jen.Id("v"), jen.Id("at")
	var out []jen.Code
	if (s.MinLength != nil && *s.MinLength > 0) || s.MaxLength != nil {
		min, max := 0, -1
		if s.MinLength != nil {
			min = *s.MinLength
		}
		if s.MaxLength != nil {
			max = *s.MaxLength
		}
		out = append(out, st.reportThenStop("Length", at, v, jen.Lit(min), jen.Lit(max)))
	}
	// A field with a format is checked against the format first, and a
	// pattern that narrows the format is reported by the format's name:
	// "must be a date-time in the form this field requires" says more to a
	// client than the regular expression.
	if s.Format != "" {
		out = append(out, st.reportThenStop("Format", at, v, jen.Lit(s.Format)))
	}
	if s.Pattern != "" {
		if _, err := schemacheck.TranslatePattern(s.Pattern); err != nil {
			return nil, fmt.Errorf("%s: %w", s.Loc, err)
		}
		re, ok := st.patterns[s.Pattern]
		if !ok {
			re = st.newVar("pattern", jen.Qual(checkPkg, "Pattern").Call(jen.Lit(s.Pattern)))
			st.patterns[s.Pattern] = re
		}
		mismatch := jen.Op("!").Id(re).Dot("MatchString").Call(jen.Id("v").Dot("Str"))
		if s.Format == "" {
			out = append(out, st.failWith(mismatch, "Pattern", at, v, jen.Lit(s.Pattern)))
		} else {
			// A value the format already rejected has its message; the
			// pattern speaks only for values the format accepts.
			msg := fmt.Sprintf("must be %s in the form this field requires, got ", withArticle(s.Format))
			formatOK := jen.Qual(checkPkg, "CheckFormat").Call(jen.Lit(s.Format), jen.Id("v").Dot("Str")).Op("==").Nil()
			out = append(out,
				jen.If(jen.Add(mismatch).Op("&&").Add(formatOK).Op("&&").Id("c").Dot("Fail").Call()).Block(
					jen.Id("c").Dot("Add").Call(at, jen.Lit("pattern"), jen.Lit(msg).Op("+").Qual("strconv", "Quote").Call(jen.Id("v").Dot("Str"))),
				),
				st.stopCheck())
		}
	}
	return out, nil
}

func (st *checkTable) numberChecks(s *load.Schema) ([]jen.Code, error) {
	var out []jen.Code
	for _, b := range []struct {
		name string
		has  bool
	}{{"minimum", s.Minimum != nil}, {"maximum", s.Maximum != nil}, {"exclusiveMinimum", s.ExclusiveMinimum != nil}, {"exclusiveMaximum", s.ExclusiveMaximum != nil}} {
		if !b.has {
			continue
		}
		text := nodeText(s, b.name)
		val, err := schemacheck.Parse([]byte(text))
		if err != nil || val.Kind != schemacheck.Number {
			return nil, fmt.Errorf("%s: %s must be a number", s.Loc, b.name)
		}
		name := st.newVar("bound", jen.Qual(checkPkg, "Bound").Values(jen.Dict{
			jen.Id("F"):    jen.Lit(val.Num),
			jen.Id("Text"): jen.Lit(text),
		}))
		out = append(out, st.reportThenStop("Bound", jen.Id("at"), jen.Id("v"), jen.Lit(b.name), jen.Op("&").Id(name)))
	}
	return out, nil
}

// combinators compiles anyOf, oneOf, not and if/then/else. Branches run
// quietly through matchX; messages (explainX) are built only when the
// combinator fails and the run is not itself quiet.
func (st *checkTable) combinators(s *load.Schema, dir ir.Direction, op string) ([]jen.Code, error) {
	v, at := jen.Id("v"), jen.Id("at")
	var out []jen.Code
	branchNames := func(xs []*load.Schema) ([]string, error) {
		var ns []string
		for _, x := range xs {
			n, err := st.useBranch(x, dir, op)
			if err != nil {
				return nil, err
			}
			ns = append(ns, n)
		}
		return ns, nil
	}
	explains := func(ns []string) []jen.Code {
		var cs []jen.Code
		for _, n := range ns {
			cs = append(cs, explainCall(n, v, at))
		}
		return cs
	}
	if len(s.AnyOf) > 0 {
		ns, err := branchNames(s.AnyOf)
		if err != nil {
			return nil, err
		}
		var any jen.Code
		for i, n := range ns {
			m := matchCall(n, v, at)
			if i == 0 {
				any = m
			} else {
				any = jen.Add(any).Op("||").Add(m)
			}
		}
		report := jen.If(jen.Id("c").Dot("Fail").Call()).Block(
			jen.Id("c").Dot("Add").Call(at, jen.Lit("anyOf"), jen.Qual(checkPkg, "AnyOfMessage").Call(explains(ns)...)),
		)
		out = append(out, st.withTail(jen.If(jen.Op("!").Parens(any)).Block(report, st.stopCheck()), jen.If(jen.Op("!").Parens(any)).Block(report)))
	}
	if len(s.OneOf) > 0 {
		ns, err := branchNames(s.OneOf)
		if err != nil {
			return nil, err
		}
		var ms []jen.Code
		for _, n := range ns {
			ms = append(ms, matchCall(n, v, at))
		}
		oneOf := func(stop ...jen.Code) jen.Code {
			return jen.If(
				jen.Id("matched").Op(":=").Index(jen.Lit(len(ns))).Bool().Values(ms...),
				jen.Qual(checkPkg, "CountTrue").Call(jen.Id("matched").Index(jen.Empty(), jen.Empty())).Op("!=").Lit(1),
			).Block(append([]jen.Code{
				jen.If(jen.Id("c").Dot("Fail").Call()).Block(
					jen.Id("c").Dot("Add").Call(at, jen.Lit("oneOf"), jen.Qual(checkPkg, "OneOfMessage").Call(append([]jen.Code{jen.Id("matched").Index(jen.Empty(), jen.Empty())}, explains(ns)...)...)),
				)}, stop...)...)
		}
		out = append(out, st.withTail(oneOf(st.stopCheck()), oneOf()))
	}
	if s.Not != nil {
		n, err := st.useBranch(s.Not, dir, op)
		if err != nil {
			return nil, err
		}
		out = append(out, st.failWith(matchCall(n, v, at), "Not", at))
	}
	if s.If != nil && (s.Then != nil || s.Else != nil) {
		n, err := st.useBranch(s.If, dir, op)
		if err != nil {
			return nil, err
		}
		var then, els []jen.Code
		if s.Then != nil {
			if then, err = st.call(s.Then, dir, op, v, at); err != nil {
				return nil, err
			}
		}
		if s.Else != nil {
			if els, err = st.call(s.Else, dir, op, v, at); err != nil {
				return nil, err
			}
		}
		build := func(then, els []jen.Code) jen.Code {
			stmt := jen.If(matchCall(n, v, at)).Block(then...)
			if len(els) > 0 {
				stmt = stmt.Else().Block(els...)
			}
			return stmt
		}
		out = append(out, st.withTail(build(then, els), build(st.trimTail(then), st.trimTail(els))))
	}
	return out, nil
}

func without(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}
