// Package opt holds the presence types that toolgate-generated argument
// structs use where the schema tells states apart that a plain Go value
// cannot:
//
//   - Optional[T]: a member that may be missing; when present it is a T.
//   - Nullable[T]: a member that may be null (and, when not required, also
//     missing). Its three states — missing, null, value — stay distinct.
//
// Required, non-nullable members are plain Go values. The zero value of both
// types is "missing".
package opt

// Optional is a value that may be absent.
type Optional[T any] struct {
	v   T
	set bool
}

// Some returns a present Optional holding v.
func Some[T any](v T) Optional[T] { return Optional[T]{v: v, set: true} }

// Get returns the value and whether it is present.
func (o Optional[T]) Get() (T, bool) { return o.v, o.set }

// IsSet reports whether the value is present.
func (o Optional[T]) IsSet() bool { return o.set }

// Or returns the value when present, otherwise def.
func (o Optional[T]) Or(def T) T {
	if o.set {
		return o.v
	}
	return def
}

// State is the presence state of a Nullable.
type State uint8

// The states of a Nullable. Missing is the zero value.
const (
	Missing State = iota
	Null
	Present
)

// String returns "missing", "null" or "present".
func (s State) String() string {
	switch s {
	case Null:
		return "null"
	case Present:
		return "present"
	default:
		return "missing"
	}
}

// Nullable is a value that may be missing, null, or present.
type Nullable[T any] struct {
	v     T
	state State
}

// Value returns a present Nullable holding v.
func Value[T any](v T) Nullable[T] { return Nullable[T]{v: v, state: Present} }

// NullOf returns a Nullable in the null state.
func NullOf[T any]() Nullable[T] { return Nullable[T]{state: Null} }

// Get returns the value and whether it is present (neither missing nor null).
func (n Nullable[T]) Get() (T, bool) { return n.v, n.state == Present }

// State reports which of the three states n is in.
func (n Nullable[T]) State() State { return n.state }

// IsNull reports whether n is an explicit null.
func (n Nullable[T]) IsNull() bool { return n.state == Null }

// IsSet reports whether n was given at all, as null or as a value.
func (n Nullable[T]) IsSet() bool { return n.state != Missing }

// Or returns the value when present, otherwise def.
func (n Nullable[T]) Or(def T) T {
	if n.state == Present {
		return n.v
	}
	return def
}
