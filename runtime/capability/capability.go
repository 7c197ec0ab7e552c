// Package capability decides which UCP capabilities a Business serves, from
// the hook interfaces its value implements. A generated package has one hook
// interface per capability; a Business implements those it adopts, so a new
// UCP release that only adds capabilities changes nothing it wrote and
// serves nothing it did not implement.
package capability

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Capability is one capability of a generated package, as the package
// describes it to the resolver; T is what serving it takes (the runtime's
// tool description).
type Capability[T any] struct {
	// Name is the UCP capability name (dev.ucp.common.location.search),
	// Schema the URL of its published schema and Spec that of its
	// specification page, for the profile.
	Name, Schema, Spec string
	// Interface is the hook interface's type (reflect.TypeFor of it),
	// whose name and methods errors cite.
	Interface reflect.Type
	// Bind returns what serves the capability through hooks, or false
	// when hooks does not implement Interface.
	Bind func(hooks any) ([]T, bool)
}

// Served is a capability that a Business's hooks implement, bound to them.
type Served[T any] struct {
	Name, Schema, Spec string
	Items              []T
}

// composite is hooks made of several values, each serving its own
// capabilities.
type composite struct{ parts []any }

// narrowed is hooks that serve fewer capabilities than they implement.
type narrowed struct {
	hooks any
	// omit are the capabilities left out.
	omit []string
}

// Compose joins values that each implement some capabilities into one
// Business, so that a ready-made implementation (NewService) and the
// Business's own hooks serve side by side; two values that implement the
// same capability are an error at resolution.
func Compose(parts ...any) any { return composite{parts: parts} }

// Omit leaves out capabilities that hooks implement but the Business does
// not want to serve; a name that is not a capability of the package is an
// error at resolution.
func Omit(hooks any, names ...string) any {
	return narrowed{hooks: hooks, omit: slices.Clone(names)}
}

// Restricted is implemented by hooks whose methods cover more capabilities
// than they can serve, such as an older version served from a newer one's
// hooks: only the capabilities ServedCapabilities names are served, and its
// error, when not nil, is returned by every resolution.
type Restricted interface {
	ServedCapabilities() ([]string, error)
}

// Resolve returns the capabilities hooks serve, in the package's order. It
// is an error when hooks serve none (naming every interface), when a value
// implements part of a capability's interface (a method with the wrong
// signature, or a method missing), and when Compose joins two values that
// serve the same capability.
func Resolve[T any](hooks any, caps []Capability[T]) ([]Served[T], error) {
	served, err := resolve(hooks, caps)
	if err != nil {
		return nil, err
	}
	if len(served) == 0 {
		return nil, fmt.Errorf("hooks of type %s implement none of the capabilities: %s", typeName(hooks), interfaces(caps))
	}
	return served, nil
}

func resolve[T any](hooks any, caps []Capability[T]) ([]Served[T], error) {
	switch h := hooks.(type) {
	case nil:
		return nil, errors.New("hooks are nil")
	case composite:
		return resolveComposite(h, caps)
	case narrowed:
		return resolveNarrowed(h, caps)
	}
	var only []string
	if r, ok := hooks.(Restricted); ok {
		names, err := r.ServedCapabilities()
		if err != nil {
			return nil, err
		}
		only = names
		if only == nil {
			only = []string{}
		}
	}
	var out []Served[T]
	for _, c := range caps {
		if only != nil && !slices.Contains(only, c.Name) {
			continue
		}
		items, ok := c.Bind(hooks)
		if ok {
			out = append(out, Served[T]{Name: c.Name, Schema: c.Schema, Spec: c.Spec, Items: items})
			continue
		}
		if msg := partial(hooks, c); msg != "" {
			return nil, fmt.Errorf("hooks of type %s implement %s (%s) only in part: %s", typeName(hooks), c.Interface.Name(), c.Name, msg)
		}
	}
	return out, nil
}

func resolveComposite[T any](h composite, caps []Capability[T]) ([]Served[T], error) {
	by := map[string]int{}
	var out []Served[T]
	for i, p := range h.parts {
		served, err := resolve(p, caps)
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", i, err)
		}
		if len(served) == 0 {
			return nil, fmt.Errorf("part %d (type %s) implements none of the capabilities: %s", i, typeName(p), interfaces(caps))
		}
		for _, s := range served {
			if j, dup := by[s.Name]; dup {
				return nil, fmt.Errorf("parts %d (type %s) and %d (type %s) both implement %s", j, typeName(h.parts[j]), i, typeName(p), s.Name)
			}
			by[s.Name] = i
		}
		out = append(out, served...)
	}
	// The package's order, whatever the order of the parts.
	order := map[string]int{}
	for i, c := range caps {
		order[c.Name] = i
	}
	slices.SortStableFunc(out, func(a, b Served[T]) int { return order[a.Name] - order[b.Name] })
	return out, nil
}

func resolveNarrowed[T any](h narrowed, caps []Capability[T]) ([]Served[T], error) {
	for _, name := range h.omit {
		if !slices.ContainsFunc(caps, func(c Capability[T]) bool { return c.Name == name }) {
			return nil, fmt.Errorf("Omit names %q, which is not a capability of this package (it has %s)", name, names(caps))
		}
	}
	served, err := resolve(h.hooks, caps)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(served, func(s Served[T]) bool { return slices.Contains(h.omit, s.Name) }), nil
}

// partial explains why hooks, which do not implement c's interface, still
// look as if they meant to: it names the interface's methods they lack and
// the ones they have with another signature, or returns "" when they have
// none of its methods. Reflection serves only this message.
func partial[T any](hooks any, c Capability[T]) string {
	t := reflect.TypeOf(hooks)
	var missing, wrong []string
	found := false
	for i := range c.Interface.NumMethod() {
		want := c.Interface.Method(i)
		got, ok := t.MethodByName(want.Name)
		if !ok {
			missing = append(missing, want.Name)
			continue
		}
		found = true
		if !sameSignature(got.Type, want.Type) {
			wrong = append(wrong, fmt.Sprintf("%s is %s, want %s", want.Name, methodSignature(got.Type), want.Type))
		}
	}
	if !found {
		return ""
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+strings.Join(missing, ", "))
	}
	return strings.Join(append(parts, wrong...), "; ")
}

// sameSignature compares a concrete method's type (receiver first) with an
// interface method's (no receiver).
func sameSignature(got, want reflect.Type) bool {
	if got.NumIn() != want.NumIn()+1 || got.NumOut() != want.NumOut() || got.IsVariadic() != want.IsVariadic() {
		return false
	}
	for i := range want.NumIn() {
		if got.In(i+1) != want.In(i) {
			return false
		}
	}
	for i := range want.NumOut() {
		if got.Out(i) != want.Out(i) {
			return false
		}
	}
	return true
}

// methodSignature renders a concrete method's type without its receiver.
func methodSignature(t reflect.Type) string {
	var in, out []string
	for i := 1; i < t.NumIn(); i++ {
		in = append(in, t.In(i).String())
	}
	for i := range t.NumOut() {
		out = append(out, t.Out(i).String())
	}
	return "func(" + strings.Join(in, ", ") + ") (" + strings.Join(out, ", ") + ")"
}

func interfaces[T any](caps []Capability[T]) string {
	var out []string
	for _, c := range caps {
		out = append(out, c.Interface.Name()+" ("+c.Name+")")
	}
	return strings.Join(out, ", ")
}

func names[T any](caps []Capability[T]) string {
	var out []string
	for _, c := range caps {
		out = append(out, c.Name)
	}
	return strings.Join(out, ", ")
}

func typeName(v any) string {
	if v == nil {
		return "nil"
	}
	return reflect.TypeOf(v).String()
}

// Find returns the value within hooks that serves the capability name
// through interface I, looking inside Compose and honouring Omit and
// Restricted,
// for wrappers that call one capability of another package's hooks (an
// older version served from a newer one). It does not check hooks as
// Resolve does; call Resolve first.
func Find[I any](hooks any, name string) (I, bool) {
	var zero I
	switch h := hooks.(type) {
	case nil:
		return zero, false
	case composite:
		for _, p := range h.parts {
			if v, ok := Find[I](p, name); ok {
				return v, true
			}
		}
		return zero, false
	case narrowed:
		if slices.Contains(h.omit, name) {
			return zero, false
		}
		return Find[I](h.hooks, name)
	}
	if r, ok := hooks.(Restricted); ok {
		if names, err := r.ServedCapabilities(); err != nil || !slices.Contains(names, name) {
			return zero, false
		}
	}
	v, ok := hooks.(I)
	return v, ok
}
