package decode

import (
	"github.com/toolgate/toolgate/runtime/jsonnum"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Equal reports whether two valid JSON texts are the same JSON value in the
// sense of JSON Schema's const, enum and uniqueItems: numbers are equal when
// their decimal values are (1 equals 1.0), strings by their decoded
// contents, objects by their member sets whatever the order, arrays item by
// item. false never equals 0 and null equals only null.
func Equal(a, b []byte) bool {
	va, errA := jsonval.Parse(a)
	vb, errB := jsonval.Parse(b)
	return errA == nil && errB == nil && jsonval.Equal(va, vb)
}

// NumberIn reports whether the number text raw equals one of vals exactly.
func NumberIn(raw []byte, vals ...string) bool {
	for _, v := range vals {
		if jsonnum.Compare(raw, []byte(v)) == 0 {
			return true
		}
	}
	return false
}

// RawIn reports whether the JSON text raw equals one of the JSON texts vals.
func RawIn(raw []byte, vals ...string) bool {
	for _, v := range vals {
		if Equal(raw, []byte(v)) {
			return true
		}
	}
	return false
}
