package decode

import (
	"bytes"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/internal/violation"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Composition support: the keywords that look at a whole value (allOf,
// anyOf, oneOf, not, if/then/else, dependentRequired, dependentSchemas,
// patternProperties, propertyNames, minProperties, maxProperties,
// contains) are checked on the value's raw bytes once the decoder has read
// it. The bytes are the ones already read (jsonread.Reader.Capture): the
// document is never read again, only the member's own bytes, once per
// branch that has to be tried. A branch is tried with a fresh Decoder on
// those bytes (Trial, then Valid); its violations are not reported, the
// composition's own violation is.

// Trial prepares d to try a branch schema on raw, the bytes of a value
// already accepted by the decoder that read it. A trial only tells whether
// the branch holds: its first violation stops the reader (jsonread's
// Stop), so that nothing more is read and nothing is recorded, and it keeps
// no value (Value and ReadString return "", Capture the bytes themselves).
func (d *Decoder) Trial(raw []byte) {
	d.Reset("", raw)
	d.trial = true
}

// StringTrial reports whether raw, the bytes of a value already accepted
// by the decoder that read it, satisfies a branch schema whose keywords
// apply to strings only (format, pattern and the length bounds), r being
// those keywords: a string that keeps them, or, when others is true (the
// branch names no type), a value of any other type. It is the trial of
// such a branch without a Decoder (Trial): for a short string, making and
// resetting a Decoder costs more than the checks.
func StringTrial(raw []byte, r *Scalar, others bool) bool {
	for len(raw) > 0 && isSpace(raw[0]) {
		raw = raw[1:]
	}
	for len(raw) > 0 && isSpace(raw[len(raw)-1]) {
		raw = raw[:len(raw)-1]
	}
	if len(raw) < 2 || raw[0] != '"' {
		return others
	}
	s := raw[1 : len(raw)-1]
	if bytes.IndexByte(s, '\\') >= 0 {
		return escapedTrial(raw, r)
	}
	return r.holds(s)
}

// isSpace reports whether c is JSON whitespace.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// escapedTrial is StringTrial of a string with escapes, read with a
// Reader of its own; apart, so that StringTrial keeps no Reader.
func escapedTrial(raw []byte, r *Scalar) bool {
	var rd jsonread.Reader
	rd.Reset(raw, jsonread.DefaultLimits)
	return r.holds(rd.String())
}

// Valid reports whether the trial read one value with no violation.
func (d *Decoder) Valid() bool {
	d.R.Finish()
	return d.R.Err() == nil && d.v.Len() == 0
}

// KindOf is the JSON kind of the raw value.
func KindOf(raw []byte) jsonread.Kind { return jsonread.KindOf(raw) }

// Members yields the name (unescaped) and raw bytes of each member of the
// raw object, in document order. raw must be a valid object.
func Members(raw []byte) iter.Seq2[string, []byte] { return (*trialMemo)(nil).members(raw) }

// Items yields the index and raw bytes of each item of the raw array.
func Items(raw []byte) iter.Seq2[int, []byte] { return (*trialMemo)(nil).items(raw) }

// Has reports whether the raw object has a member of that name.
func Has(raw []byte, name string) bool { return hasMember(Members(raw), name) }

// hasMember reports whether members holds one named name.
func hasMember(members iter.Seq2[string, []byte], name string) bool {
	for k := range members {
		if k == name {
			return true
		}
	}
	return false
}

// NameJSON is a member name as a JSON string, for trying propertyNames.
func NameJSON(name string) []byte { return jsonval.AppendString(nil, name) }

// AllOf records a value that fails schema i of allOf.
func (d *Decoder) AllOf(sp string, i int) {
	d.add(violation.AllOf, sp, " must match every schema of allOf; it does not match #"+strconv.Itoa(i), "")
}

// AnyOf records a value that matches no schema of anyOf.
func (d *Decoder) AnyOf(sp string) {
	d.add(violation.AnyOf, sp, " must match at least one schema of anyOf; it matches none", "")
}

// OneOf records a value that matches no schema of oneOf (first < 0) or
// two of them, first and second.
func (d *Decoder) OneOf(sp string, first, second int) {
	if first < 0 {
		d.add(violation.OneOf, sp, " must match exactly one schema of oneOf; it matches none", "")
		return
	}
	d.add(violation.OneOf, sp, " must match exactly one schema of oneOf; it matches #"+strconv.Itoa(first)+" and #"+strconv.Itoa(second), "")
}

// Not records a value that matches the schema of not.
func (d *Decoder) Not(sp string) {
	d.add(violation.Not, sp, " must not match the schema of not", "")
}

// IfThenElse records a value that matches if but not then (kw "then") or
// fails if and does not match else (kw "else").
func (d *Decoder) IfThenElse(sp, kw string) {
	if kw == "then" {
		d.add(violation.Then, sp, " matches the if schema, so it must match then", "")
		return
	}
	d.add(violation.Else, sp, " does not match the if schema, so it must match else", "")
}

// MinProperties records an object with fewer than min members.
func (d *Decoder) MinProperties(sp string, min, n int) {
	d.add(violation.MinProperties, sp, " must have at least "+plural(min, "member")+"; received "+strconv.Itoa(n), "")
}

// MaxProperties records an object with more than max members.
func (d *Decoder) MaxProperties(sp string, max, n int) {
	d.add(violation.MaxProperties, sp, " must have at most "+plural(max, "member")+"; received "+strconv.Itoa(n), "")
}

// DependentRequired records that member dep is missing although name,
// which requires it, is present (both names come from the schema).
func (d *Decoder) DependentRequired(sp, name, dep string) {
	d.add(violation.DependentRequired, sp, " must have "+showName(dep)+" because it has "+showName(name), "")
}

// DependentSchema records an object that has member name but fails the
// schema name requires.
func (d *Decoder) DependentSchema(sp, name string) {
	d.add(violation.DependentSchemas, sp, " has "+showName(name)+", so it must match the schema that "+showName(name)+" requires", "")
}

// PropertyName records a member name that fails propertyNames. The name
// was written by the caller: it is cut like other received values, and not
// shown inside a sensitive value.
func (d *Decoder) PropertyName(sp, name string) {
	d.add(violation.PropertyNames, sp, " has a member name that propertyNames does not allow", violation.Quote([]byte(name)))
}

// PatternProperty records a member whose name matches pattern but whose
// value fails the schema of that pattern.
func (d *Decoder) PatternProperty(sp, name, pattern string) {
	d.add(violation.PatternProperties, sp, " has a member, named as received, whose value fails the schema of patternProperties "+violation.Show(pattern), violation.Quote([]byte(name)))
}

// Contains records an array with n items matching contains, fewer than
// min or more than max (max < 0: no maximum).
func (d *Decoder) Contains(sp string, min, max, n int) {
	var rule strings.Builder
	rule.WriteString(" must contain ")
	switch {
	case max < 0:
		rule.WriteString("at least " + plural(min, "item"))
	case min == 0:
		rule.WriteString("at most " + plural(max, "item"))
	default:
		rule.WriteString("between " + strconv.Itoa(min) + " and " + plural(max, "item"))
	}
	rule.WriteString(" matching contains; received " + strconv.Itoa(n))
	k := violation.Contains
	switch {
	case max >= 0 && n > max:
		k = violation.MaxContains
	case min != 1:
		k = violation.MinContains
	}
	d.add(k, sp, rule.String(), "")
}

// Ref records a value that fails the schema of a $ref written beside
// other keywords.
func (d *Decoder) Ref(sp string) {
	d.add(violation.Ref, sp, " must match the referenced schema", "")
}

// FirstTwo returns the indexes of the first two true values of oks, -1
// for each that is missing: oneOf holds when first >= 0 and second < 0.
func FirstTwo(oks ...bool) (first, second int) {
	first, second = -1, -1
	for i, ok := range oks {
		switch {
		case !ok:
		case first < 0:
			first = i
		default:
			return first, i
		}
	}
	return first, second
}

// Seen collects what the schemas that hold for a value evaluate of it
// (JSON Schema's annotations): the member names and item indexes that
// unevaluatedProperties and unevaluatedItems then leave alone.
type Seen struct {
	allNames, allItems bool
	names              []string
	items              int
	idx                []int
}

// Names notes declared member names (properties).
func (s *Seen) Names(names ...string) { s.names = append(s.names, names...) }

// Name notes one member name (matched by patternProperties).
func (s *Seen) Name(name string) { s.names = append(s.names, name) }

// AllNames notes that every member is evaluated (additionalProperties,
// unevaluatedProperties).
func (s *Seen) AllNames() { s.allNames = true }

// AllItems notes that every item is evaluated (items, unevaluatedItems).
func (s *Seen) AllItems() { s.allItems = true }

// Items notes that the first n items are evaluated (prefixItems).
func (s *Seen) Items(n int) { s.items = max(s.items, n) }

// Item notes that item i is evaluated (contains).
func (s *Seen) Item(i int) { s.idx = append(s.idx, i) }

// HasName reports whether the member is evaluated (generated code before
// version 5; later code ranges over UnevaluatedMembers).
func (s *Seen) HasName(name string) bool {
	return s.allNames || slices.Contains(s.names, name)
}

// HasItem reports whether item i is evaluated (generated code before
// version 5; later code ranges over UnevaluatedItems).
func (s *Seen) HasItem(i int) bool {
	return s.allItems || i < s.items || slices.Contains(s.idx, i)
}

// UnevaluatedMembers yields the name and raw bytes of each member of the
// raw object that is not evaluated, in document order: none, without
// reading raw, when every member is.
func (s *Seen) UnevaluatedMembers(raw []byte) iter.Seq2[string, []byte] {
	return s.unevaluatedMembers(Members(raw))
}

// unevaluatedMembers yields those of members that s does not note as
// evaluated. The iterator keeps copies of the fields, not s: s can stay on
// the caller's stack.
func (s *Seen) unevaluatedMembers(members iter.Seq2[string, []byte]) iter.Seq2[string, []byte] {
	all, names := s.allNames, s.names
	return func(yield func(string, []byte) bool) {
		if all {
			return
		}
		for name, value := range members {
			if !slices.Contains(names, name) && !yield(name, value) {
				return
			}
		}
	}
}

// UnevaluatedItems yields the index and raw bytes of each item of the raw
// array that is not evaluated: none, without reading raw, when every item
// is.
func (s *Seen) UnevaluatedItems(raw []byte) iter.Seq2[int, []byte] {
	return s.unevaluatedItems(Items(raw))
}

// unevaluatedItems yields those of items that s does not note as
// evaluated; like unevaluatedMembers, it keeps copies of s's fields.
func (s *Seen) unevaluatedItems(items iter.Seq2[int, []byte]) iter.Seq2[int, []byte] {
	all, prefix, idx := s.allItems, s.items, s.idx
	return func(yield func(int, []byte) bool) {
		if all {
			return
		}
		for i, item := range items {
			if i >= prefix && !slices.Contains(idx, i) && !yield(i, item) {
				return
			}
		}
	}
}

// Unevaluated records a member that no schema holding for the object
// evaluates and that unevaluatedProperties does not allow.
func (d *Decoder) Unevaluated(sp, name string) {
	d.add(violation.Unevaluated, sp, " has a member that no matching schema declares", violation.Quote([]byte(name)))
}

// UnevaluatedItem records an item that no schema holding for the array
// evaluates and that unevaluatedItems does not allow.
func (d *Decoder) UnevaluatedItem(sp string, i int) {
	d.add(violation.UnevaluatedItems, sp, " has item "+strconv.Itoa(i)+", which no matching schema allows", "")
}

// Candidates returns the branches of a discriminated oneOf or anyOf that
// raw may match: bit i is set when the member name holds values[i] (the
// JSON text of branch i's constant). Every branch requires that member
// with that one value, so the others cannot match and need no trial. A
// value that is not an object could match any branch: every bit is set.
func Candidates(raw []byte, name string, values ...string) uint64 {
	var r jsonread.Reader
	r.Reset(raw, jsonread.DefaultLimits)
	if r.Peek() != jsonread.Object {
		return ^uint64(0)
	}
	r.ObjectStart()
	for {
		n, ok := r.NextMember()
		if !ok {
			return 0
		}
		if string(n) != name {
			r.Skip()
			continue
		}
		start := r.Offset()
		r.Skip()
		v := r.Capture(start)
		// The same value may be spelt otherwise (escapes, 1.0 for 1).
		spelt := len(v) > 0 && (v[0] != '"' || bytes.IndexByte(v, '\\') >= 0)
		var mask uint64
		for i, val := range values {
			if i < 64 && (string(v) == val || spelt && Equal(v, []byte(val))) {
				mask |= 1 << i
			}
		}
		return mask
	}
}

// Tag returns the branch of a tagged union that the object at the start of
// ahead names: the index of the value of its member name among values
// (JSON texts), or -1 when ahead holds no object, the object lacks the
// member or holds another value there. Only the members up to the tag are
// read; the bytes after the object are not looked at.
func Tag(ahead []byte, name string, values ...string) int {
	if i, ok := firstMemberTag(ahead, name, values); ok {
		return i
	}
	mask := Candidates(ahead, name, values...)
	if mask == ^uint64(0) {
		return -1 // not an object
	}
	for i := range values {
		if mask&(1<<i) != 0 {
			return i
		}
	}
	return -1
}

// firstMemberTag is Tag's fast path for the common spelling, the tag first
// and written plainly ({"kind": "cat", ...): it compares bytes, and ok is
// false whenever anything else is found, for Candidates to read properly.
// The value is read in full by the decoder afterwards, so nothing is
// accepted here that the decoder would refuse.
func firstMemberTag(b []byte, name string, values []string) (int, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return 0, false
	}
	i = skipSpace(b, i+1)
	if i+len(name)+2 > len(b) || b[i] != '"' || string(b[i+1:i+1+len(name)]) != name || b[i+1+len(name)] != '"' {
		return 0, false
	}
	i = skipSpace(b, i+2+len(name))
	if i >= len(b) || b[i] != ':' {
		return 0, false
	}
	i = skipSpace(b, i+1)
	for k, v := range values {
		if len(v) == 0 || v[0] != '"' || len(b)-i <= len(v) || string(b[i:i+len(v)]) != v {
			continue
		}
		if j := skipSpace(b, i+len(v)); j < len(b) && (b[j] == ',' || b[j] == '}') {
			return k, true
		}
	}
	return 0, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// plural is n and its unit, with an s when n is not 1: "1 member",
// "3 items".
func plural(n int, unit string) string { return string(violation.AppendPlural(nil, n, unit)) }

// showName renders a member name from the schema as message paths do:
// bare when bareName says so, quoted with AppendVisible otherwise.
func showName(s string) string {
	if violation.BareName([]byte(s)) {
		return s
	}
	return string(violation.AppendVisible(nil, s))
}
