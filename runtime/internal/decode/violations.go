package decode

import (
	"bytes"
	"encoding/binary"
	"strings"

	"github.com/toolgate/toolgate/runtime/internal/violation"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Each method below records one violation of the keyword it is named after.
// sp is the keyword's JSON pointer in the tool's effective schema. got is the
// received value as the message shows it ("" for a sensitive member: the
// message then does not repeat it). The violation is recorded (see package
// violation): the path and the value shown are copied into the decoder's
// arena, and the pointer and message are rendered when the error is read.
// A violation costs no allocation of its own.

// TypeMismatch records a type violation for the value that follows and
// skips it. want is the expected type as a phrase ("integer", "string or
// null").
func (d *Decoder) TypeMismatch(sp, want string) {
	k := d.R.Peek()
	if k == jsonread.Invalid {
		return
	}
	d.R.Skip()
	if !d.begin(violation.Type, sp, want) {
		return
	}
	// The kind received is shown even inside a sensitive value: it is not
	// the value.
	b := d.v.Tail()
	if k == jsonread.Null {
		b = append(b, "null"...)
	} else {
		b = violation.AppendArticle(b, k.String())
	}
	d.v.Shows(d.v.Took(b))
}

// Required records that the named required member is missing from the
// object being decoded.
func (d *Decoder) Required(sp, name string) {
	d.begin(violation.Required, sp, name)
}

// Additional records that the member just read is not allowed, and skips its
// value. start is the object's ObjectNames mark; known lists the object's
// declared members ("orderId, amountInCents, reason"), so that the model can
// correct the name.
func (d *Decoder) Additional(sp string, start int, name []byte, known string) {
	if d.Extra(start, name) {
		d.R.Skip()
		// The closure of a composition is its unevaluatedProperties.
		k := violation.Additional
		if strings.HasSuffix(sp, "/unevaluatedProperties") {
			k = violation.Closed
		}
		if known == "" {
			k++ // violation.AdditionalNone, violation.ClosedNone
		}
		d.add(k, sp, known, "")
	}
}

// False records a value where the schema allows none, and skips it.
func (d *Decoder) False(sp string) {
	if d.R.Peek() == jsonread.Invalid {
		return
	}
	d.R.Skip()
	d.add(violation.False, sp, "", "")
}

// Enum records a value outside the enum; allowed lists the enum values.
func (d *Decoder) Enum(sp, allowed, got string) {
	d.add(violation.Enum, sp, allowed, got)
}

// Const records a value other than the const one.
func (d *Decoder) Const(sp, want, got string) {
	d.add(violation.Const, sp, want, got)
}

// Minimum records a number below the minimum.
func (d *Decoder) Minimum(sp, bound, got string) {
	d.add(violation.Minimum, sp, bound, got)
}

// ExclusiveMinimum records a number not above the exclusive minimum.
func (d *Decoder) ExclusiveMinimum(sp, bound, got string) {
	d.add(violation.ExclusiveMinimum, sp, bound, got)
}

// Maximum records a number above the maximum.
func (d *Decoder) Maximum(sp, bound, got string) {
	d.add(violation.Maximum, sp, bound, got)
}

// ExclusiveMaximum records a number not below the exclusive maximum.
func (d *Decoder) ExclusiveMaximum(sp, bound, got string) {
	d.add(violation.ExclusiveMaximum, sp, bound, got)
}

// MultipleOf records a number that is not a multiple of m.
func (d *Decoder) MultipleOf(sp, m, got string) {
	d.add(violation.MultipleOf, sp, m, got)
}

// MinLength records a string shorter than min code points.
func (d *Decoder) MinLength(sp string, min, n int) {
	d.counted(violation.MinLength, sp, min, n)
}

// MaxLength records a string longer than max code points.
func (d *Decoder) MaxLength(sp string, max, n int) {
	d.counted(violation.MaxLength, sp, max, n)
}

// Pattern records a string that does not match the pattern.
func (d *Decoder) Pattern(sp, pattern, got string) {
	d.add(violation.Pattern, sp, pattern, got)
}

// Format records a string that is not of the format; what names it
// ("date (RFC 3339 full-date)").
func (d *Decoder) Format(sp, what, got string) {
	d.add(violation.Format, sp, what, got)
}

// MinItems records an array with fewer than min items.
func (d *Decoder) MinItems(sp string, min, n int) {
	d.counted(violation.MinItems, sp, min, n)
}

// MaxItems records an array with more than max items.
func (d *Decoder) MaxItems(sp string, max, n int) {
	d.counted(violation.MaxItems, sp, max, n)
}

// counted records a violation of a counted kind: a bound and the count
// received, kept as varints where the value shown would be.
func (d *Decoder) counted(k violation.Kind, sp string, bound, n int) {
	if !d.begin(k, sp, "") {
		return
	}
	b := binary.AppendVarint(d.v.Tail(), int64(bound))
	d.v.Shows(d.v.Took(binary.AppendVarint(b, int64(n))))
}

// UniqueItems checks that the raw items are pairwise different JSON values
// and records a violation naming the first equal pair: the smallest j
// equal to an earlier item, and the first item i it equals.
func (d *Decoder) UniqueItems(sp string, items [][]byte) {
	i, j, dup := firstDuplicate(items)
	if !dup || !d.begin(violation.UniqueItems, sp, "") {
		return
	}
	b := binary.AppendVarint(d.v.Tail(), int64(i))
	d.v.Shows(d.v.Took(binary.AppendVarint(b, int64(j))))
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

// add records a violation of kind k at the current path, whose message is
// "<subject><rule><arg>; received <got>". got == "" (a sensitive member)
// adds no "; received", and neither does any got while a sensitive value
// is being read (see BeginSensitive). got is already cut (Quote, Text): it
// costs what is shown, whatever the value's size.
func (d *Decoder) add(k violation.Kind, sp, arg, got string) {
	if !d.begin(k, sp, arg) || got == "" || d.hidden > 0 {
		return
	}
	d.v.Shows(d.v.Took(violation.AppendShown(d.v.Tail(), got)))
}

// begin records a violation of kind k at the current path, unless
// violations are no longer recorded. In a trial, which reports no
// violation, the first one ends the read instead (see Trial).
func (d *Decoder) begin(k violation.Kind, sp, arg string) bool {
	if d.trial {
		d.R.Stop()
		return false
	}
	if !d.recording() {
		return false
	}
	at := d.v.TextLen()
	d.v.Took(d.appendPath(d.v.Tail()))
	d.v.Add(k, sp, arg, at)
	return true
}

// appendPath appends the current path, encoded (see violation.AppendPath).
func (d *Decoder) appendPath(b []byte) []byte {
	return violation.AppendPath(b, d.R.Data(), d.path[:min(d.depth, maxPath)], d.hiddenSegs)
}

// recording reports whether a violation found now is recorded: not once
// the reader has failed, nor in a trial, nor past toolerr.MaxViolations
// (the error is then truncated).
func (d *Decoder) recording() bool {
	if d.R.Err() != nil || d.trial {
		return false
	}
	if d.v.Len() >= toolerr.MaxViolations {
		d.v.Truncate()
		return false
	}
	return true
}

// Quote is violation.Quote for a violation method's got: it costs no
// allocation of its own. A short plain word of the input is returned as a
// view of the input, which the violation then copies; anything else is
// written into the decoder's arena. It returns "" once violations are no
// longer recorded or inside a sensitive value, when the text would not be
// used.
func (d *Decoder) Quote(s []byte) string {
	if !d.recording() || d.hidden > 0 {
		return ""
	}
	if len(s) <= violation.MaxEcho && violation.PlainWord(s) && d.inInput(s) {
		return View(s)
	}
	from := d.v.TextLen()
	d.v.Took(violation.AppendQuote(d.v.Tail(), s))
	return d.v.View(from)
}

// Text is violation.Text for a violation method's got (see Quote).
func (d *Decoder) Text(raw []byte) string {
	if !d.recording() || d.hidden > 0 {
		return ""
	}
	if len(raw) <= violation.MaxEcho && d.inInput(raw) {
		return View(raw)
	}
	from := d.v.TextLen()
	d.v.Took(violation.AppendText(d.v.Tail(), raw))
	return d.v.View(from)
}
