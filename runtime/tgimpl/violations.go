package tgimpl

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Each method below records one violation of the keyword it is named after.
// sp is the keyword's JSON pointer in the tool's effective schema. got is the
// received value as the message shows it ("" for a sensitive member: the
// message then does not repeat it). The pointer and message are written
// into the decoder's text arena (see render.go): a violation costs no
// allocation of its own.

// TypeMismatch records a type violation for the value that follows and
// skips it. want is the expected type as a phrase ("integer", "string or
// null").
func (d *Decoder) TypeMismatch(sp, want string) {
	k := d.R.Peek()
	if k == jsonread.Invalid {
		return
	}
	d.R.Skip()
	got := k.String()
	if !d.begin("the arguments") {
		return
	}
	d.text = append(d.text, " must be "...)
	d.text = appendArticle(d.text, want)
	d.text = append(d.text, "; received "...)
	if k == jsonread.Null {
		d.text = append(d.text, "null"...)
	} else {
		d.text = appendArticle(d.text, got)
	}
	d.end("type", sp)
}

// Required records that the named required member is missing from the
// object being decoded.
func (d *Decoder) Required(sp, name string) {
	if !d.begin("") {
		return
	}
	if len(d.text) > d.msgStart {
		d.text = append(d.text, '.')
	}
	d.text = append(d.text, name...)
	d.text = append(d.text, " is required"...)
	d.end("required", sp)
}

// Additional records that the member just read is not allowed, and skips its
// value. start is the object's ObjectNames mark; known lists the object's
// declared members ("orderId, amountInCents, reason"), so that the model can
// correct the name.
func (d *Decoder) Additional(sp string, start int, name []byte, known string) {
	if d.Extra(start, name) {
		d.R.Skip()
		// The closure of a composition is its unevaluatedProperties.
		kw := "additionalProperties"
		if strings.HasSuffix(sp, "/unevaluatedProperties") {
			kw = "unevaluatedProperties"
		}
		if known == "" {
			d.add(kw, sp, "", " is not a known field; this object takes none")
			return
		}
		d.add(kw, sp, "", " is not a known field; the fields are ", known)
	}
}

// False records a value where the schema allows none, and skips it.
func (d *Decoder) False(sp string) {
	if d.R.Peek() == jsonread.Invalid {
		return
	}
	d.R.Skip()
	d.add("false", sp, "", " is not allowed")
}

// Enum records a value outside the enum; allowed lists the enum values.
func (d *Decoder) Enum(sp, allowed, got string) {
	d.add("enum", sp, got, " must be one of ", allowed)
}

// Const records a value other than the const one.
func (d *Decoder) Const(sp, want, got string) {
	d.add("const", sp, got, " must be ", want)
}

// Minimum records a number below the minimum.
func (d *Decoder) Minimum(sp, bound, got string) {
	d.add("minimum", sp, got, " must be at least ", bound)
}

// ExclusiveMinimum records a number not above the exclusive minimum.
func (d *Decoder) ExclusiveMinimum(sp, bound, got string) {
	d.add("exclusiveMinimum", sp, got, " must be greater than ", bound)
}

// Maximum records a number above the maximum.
func (d *Decoder) Maximum(sp, bound, got string) {
	d.add("maximum", sp, got, " must be at most ", bound)
}

// ExclusiveMaximum records a number not below the exclusive maximum.
func (d *Decoder) ExclusiveMaximum(sp, bound, got string) {
	d.add("exclusiveMaximum", sp, got, " must be less than ", bound)
}

// MultipleOf records a number that is not a multiple of m.
func (d *Decoder) MultipleOf(sp, m, got string) {
	d.add("multipleOf", sp, got, " must be a multiple of ", m)
}

// MinLength records a string shorter than min code points.
func (d *Decoder) MinLength(sp string, min, n int) {
	d.counted("minLength", sp, " must be at least ", min, "character", " long; received ", n, "character")
}

// MaxLength records a string longer than max code points.
func (d *Decoder) MaxLength(sp string, max, n int) {
	d.counted("maxLength", sp, " must be at most ", max, "character", " long; received ", n, "character")
}

// Pattern records a string that does not match the pattern.
func (d *Decoder) Pattern(sp, pattern, got string) {
	d.add("pattern", sp, got, " must match the pattern ", pattern)
}

// Format records a string that is not of the format; what names it
// ("date (RFC 3339 full-date)").
func (d *Decoder) Format(sp, what, got string) {
	d.add("format", sp, got, " must be a valid ", what)
}

// MinItems records an array with fewer than min items.
func (d *Decoder) MinItems(sp string, min, n int) {
	d.counted("minItems", sp, " must have at least ", min, "item", "; received ", n, "")
}

// MaxItems records an array with more than max items.
func (d *Decoder) MaxItems(sp string, max, n int) {
	d.counted("maxItems", sp, " must have at most ", max, "item", "; received ", n, "")
}

// counted records a violation whose message is
// "<subject><rule><bound unit(s)><then><n unit(s)>", with n bare when
// nUnit is "".
func (d *Decoder) counted(keyword, sp, rule string, bound int, unit, then string, n int, nUnit string) {
	if !d.begin("the arguments") {
		return
	}
	d.text = append(d.text, rule...)
	d.text = appendPlural(d.text, bound, unit)
	d.text = append(d.text, then...)
	if nUnit == "" {
		d.text = strconv.AppendInt(d.text, int64(n), 10)
	} else {
		d.text = appendPlural(d.text, n, nUnit)
	}
	d.end(keyword, sp)
}

// UniqueItems checks that the raw items are pairwise different JSON values
// and records a violation naming the first equal pair: the smallest j
// equal to an earlier item, and the first item i it equals.
func (d *Decoder) UniqueItems(sp string, items [][]byte) {
	i, j, dup := firstDuplicate(items)
	if !dup || !d.begin("the arguments") {
		return
	}
	d.text = append(d.text, " must not contain duplicate items; items "...)
	d.text = strconv.AppendInt(d.text, int64(i), 10)
	d.text = append(d.text, " and "...)
	d.text = strconv.AppendInt(d.text, int64(j), 10)
	d.text = append(d.text, " are equal"...)
	d.end("uniqueItems", sp)
}

// pairwiseItems is how many items firstDuplicate compares pair by pair
// when they are all strings without escapes; more, or other items, are
// keyed once each (jsonval.AppendKey) in a map.
const pairwiseItems = 32

// firstDuplicate returns the first pair i < j of equal items, in the order
// of j. An item that is not valid JSON equals nothing. Strings without
// escapes are equal exactly when their bytes are, so a few of them are
// compared directly; otherwise each item is reduced once to a canonical
// key (numbers by exact value, strings decoded, object members sorted) and
// looked up in a map, so the work is linear in the items' size, not
// quadratic in their count.
func firstDuplicate(items [][]byte) (i, j int, dup bool) {
	if len(items) < 2 {
		return 0, 0, false
	}
	if len(items) <= pairwiseItems && plainStrings(items) {
		for j := 1; j < len(items); j++ {
			for i := range j {
				if bytes.Equal(items[i], items[j]) {
					return i, j, true
				}
			}
		}
		return 0, 0, false
	}
	first := make(map[string]int, len(items))
	var key []byte
	for j, raw := range items {
		v, err := jsonval.Parse(raw)
		if err != nil {
			continue
		}
		key = jsonval.AppendKey(key[:0], v)
		if i, ok := first[string(key)]; ok {
			return i, j, true
		}
		first[string(key)] = j
	}
	return 0, 0, false
}

// plainStrings reports whether every item is a JSON string without an
// escape (its bytes are then its value, one way only).
func plainStrings(items [][]byte) bool {
	for _, raw := range items {
		if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || bytes.IndexByte(raw, '\\') >= 0 {
			return false
		}
	}
	return true
}

// add records a violation at the current path with the message
// "<subject><rule...>; received <got>". got == "" (a sensitive member)
// adds no "; received", and neither does any got while a sensitive value
// is being read (see BeginSensitive). got is already cut (Quote, Text): it
// costs what is shown, whatever the value's size.
func (d *Decoder) add(keyword, sp, got string, rule ...string) {
	if !d.begin("the arguments") {
		return
	}
	for _, r := range rule {
		d.text = append(d.text, r...)
	}
	if got != "" && d.hidden == 0 {
		d.text = append(d.text, "; received "...)
		d.text = append(d.text, got...)
	}
	d.end(keyword, sp)
}
