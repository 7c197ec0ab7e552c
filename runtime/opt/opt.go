// Package opt is the option type generated code uses for every optional
// member, because UCP gives absence its own meaning (absent hours means
// "unknown", an empty list does not) and a zero value cannot say that.
package opt

import "encoding/json"

// Value holds an optional T; Set is false when the member was absent.
type Value[T any] struct {
	V   T
	Set bool
}

// Some returns a present value, the usual way to fill an optional field.
func Some[T any](v T) Value[T] { return Value[T]{V: v, Set: true} }

// None returns an absent value, for symmetry with Some in table literals.
func None[T any]() Value[T] { return Value[T]{} }

// Get returns the value and whether it is present, like a map lookup.
func (o Value[T]) Get() (T, bool) { return o.V, o.Set }

// Or returns the value when present and def otherwise.
func (o Value[T]) Or(def T) T {
	if o.Set {
		return o.V
	}
	return def
}

// Ptr returns a pointer to the value when present and nil otherwise, for
// code that prefers the pointer idiom.
func (o Value[T]) Ptr() *T {
	if !o.Set {
		return nil
	}
	v := o.V
	return &v
}

// Ref returns a pointer to the held value itself when present and nil
// otherwise: unlike Ptr it copies nothing (so allocates nothing), and what
// it points at changes with o.
func (o *Value[T]) Ref() *T {
	if !o.Set {
		return nil
	}
	return &o.V
}

// IsZero reports absence, so that the encoding/json omitzero option leaves
// absent members out of the output.
func (o Value[T]) IsZero() bool { return !o.Set }

// MarshalJSON encodes the held value; absent values are omitted by omitzero.
func (o Value[T]) MarshalJSON() ([]byte, error) { return json.Marshal(o.V) }

// UnmarshalJSON marks the value present and decodes into it.
func (o *Value[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	return json.Unmarshal(b, &o.V)
}
