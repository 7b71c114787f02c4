package tgimpl

import (
	"encoding/json"
	"iter"
	"slices"
	"strconv"

	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/opt"
)

// Member appends the separator and the quoted name of an object member to
// b, where start is the index of the object's '{' in b.
func Member(b []byte, start int, name string) []byte {
	if len(b) > start+1 {
		b = append(b, ',')
	}
	b = AppendString(b, name)
	return append(b, ':')
}

// StringMember appends the member name with the string value s (Member,
// then AppendString).
func StringMember(b []byte, start int, name, s string) []byte {
	return AppendString(Member(b, start, name), s)
}

// IntMember appends the member name with the integer value n.
func IntMember(b []byte, start int, name string, n int64) []byte {
	return AppendInt(Member(b, start, name), n)
}

// FloatMember appends the member name with the number value f.
func FloatMember(b []byte, start int, name string, f float64) []byte {
	return AppendFloat(Member(b, start, name), f)
}

// BoolMember appends the member name with the boolean value v.
func BoolMember(b []byte, start int, name string, v bool) []byte {
	return AppendBool(Member(b, start, name), v)
}

// AppendString appends s as a JSON string.
func AppendString(b []byte, s string) []byte { return jsonval.AppendString(b, s) }

// AppendInt appends n.
func AppendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

// AppendFloat appends f in the shortest form that reads back exactly.
func AppendFloat(b []byte, f float64) []byte { return strconv.AppendFloat(b, f, 'g', -1, 64) }

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// notOneValue is what AppendRaw writes in place of raw text that is not
// exactly one JSON value: never valid JSON, wherever a value goes, so the
// document around it fails the strict reader (a typed result becomes
// invalid_result) and none of the text is written.
const notOneValue = "!not-one-json-value!"

// AppendRaw appends raw JSON after checking, with the strict reader, that
// it is exactly one JSON value within jsonread.DefaultLimits; anything else
// (empty, "1 2", `null,"ratio":5`, which would inject a member nobody set)
// is written as notOneValue instead.
func AppendRaw(b []byte, raw json.RawMessage) []byte {
	if jsonread.Valid(raw, jsonread.DefaultLimits) != nil {
		return append(b, notOneValue...)
	}
	return append(b, raw...)
}

// SortedKeys iterates over m in key order, so that encoding is
// deterministic.
func SortedKeys[T any](m map[string]T) iter.Seq2[string, T] {
	return func(yield func(string, T) bool) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}

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
