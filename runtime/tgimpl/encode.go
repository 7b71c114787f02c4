package tgimpl

import (
	"encoding/json"
	"iter"
	"slices"
	"strconv"

	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/jsonval"
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
