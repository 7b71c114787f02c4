package tgimpl

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/jsonnum"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// maxEcho bounds how much of a received value a message repeats.
const maxEcho = 64

// Each method below records one violation of the keyword it is named after.
// sp is the keyword's JSON pointer in the tool's effective schema. got is the
// received value as the message shows it ("" for a sensitive member: the
// message then does not repeat it).

// TypeMismatch records a type violation for the value that follows and
// skips it. want is the expected type as a phrase ("integer", "string or
// null").
func (d *Decoder) TypeMismatch(sp, want string) {
	k := d.R.Peek()
	if k == jsonread.Invalid {
		return
	}
	d.R.Skip()
	got := article(k.String())
	if k == jsonread.Null {
		got = "null"
	}
	d.add("type", sp, "", " must be "+article(want)+"; received "+got)
}

// Required records that the named required member is missing from the
// object being decoded.
func (d *Decoder) Required(sp, name string) {
	if !d.recording() {
		return
	}
	subj := d.subject()
	if subj == "" {
		subj = name
	} else {
		subj += "." + name
	}
	d.violate("required", sp, d.pointer(), subj+" is required")
}

// Additional records that the member just read is not allowed, and skips its
// value. start is the object's ObjectNames mark; known lists the object's
// declared members ("orderId, amountInCents, reason"), so that the model can
// correct the name.
func (d *Decoder) Additional(sp string, start int, name []byte, known string) {
	if d.Extra(start, name) {
		d.R.Skip()
		if known == "" {
			d.add("additionalProperties", sp, "", " is not a known field; this object takes none")
			return
		}
		d.add("additionalProperties", sp, "", " is not a known field; the fields are "+known)
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
	d.add("enum", sp, got, " must be one of "+allowed)
}

// Const records a value other than the const one.
func (d *Decoder) Const(sp, want, got string) {
	d.add("const", sp, got, " must be "+want)
}

// Minimum records a number below the minimum.
func (d *Decoder) Minimum(sp, bound, got string) {
	d.add("minimum", sp, got, " must be at least "+bound)
}

// ExclusiveMinimum records a number not above the exclusive minimum.
func (d *Decoder) ExclusiveMinimum(sp, bound, got string) {
	d.add("exclusiveMinimum", sp, got, " must be greater than "+bound)
}

// Maximum records a number above the maximum.
func (d *Decoder) Maximum(sp, bound, got string) {
	d.add("maximum", sp, got, " must be at most "+bound)
}

// ExclusiveMaximum records a number not below the exclusive maximum.
func (d *Decoder) ExclusiveMaximum(sp, bound, got string) {
	d.add("exclusiveMaximum", sp, got, " must be less than "+bound)
}

// MultipleOf records a number that is not a multiple of m.
func (d *Decoder) MultipleOf(sp, m, got string) {
	d.add("multipleOf", sp, got, " must be a multiple of "+m)
}

// MinLength records a string shorter than min code points.
func (d *Decoder) MinLength(sp string, min, n int) {
	d.add("minLength", sp, "", " must be at least "+plural(min, "character")+" long; received "+plural(n, "character"))
}

// MaxLength records a string longer than max code points.
func (d *Decoder) MaxLength(sp string, max, n int) {
	d.add("maxLength", sp, "", " must be at most "+plural(max, "character")+" long; received "+plural(n, "character"))
}

// Pattern records a string that does not match the pattern.
func (d *Decoder) Pattern(sp, pattern, got string) {
	d.add("pattern", sp, got, " must match the pattern "+pattern)
}

// Format records a string that is not of the format; what names it
// ("date (RFC 3339 full-date)").
func (d *Decoder) Format(sp, what, got string) {
	d.add("format", sp, got, " must be a valid "+what)
}

// MinItems records an array with fewer than min items.
func (d *Decoder) MinItems(sp string, min, n int) {
	d.add("minItems", sp, "", " must have at least "+plural(min, "item")+"; received "+strconv.Itoa(n))
}

// MaxItems records an array with more than max items.
func (d *Decoder) MaxItems(sp string, max, n int) {
	d.add("maxItems", sp, "", " must have at most "+plural(max, "item")+"; received "+strconv.Itoa(n))
}

// UniqueItems checks that the raw items are pairwise different JSON values
// and records a violation naming the first equal pair.
func (d *Decoder) UniqueItems(sp string, items [][]byte) {
	for j := 1; j < len(items); j++ {
		for i := 0; i < j; i++ {
			if Equal(items[i], items[j]) {
				d.add("uniqueItems", sp, "", " must not contain duplicate items; items "+strconv.Itoa(i)+" and "+strconv.Itoa(j)+" are equal")
				return
			}
		}
	}
}

// Float converts number text to float64, recording a violation when it is
// beyond float64's range.
func (d *Decoder) Float(raw []byte, sp string) (float64, bool) {
	f := jsonnum.Float64(raw)
	if math.IsInf(f, 0) {
		d.add("type", sp, string(raw), " must be a number within the 64-bit floating-point range")
		return 0, false
	}
	return f, true
}

func parseInt(d *Decoder, raw []byte, sp string) (int64, bool) {
	n, ok, isInt := jsonnum.Int64(raw)
	switch {
	case ok:
		return n, true
	case isInt:
		d.add("type", sp, string(raw), " must be an integer between -9223372036854775808 and 9223372036854775807")
	default:
		d.add("type", sp, string(raw), " must be an integer")
	}
	return 0, false
}

// Quote renders a string value for a message.
func Quote(s []byte) string { return Show(string(s)) }

func (d *Decoder) recording() bool {
	if d.R.Err() != nil {
		return false
	}
	if len(d.violations) >= toolerr.MaxViolations {
		d.truncated = true
		return false
	}
	return true
}

// add records a violation at the current path with the message
// "<subject><rule>; received <got>".
func (d *Decoder) add(keyword, sp, got, rule string) {
	if !d.recording() {
		return
	}
	subj := d.subject()
	if subj == "" {
		subj = "the arguments"
	}
	msg := subj + rule
	if got != "" && !strings.Contains(rule, "; received") {
		msg += "; received " + echo(got)
	}
	d.violate(keyword, sp, d.pointer(), msg)
}

func (d *Decoder) violate(keyword, sp, ptr, msg string) {
	d.violations = append(d.violations, toolerr.Violation{Keyword: keyword, InstancePath: ptr, SchemaPath: sp, Message: msg})
}

// pointer renders the current path as an RFC 6901 JSON pointer.
func (d *Decoder) pointer() string {
	var b strings.Builder
	for _, seg := range d.segments() {
		b.WriteByte('/')
		if seg < 0 {
			b.WriteString(strconv.Itoa(int(-seg - 1)))
			continue
		}
		name := jsonread.Unquote(d.R.Data(), int(seg))
		b.WriteString(jsonval.EscapeToken(name))
	}
	return b.String()
}

// subject renders the current path for a message: "line_items[0].sku".
func (d *Decoder) subject() string {
	var b strings.Builder
	for _, seg := range d.segments() {
		if seg < 0 {
			b.WriteString("[" + strconv.Itoa(int(-seg-1)) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(jsonread.Unquote(d.R.Data(), int(seg)))
	}
	return b.String()
}

func (d *Decoder) segments() []pathSeg {
	return d.path[:min(d.depth, maxPath)]
}

func echo(s string) string {
	if utf8.RuneCountInString(s) <= maxEcho {
		return s
	}
	r := []rune(s)
	return string(r[:maxEcho]) + "…"
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// Show renders a string value the way messages show values: bare when it is
// a plain word (GBP, requested_by_customer, 2026-01-31), JSON-quoted
// otherwise, so that whitespace, case and empty strings stay visible.
func Show(s string) string {
	if s == "" {
		return `""`
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_.:/@+-", c) >= 0) {
			return string(AppendString(nil, s))
		}
	}
	return s
}
