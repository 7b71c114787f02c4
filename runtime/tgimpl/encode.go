package tgimpl

import (
	"encoding/json"
	"iter"
	"slices"
	"strconv"

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

// AppendString appends s as a JSON string.
func AppendString(b []byte, s string) []byte { return jsonval.AppendString(b, s) }

// AppendInt appends n.
func AppendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

// AppendFloat appends f in the shortest form that reads back exactly.
func AppendFloat(b []byte, f float64) []byte { return strconv.AppendFloat(b, f, 'g', -1, 64) }

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// AppendRaw appends raw JSON, or null when it is empty.
func AppendRaw(b []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
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
