package tgimpl

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

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
	d.add("type", sp, "", " must be "+article(want)+"; received "+got, true)
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
			d.add("additionalProperties", sp, "", " is not a known field; this object takes none", false)
			return
		}
		d.add("additionalProperties", sp, "", " is not a known field; the fields are "+known, false)
	}
}

// False records a value where the schema allows none, and skips it.
func (d *Decoder) False(sp string) {
	if d.R.Peek() == jsonread.Invalid {
		return
	}
	d.R.Skip()
	d.add("false", sp, "", " is not allowed", false)
}

// Enum records a value outside the enum; allowed lists the enum values.
func (d *Decoder) Enum(sp, allowed, got string) {
	d.add("enum", sp, got, " must be one of "+allowed, false)
}

// Const records a value other than the const one.
func (d *Decoder) Const(sp, want, got string) {
	d.add("const", sp, got, " must be "+want, false)
}

// Minimum records a number below the minimum.
func (d *Decoder) Minimum(sp, bound, got string) {
	d.add("minimum", sp, got, " must be at least "+bound, false)
}

// ExclusiveMinimum records a number not above the exclusive minimum.
func (d *Decoder) ExclusiveMinimum(sp, bound, got string) {
	d.add("exclusiveMinimum", sp, got, " must be greater than "+bound, false)
}

// Maximum records a number above the maximum.
func (d *Decoder) Maximum(sp, bound, got string) {
	d.add("maximum", sp, got, " must be at most "+bound, false)
}

// ExclusiveMaximum records a number not below the exclusive maximum.
func (d *Decoder) ExclusiveMaximum(sp, bound, got string) {
	d.add("exclusiveMaximum", sp, got, " must be less than "+bound, false)
}

// MultipleOf records a number that is not a multiple of m.
func (d *Decoder) MultipleOf(sp, m, got string) {
	d.add("multipleOf", sp, got, " must be a multiple of "+m, false)
}

// MinLength records a string shorter than min code points.
func (d *Decoder) MinLength(sp string, min, n int) {
	d.add("minLength", sp, "", " must be at least "+plural(min, "character")+" long; received "+plural(n, "character"), true)
}

// MaxLength records a string longer than max code points.
func (d *Decoder) MaxLength(sp string, max, n int) {
	d.add("maxLength", sp, "", " must be at most "+plural(max, "character")+" long; received "+plural(n, "character"), true)
}

// Pattern records a string that does not match the pattern.
func (d *Decoder) Pattern(sp, pattern, got string) {
	d.add("pattern", sp, got, " must match the pattern "+pattern, false)
}

// Format records a string that is not of the format; what names it
// ("date (RFC 3339 full-date)").
func (d *Decoder) Format(sp, what, got string) {
	d.add("format", sp, got, " must be a valid "+what, false)
}

// MinItems records an array with fewer than min items.
func (d *Decoder) MinItems(sp string, min, n int) {
	d.add("minItems", sp, "", " must have at least "+plural(min, "item")+"; received "+strconv.Itoa(n), true)
}

// MaxItems records an array with more than max items.
func (d *Decoder) MaxItems(sp string, max, n int) {
	d.add("maxItems", sp, "", " must have at most "+plural(max, "item")+"; received "+strconv.Itoa(n), true)
}

// UniqueItems checks that the raw items are pairwise different JSON values
// and records a violation naming the first equal pair: the smallest j
// equal to an earlier item, and the first item i it equals. Each item is
// reduced once to a canonical key (jsonval.AppendKey: numbers by exact
// value, strings decoded, object members sorted) and looked up in a map,
// so the work is linear in the items' size, not quadratic in their count.
func (d *Decoder) UniqueItems(sp string, items [][]byte) {
	if i, j, dup := firstDuplicate(items); dup {
		d.add("uniqueItems", sp, "", " must not contain duplicate items; items "+strconv.Itoa(i)+" and "+strconv.Itoa(j)+" are equal", false)
	}
}

// firstDuplicate returns the first pair i < j of equal items, in the order
// of j. An item that is not valid JSON equals nothing.
func firstDuplicate(items [][]byte) (i, j int, dup bool) {
	if len(items) < 2 {
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
// "<subject><rule>; received <got>". ruleShowsReceived is set by the
// callers whose rule already ends with what was received ("must be a
// string; received null"): got is then not added. got == "" (a sensitive
// member) adds nothing either, and neither does any got while a sensitive
// value is being read (see BeginSensitive). got is already cut (Quote,
// Text): it costs what is shown, whatever the value's size.
func (d *Decoder) add(keyword, sp, got, rule string, ruleShowsReceived bool) {
	if !d.recording() {
		return
	}
	subj := d.subject()
	if subj == "" {
		subj = "the arguments"
	}
	msg := subj + rule
	if got != "" && !ruleShowsReceived && d.hidden == 0 {
		msg += "; received " + got
	}
	d.violate(keyword, sp, d.pointer(), msg)
}

func (d *Decoder) violate(keyword, sp, ptr, msg string) {
	d.violations = append(d.violations, toolerr.Violation{Keyword: keyword, InstancePath: ptr, SchemaPath: sp, Message: msg})
}

// maxName bounds, in runes, each member name a violation's pointer and
// message repeat. A longer name is cut to its first maxName runes followed
// by "…", in the InstancePath as in the message, so that one long name
// (which the model wrote) cannot make each of up to MaxViolations
// violations as large as the input. Such a pointer no longer resolves in
// the arguments: a token ending in "…" after 128 runes marks the cut. Names
// the schema declares are far shorter, so the cut only ever applies to
// undeclared members and to the path through them. Only the bytes of the
// runes shown are read.
const maxName = 128

// maxPathText bounds, in bytes, the InstancePath and the message's subject
// of a violation: the segments that would go past it are left out and "/…"
// (pointer) or "…" (subject) marks the cut. With names cut at maxName, a
// deep path through long undeclared names would otherwise repeat up to
// 64×128 runes in each violation.
const maxPathText = 1024

// hiddenName stands, in pointers and messages, for a member name that is
// not shown: an undeclared name (a map key, an unknown member) read inside
// a sensitive value. A sensitive value covers its keys too: a map of
// secrets may be keyed by them. Declared names come from the schema and
// are shown.
const hiddenName = "*"

// pointer renders the current path as an RFC 6901 JSON pointer, each name
// cut at maxName runes, the whole cut at maxPathText bytes.
func (d *Decoder) pointer() string {
	var b strings.Builder
	for i, seg := range d.segments() {
		if b.Len() >= maxPathText {
			b.WriteString("/…")
			break
		}
		b.WriteByte('/')
		switch {
		case seg < 0:
			b.WriteString(strconv.Itoa(int(-seg - 1)))
		case d.hiddenSegs&(1<<i) != 0:
			b.WriteString(hiddenName)
		default:
			b.WriteString(jsonval.EscapeToken(d.name(seg)))
		}
	}
	return b.String()
}

// subject renders the current path for a message: "line_items[0].sku",
// each name shown by showName and cut at maxName runes, the whole cut at
// maxPathText bytes.
func (d *Decoder) subject() string {
	var b strings.Builder
	for i, seg := range d.segments() {
		if b.Len() >= maxPathText {
			b.WriteString("…")
			break
		}
		if seg < 0 {
			b.WriteString("[" + strconv.Itoa(int(-seg-1)) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if d.hiddenSegs&(1<<i) != 0 {
			b.WriteString(hiddenName)
			continue
		}
		name, cut := nameAt(d.R.Data(), int(seg), maxName)
		b.WriteString(showName(name))
		if cut {
			b.WriteString("…")
		}
	}
	return b.String()
}

// name returns the member name whose quote is at seg, cut at maxName runes
// and then followed by "…".
func (d *Decoder) name(seg pathSeg) string {
	name, cut := nameAt(d.R.Data(), int(seg), maxName)
	if cut {
		return name + "…"
	}
	return name
}

// nameAt decodes at most max runes of the member name whose opening quote
// is data[off], a name the reader has already accepted (valid UTF-8 and
// escapes), and reports whether the name goes on beyond them. It reads only
// the bytes of the runes it returns.
func nameAt(data []byte, off, max int) (name string, cut bool) {
	var b []byte
	i := off + 1
	for n := 0; i < len(data) && data[i] != '"'; n++ {
		if n == max {
			return string(b), true
		}
		if data[i] != '\\' {
			_, size := utf8.DecodeRune(data[i:])
			b = append(b, data[i:i+size]...)
			i += size
			continue
		}
		if i+1 >= len(data) {
			break
		}
		c := data[i+1]
		i += 2
		switch c {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r := hex4(data, i)
			i += 4
			if utf16.IsSurrogate(r) && i+6 <= len(data) && data[i] == '\\' && data[i+1] == 'u' {
				r = utf16.DecodeRune(r, hex4(data, i+2))
				i += 6
			}
			b = utf8.AppendRune(b, r)
		default: // '"', '\\', '/'
			b = append(b, c)
		}
	}
	return string(b), false
}

// hex4 reads the four hex digits at data[i:], or returns U+FFFD.
func hex4(data []byte, i int) rune {
	if i+4 > len(data) {
		return utf8.RuneError
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return utf8.RuneError
		}
	}
	return r
}

func (d *Decoder) segments() []pathSeg {
	return d.path[:min(d.depth, maxPath)]
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}
