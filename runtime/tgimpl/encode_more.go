package tgimpl

import "github.com/toolgate/toolgate/runtime/opt"

// The calls a generated appendJSON method makes to append an optional
// scalar member, or an array of scalars, with one line.

// OptionalStringMember appends the member name with x's string when x is
// set, and nothing when it is missing.
func OptionalStringMember[T ~string](b []byte, start int, name string, x opt.Optional[T]) []byte {
	if s, ok := x.Get(); ok {
		return StringMember(b, start, name, string(s))
	}
	return b
}

// OptionalIntMember is OptionalStringMember for an integer.
func OptionalIntMember(b []byte, start int, name string, x opt.Optional[int64]) []byte {
	if n, ok := x.Get(); ok {
		return IntMember(b, start, name, n)
	}
	return b
}

// OptionalFloatMember is OptionalStringMember for a number.
func OptionalFloatMember(b []byte, start int, name string, x opt.Optional[float64]) []byte {
	if f, ok := x.Get(); ok {
		return FloatMember(b, start, name, f)
	}
	return b
}

// OptionalBoolMember is OptionalStringMember for a boolean.
func OptionalBoolMember(b []byte, start int, name string, x opt.Optional[bool]) []byte {
	if v, ok := x.Get(); ok {
		return BoolMember(b, start, name, v)
	}
	return b
}

// AppendStrings appends xs as a JSON array of strings.
func AppendStrings[T ~string](b []byte, xs []T) []byte {
	return appendArray(b, xs, func(b []byte, s T) []byte { return AppendString(b, string(s)) })
}

// AppendInts appends xs as a JSON array of integers.
func AppendInts(b []byte, xs []int64) []byte { return appendArray(b, xs, AppendInt) }

// AppendFloats appends xs as a JSON array of numbers.
func AppendFloats(b []byte, xs []float64) []byte { return appendArray(b, xs, AppendFloat) }

// AppendBools appends xs as a JSON array of booleans.
func AppendBools(b []byte, xs []bool) []byte { return appendArray(b, xs, AppendBool) }

func appendArray[T any](b []byte, xs []T, appendOne func([]byte, T) []byte) []byte {
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOne(b, x)
	}
	return append(b, ']')
}
