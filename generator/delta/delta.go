package delta

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Op says whether a change adds, removes or alters something.
type Op string

// The three ways a part of the surface can change.
const (
	Added   Op = "added"
	Removed Op = "removed"
	Changed Op = "changed"
)

// sign is the report's one-character mark for the op.
func (o Op) sign() string {
	switch o {
	case Added:
		return "+"
	case Removed:
		return "-"
	}
	return "~"
}

// Kinds of surface part a Change is about, in the order the report lists
// them: what a Business serves first, then the Go types its code uses.
const (
	KindCapability  = "capability"
	KindMethod      = "method"
	KindParam       = "param"
	KindRESTBinding = "REST binding"
	KindRESTOp      = "REST operation"
	KindRESTHeader  = "REST header"
	KindType        = "type"
	KindMember      = "member"
	KindVariant     = "variant"
	KindEnumValue   = "enum value"
)

var kindOrder = []string{KindCapability, KindMethod, KindParam, KindRESTBinding, KindRESTOp, KindRESTHeader, KindType, KindMember, KindVariant, KindEnumValue}

// notServed is what the report says of a new capability and its methods:
// the Business must write their hooks before it can offer them.
const notServed = "not served until implemented"

// Change is one line of the report, kept structured so that the JSON
// output and Breaking need not parse text.
type Change struct {
	Op   Op     `json:"change"`
	Kind string `json:"kind"`
	// Subject names the part: a capability or method name, "Type.member",
	// "POST /path", `Type "value"`.
	Subject string `json:"subject"`
	// Detail says what it is or became, in a few words.
	Detail string `json:"detail,omitempty"`
	// Breaking is true when Business code written for the old surface no
	// longer builds or no longer behaves as written.
	Breaking bool `json:"breaking"`
}

// Delta is what changed between two surfaces, sorted in report order so
// every renderer prints the changes as they are.
type Delta struct {
	// From and To label the two surfaces in the report: their UCP
	// versions, or what the caller passed to CompareAs.
	From    string   `json:"from"`
	To      string   `json:"to"`
	Changes []Change `json:"changes"`
}

// Breaking reports whether some change breaks Business code, so a CI step
// or the diff command's exit code can stop on it.
func (d *Delta) Breaking() bool {
	return slices.ContainsFunc(d.Changes, func(c Change) bool { return c.Breaking })
}

// Empty reports whether the two surfaces are the same, in which case there
// is nothing to report.
func (d *Delta) Empty() bool { return len(d.Changes) == 0 }

// unversioned labels a surface whose tree states no UCP version.
const unversioned = "(unversioned)"

// Compare computes what changes from one surface to the next, labelling
// each by its UCP version.
func Compare(from, to *Surface) *Delta {
	return CompareAs(from, to, label(from.Version), label(to.Version))
}

// CompareAs is Compare with the labels the report uses for the two
// surfaces, for a caller that names a tree stating no version by its path.
func CompareAs(from, to *Surface, fromLabel, toLabel string) *Delta {
	c := &comparer{from: from, to: to, d: &Delta{From: fromLabel, To: toLabel, Changes: []Change{}}}
	c.methods()
	c.capabilities()
	c.rest()
	c.types()
	slices.SortStableFunc(c.d.Changes, func(a, b Change) int {
		return cmp.Or(
			cmp.Compare(slices.Index(kindOrder, a.Kind), slices.Index(kindOrder, b.Kind)),
			strings.Compare(a.Subject, b.Subject),
			cmp.Compare(opRank(a.Op), opRank(b.Op)),
		)
	})
	return c.d
}

func label(version string) string {
	if version == "" {
		return unversioned
	}
	return version
}

// opRank orders the changes of one subject: removed, changed, added.
func opRank(o Op) int { return map[Op]int{Removed: 0, Changed: 1, Added: 2}[o] }

type comparer struct {
	from, to *Surface
	d        *Delta
	// addedMethods and removedMethods are the method names only one side
	// has; keptMethods both.
	addedMethods, removedMethods, keptMethods []string
}

func (c *comparer) add(op Op, kind, subject, detail string, breaking bool) {
	c.d.Changes = append(c.d.Changes, Change{Op: op, Kind: kind, Subject: subject, Detail: detail, Breaking: breaking})
}

// index maps each element's name to it.
func index[T any](xs []T, name func(T) string) map[string]T {
	out := make(map[string]T, len(xs))
	for _, x := range xs {
		out[name(x)] = x
	}
	return out
}

// split sorts the names of two indexes into only-old, only-new and both.
func split[T any](old, next map[string]T) (removed, added, kept []string) {
	for _, k := range sortedKeys(old) {
		if _, ok := next[k]; ok {
			kept = append(kept, k)
		} else {
			removed = append(removed, k)
		}
	}
	for _, k := range sortedKeys(next) {
		if _, ok := old[k]; !ok {
			added = append(added, k)
		}
	}
	return removed, added, kept
}

func (c *comparer) capabilities() {
	name := func(x Capability) string { return x.Name }
	old, next := index(c.from.Capabilities, name), index(c.to.Capabilities, name)
	removed, added, _ := split(old, next)
	for _, n := range removed {
		if n != "" {
			c.add(Removed, KindCapability, n, "methods "+strings.Join(old[n].Methods, ", "), true)
		}
	}
	for _, n := range added {
		if n != "" {
			c.add(Added, KindCapability, n, "methods "+strings.Join(next[n].Methods, ", ")+"; "+notServed, false)
		}
	}
}

func (c *comparer) methods() {
	name := func(x Method) string { return x.Name }
	old, next := index(c.from.Methods, name), index(c.to.Methods, name)
	c.removedMethods, c.addedMethods, c.keptMethods = split(old, next)
	oldCaps := index(c.from.Capabilities, func(x Capability) string { return x.Name })
	oldTypes := index(c.from.Types, func(x Type) string { return x.Name })
	newTypes := index(c.to.Types, func(x Type) string { return x.Name })
	for _, n := range c.removedMethods {
		m := old[n]
		detail := "was in " + capLabel(m.Capability)
		if gone := onlyVia(m, c.from, c.removedMethods, newTypes); len(gone) > 0 {
			detail += "; with types " + strings.Join(gone, ", ")
		}
		c.add(Removed, KindMethod, n, detail, true)
	}
	for _, n := range c.addedMethods {
		m := next[n]
		// Each capability is served when the Business's hooks implement
		// all of its methods, so a method added to a capability it already
		// serves stops that capability until the new hook is written.
		detail, breaking := "in "+capLabel(m.Capability)+"; "+notServed, false
		if _, existed := oldCaps[m.Capability]; existed && m.Capability != "" {
			detail, breaking = "in existing "+m.Capability+", which is not served until it is implemented", true
		}
		if brought := onlyVia(m, c.to, c.addedMethods, oldTypes); len(brought) > 0 {
			detail += "; new types " + strings.Join(brought, ", ")
		}
		c.add(Added, KindMethod, n, detail, breaking)
	}
	for _, n := range c.keptMethods {
		o, m := old[n], next[n]
		if o.Capability != m.Capability {
			c.add(Changed, KindMethod, n, fmt.Sprintf("now in %s (was %s)", capLabel(m.Capability), capLabel(o.Capability)), true)
		}
		if o.Result != m.Result {
			c.add(Changed, KindMethod, n, fmt.Sprintf("result %s (was %s)", orNone(m.Result), orNone(o.Result)), true)
		}
		c.params(o, m)
	}
}

// onlyVia lists the types of m (a method only side has) that the other
// surface lacks and that no method both sides have reaches: the types that
// arrive or leave with m, named under it instead of member by member.
func onlyVia(m Method, side *Surface, only []string, other map[string]Type) []string {
	kept := reachedBy(side, only)
	var out []string
	for _, t := range m.Types {
		if _, both := other[t]; !both && !kept[t] {
			out = append(out, t)
		}
	}
	return out
}

// reachedBy is the set of types that side's methods reach, leaving out
// the methods named in except.
func reachedBy(side *Surface, except []string) map[string]bool {
	out := map[string]bool{}
	for _, m := range side.Methods {
		if !slices.Contains(except, m.Name) {
			for _, t := range m.Types {
				out[t] = true
			}
		}
	}
	return out
}

// count is n with the noun, plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func capLabel(name string) string {
	if name == "" {
		return "no capability"
	}
	return name
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// params compares the arguments of a method both sides have. Each is an
// argument of the method's hook, so any change to one changes the hook's
// signature or what it may receive.
func (c *comparer) params(o, m Method) {
	name := func(x Param) string { return x.Name }
	old, next := index(o.Params, name), index(m.Params, name)
	removed, added, kept := split(old, next)
	for _, n := range removed {
		c.add(Removed, KindParam, m.Name+"."+n, "was "+paramLabel(old[n]), true)
	}
	for _, n := range added {
		c.add(Added, KindParam, m.Name+"."+n, paramLabel(next[n]), true)
	}
	for _, n := range kept {
		a, b := old[n], next[n]
		if a.Required != b.Required || a.Type != b.Type {
			c.add(Changed, KindParam, m.Name+"."+n, fmt.Sprintf("%s (was %s)", paramLabel(b), paramLabel(a)), true)
		}
	}
}

func paramLabel(p Param) string { return requiredness(p.Required) + " " + p.Type }

func requiredness(required bool) string {
	if required {
		return "required"
	}
	return "optional"
}

func (c *comparer) rest() {
	switch {
	case c.from.REST == nil && c.to.REST == nil:
		return
	case c.to.REST == nil:
		c.add(Removed, KindRESTBinding, "", fmt.Sprintf("not in %s; the package loses its REST handler (%s)", c.d.To, count(len(c.from.REST.Operations), "operation")), true)
		return
	}
	newOps := c.to.REST.Operations
	// existing are the operations of the new binding that bind a method
	// the old surface has: the headers they share are no news on a new
	// operation.
	existing := map[string]bool{}
	anyExisting := false
	for _, op := range newOps {
		if !slices.Contains(c.addedMethods, op.ID) {
			anyExisting = true
			for _, h := range op.Headers {
				existing[strings.ToLower(h.Name)] = true
			}
		}
	}
	addedOp := func(op Operation) {
		var extra []string
		for _, h := range op.Headers {
			if !existing[strings.ToLower(h.Name)] {
				extra = append(extra, fmt.Sprintf("%s (%s)", h.Name, requiredness(h.Required)))
			}
		}
		detail := "binds " + op.ID
		switch {
		case !anyExisting && len(extra) > 0:
			detail += "; headers " + strings.Join(extra, ", ")
		case len(extra) == 1:
			detail += "; header " + extra[0] + " besides those of the other operations"
		case len(extra) > 1:
			detail += "; headers " + strings.Join(extra, ", ") + " besides those of the other operations"
		case anyExisting:
			detail += "; the headers of the other operations"
		}
		c.add(Added, KindRESTOp, op.Method+" "+op.Path, detail, false)
	}
	if c.from.REST == nil {
		c.add(Added, KindRESTBinding, "", fmt.Sprintf("not in %s; only the operations of new methods are listed", c.d.From), false)
		for _, op := range newOps {
			if slices.Contains(c.addedMethods, op.ID) {
				addedOp(op)
			}
		}
		return
	}
	key := func(o Operation) string { return o.Method + " " + o.Path }
	old, next := index(c.from.REST.Operations, key), index(newOps, key)
	removed, added, kept := split(old, next)
	for _, k := range removed {
		c.add(Removed, KindRESTOp, k, "bound "+old[k].ID, true)
	}
	for _, k := range added {
		addedOp(next[k])
	}
	for _, k := range kept {
		a, b := old[k], next[k]
		if a.ID != b.ID {
			c.add(Changed, KindRESTOp, k, fmt.Sprintf("binds %s (was %s)", b.ID, a.ID), true)
		}
		hname := func(h Header) string { return strings.ToLower(h.Name) }
		oh, nh := index(a.Headers, hname), index(b.Headers, hname)
		hr, ha, hk := split(oh, nh)
		for _, n := range hr {
			c.add(Removed, KindRESTHeader, k+" "+oh[n].Name, "was "+requiredness(oh[n].Required), false)
		}
		for _, n := range ha {
			c.add(Added, KindRESTHeader, k+" "+nh[n].Name, requiredness(nh[n].Required), false)
		}
		for _, n := range hk {
			if oh[n].Required != nh[n].Required {
				c.add(Changed, KindRESTHeader, k+" "+nh[n].Name, fmt.Sprintf("now %s", requiredness(nh[n].Required)), false)
			}
		}
	}
}

func (c *comparer) types() {
	name := func(x Type) string { return x.Name }
	old, next := index(c.from.Types, name), index(c.to.Types, name)
	removed, added, kept := split(old, next)
	// A type that came or went with a method is named under the method;
	// the others, reached from a method both sides have, get a line each.
	oldKept, newKept := reachedBy(c.from, c.removedMethods), reachedBy(c.to, c.addedMethods)
	for _, n := range removed {
		if oldKept[n] {
			c.add(Removed, KindType, n, "was "+summary(old[n]), true)
		}
	}
	for _, n := range added {
		if newKept[n] {
			c.add(Added, KindType, n, summary(next[n]), false)
		}
	}
	for _, n := range kept {
		c.typeChanges(old[n], next[n])
	}
}

// summary describes a type in one phrase for its line in the report.
func summary(t Type) string {
	switch {
	case t.Kind == "struct":
		var ms []string
		for _, m := range t.Members {
			ms = append(ms, fmt.Sprintf("%s (%s)", m.Name, paramLabel(Param{Required: m.Required, Type: m.Type})))
		}
		if len(ms) == 0 {
			return "struct without members"
		}
		return "struct: " + strings.Join(ms, ", ")
	case t.Kind == "union":
		var vs []string
		for _, v := range t.Variants {
			vs = append(vs, v.Type)
		}
		return "union of " + strings.Join(vs, ", ")
	case t.Of != "":
		return t.Of
	case len(t.Enum) > 0:
		return t.Kind + " enum: " + quoteAll(t.Enum)
	}
	return t.Kind
}

func quoteAll(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// goField is a member's Go field type: opt.Value[T] when optional.
func goField(m Member) string {
	if m.Required {
		return m.Type
	}
	return "opt.Value[" + m.Type + "]"
}

// typeChanges compares a type both sides have.
func (c *comparer) typeChanges(o, t Type) {
	if o.Kind != t.Kind {
		c.add(Changed, KindType, t.Name, fmt.Sprintf("now %s (was %s)", summary(t), summary(o)), true)
		return
	}
	if o.Of != t.Of {
		c.add(Changed, KindType, t.Name, fmt.Sprintf("now %s (was %s)", t.Of, o.Of), true)
	}
	mname := func(x Member) string { return x.Name }
	om, nm := index(o.Members, mname), index(t.Members, mname)
	removed, added, kept := split(om, nm)
	for _, n := range removed {
		c.add(Removed, KindMember, t.Name+"."+n, "was "+paramLabel(Param{Required: om[n].Required, Type: om[n].Type}), true)
	}
	for _, n := range added {
		c.add(Added, KindMember, t.Name+"."+n, paramLabel(Param{Required: nm[n].Required, Type: nm[n].Type}), false)
	}
	for _, n := range kept {
		a, b := om[n], nm[n]
		var what []string
		if a.Required != b.Required {
			what = append(what, "now "+requiredness(b.Required))
		}
		if a.Type != b.Type {
			what = append(what, "type changed")
		}
		if len(what) > 0 {
			c.add(Changed, KindMember, t.Name+"."+n, fmt.Sprintf("%s: %s (was %s)", strings.Join(what, ", "), goField(b), goField(a)), true)
		}
	}
	vname := func(x Variant) string { return x.Name }
	ov, nv := index(o.Variants, vname), index(t.Variants, vname)
	removed, added, kept = split(ov, nv)
	for _, n := range removed {
		c.add(Removed, KindVariant, t.Name+"."+n, "was "+ov[n].Type, true)
	}
	for _, n := range added {
		c.add(Added, KindVariant, t.Name+"."+n, nv[n].Type, false)
	}
	for _, n := range kept {
		if ov[n].Type != nv[n].Type {
			c.add(Changed, KindVariant, t.Name+"."+n, fmt.Sprintf("%s (was %s)", nv[n].Type, ov[n].Type), true)
		}
	}
	for _, e := range o.Enum {
		if !slices.Contains(t.Enum, e) {
			c.add(Removed, KindEnumValue, fmt.Sprintf("%s %q", t.Name, e), "", true)
		}
	}
	for _, e := range t.Enum {
		if !slices.Contains(o.Enum, e) {
			c.add(Added, KindEnumValue, fmt.Sprintf("%s %q", t.Name, e), "", false)
		}
	}
}
