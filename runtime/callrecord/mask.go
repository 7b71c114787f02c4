package callrecord

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/format"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// A Masker takes the text out of one tool's call arguments, walking them
// beside the tool's effective schema, so that a record can be committed.
// What it keeps, exactly:
//
//   - member names and the number of items: the gate's audit events carry
//     violation paths already, and required, additionalProperties and the
//     item counts need them. Inside a sensitive value a name the schema does
//     not declare is a secret (a map keyed by card numbers): such a call is
//     not replayable.
//   - a value equal to one of the enum or const values of a schema that
//     applies to it: schema text, not the caller's, even where sensitive.
//   - numbers, booleans and null that are not sensitive: bounds,
//     multipleOf and types need them.
//   - for a string that is not sensitive, a stand-in: a fixed example of
//     its format when it satisfies one (2000-01-01 for a date), else each
//     character's class (an upper-case letter becomes A, any other letter a,
//     a digit 1; spaces, punctuation, symbols and control characters stay),
//     with the characters a pattern fixes kept as written: ORD-123456 under
//     ^ORD-[0-9]{6}$ becomes ORD-111111.
//   - for a sensitive value (writeOnly, x-toolgate sensitive, a member of a
//     tool marked sensitive, or a pointer the recorder's options list), a
//     placeholder of the same type built from the schema alone, never from
//     the value: a format's example, a string its pattern matches, a bound.
//
// Every stand-in must be decided as the value it replaces by each schema
// that applies to it (valid where the value was valid, invalid where it was
// not), and the masked arguments as a whole exactly as the original ones
// (the same violations at the same paths), both checked with the Checker
// before anything is written. Where no stand-in passes, the call is not
// replayable: its record keeps the outcome, and no arguments at all.
type Masker struct {
	root      *jsonval.Value
	check     *Checker
	sensitive []string
}

// NewMasker returns the masker of a tool with the effective schema schema
// and the sensitive schema pointers of gate.Spec.Sensitive.
func NewMasker(tool, schema string, sensitive []string) (*Masker, error) {
	root, err := jsonval.Parse([]byte(schema))
	if err != nil {
		return nil, err
	}
	c, err := NewChecker(tool, schema, true)
	if err != nil {
		return nil, err
	}
	return &Masker{root: root, check: c, sensitive: slices.Clone(sensitive)}, nil
}

// Reasons a call is not replayable, as a record states them.
const (
	whyUnjudged    = "the validator cannot judge the arguments (a number too long or with too large an exponent)"
	whyNoStandIn   = "no stand-in for a value at %s is decided as the value is"
	whyHiddenName  = "a member name inside a sensitive value is not declared by the schema"
	whyDecidedElse = "the masked arguments are decided otherwise than the original ones"
	whyTooMuch     = "masking the arguments would take more than the recorder's bound of validations"
)

// maxChecks bounds the validations one Mask call runs: arguments of up to
// 1 MiB may hold many thousands of strings, and the recorder runs on the
// gate's path.
const maxChecks = 2048

// Masked is what Mask makes of one call's arguments.
type Masked struct {
	// Args are the masked arguments, nil when the call is not replayable.
	Args *jsonval.Value
	// Why says why the call is not replayable ("" when it is).
	Why string
	// Original is how the schema decides the original arguments.
	Original Decision
	// Hidden are the member names Mask did not keep: a record's violation
	// paths must not show them either (see HidePath).
	Hidden map[string]bool
}

// Mask masks args. sensitive reports instance pointers ("/card/number")
// whose values are sensitive whatever the schema says.
func (m *Masker) Mask(args *jsonval.Value, sensitive func(ptr string) bool) Masked {
	w := &maskWalk{Masker: m, sensitiveArg: sensitive, hidden: map[string]bool{}, patterns: map[string]*regexp.Regexp{}, checks: maxChecks}
	out := Masked{Hidden: w.hidden}
	want, err := m.check.Decide(args)
	if err != nil {
		out.Why = whyUnjudged
		return out
	}
	out.Original = want
	root, opaque := w.expand([]loc{{m.root, ""}})
	masked := w.value(args, root, "", opaque)
	if w.why != "" {
		out.Why = w.why
		return out
	}
	if got, err := m.check.Decide(masked); err != nil || !got.Equal(want) {
		out.Why = whyDecidedElse
		return out
	}
	out.Args = masked
	return out
}

// loc is a subschema that applies to a value, and its pointer in the
// effective schema.
type loc struct {
	s   *jsonval.Value
	ptr string
}

// maxLocs bounds the subschemas considered for one value.
const maxLocs = 64

// maxGreedy bounds the length, in code points, of a string whose
// characters are restored one by one where the pattern fixes them (each
// try is a validation).
const maxGreedy = 256

// maskWalk is one Mask call.
type maskWalk struct {
	*Masker
	sensitiveArg func(string) bool
	hidden       map[string]bool
	patterns     map[string]*regexp.Regexp
	checks       int // validations left
	why          string
}

func (w *maskWalk) fail(why string) {
	if w.why == "" {
		w.why = why
	}
}

// expand adds to locs the subschemas that apply to the same value: the
// targets of $ref and the branches of allOf, anyOf, oneOf, dependentSchemas,
// if, then, else and not, each once. opaque reports a reference that is not a JSON pointer
// into the schema ($dynamicRef, an anchor, another resource): what it
// applies is unknown here, a sensitive mark included, so the value is
// treated as sensitive.
func (w *maskWalk) expand(locs []loc) (out []loc, opaque bool) {
	seen := map[string]bool{}
	for len(locs) > 0 && len(out) < maxLocs {
		l := locs[0]
		locs = locs[1:]
		if seen[l.ptr] {
			continue
		}
		seen[l.ptr] = true
		out = append(out, l)
		if l.s.Kind != jsonval.Object {
			continue
		}
		for _, mem := range l.s.Members {
			at := l.ptr + "/" + jsonval.EscapeToken(mem.Key)
			switch mem.Key {
			case "$ref", "$dynamicRef":
				t, ptr, ok := jsonval.ResolveRef(w.root, mem.Value.Str)
				if mem.Key == "$dynamicRef" || mem.Value.Kind != jsonval.String || !ok {
					opaque = true
					continue
				}
				locs = append(locs, loc{t, ptr})
			case "allOf", "anyOf", "oneOf":
				for i, it := range mem.Value.Items {
					locs = append(locs, loc{it, at + "/" + strconv.Itoa(i)})
				}
			case "dependentSchemas":
				for _, c := range mem.Value.Members {
					locs = append(locs, loc{c.Value, at + "/" + jsonval.EscapeToken(c.Key)})
				}
			case "if", "then", "else", "not":
				locs = append(locs, loc{mem.Value, at})
			}
		}
	}
	return out, opaque || len(locs) > 0
}

// marked reports whether a schema in locs marks its value sensitive:
// writeOnly, or a pointer of the tool's Sensitive at or above it.
func (w *maskWalk) marked(locs []loc) bool {
	for _, l := range locs {
		if wo := l.s.Get("writeOnly"); wo != nil && wo.Kind == jsonval.Bool && wo.Bool {
			return true
		}
		for _, p := range w.sensitive {
			if p == "" || l.ptr == p || strings.HasPrefix(l.ptr, p+"/") {
				return true
			}
		}
	}
	return false
}

// member returns the subschemas that apply to the member key of an object
// under locs (properties, patternProperties, additionalProperties, and
// unevaluatedProperties for a name no properties declare), whether one
// declares it, and whether expand found them opaque.
func (w *maskWalk) member(locs []loc, key string) (out []loc, declared, opaque bool) {
	var unevaluated []loc
	for _, l := range locs {
		matched := false
		if p := l.s.Get("properties"); p != nil {
			if c := p.Get(key); c != nil {
				out, matched, declared = append(out, loc{c, l.ptr + "/properties/" + jsonval.EscapeToken(key)}), true, true
			}
		}
		if pp := l.s.Get("patternProperties"); pp != nil {
			for _, c := range pp.Members {
				if re := w.pattern(c.Key); re != nil && re.MatchString(key) {
					out, matched = append(out, loc{c.Value, l.ptr + "/patternProperties/" + jsonval.EscapeToken(c.Key)}), true
				}
			}
		}
		if a := l.s.Get("additionalProperties"); a != nil && !matched {
			out = append(out, loc{a, l.ptr + "/additionalProperties"})
		}
		if u := l.s.Get("unevaluatedProperties"); u != nil {
			unevaluated = append(unevaluated, loc{u, l.ptr + "/unevaluatedProperties"})
		}
	}
	if !declared {
		out = append(out, unevaluated...)
	}
	out, opaque = w.expand(out)
	return out, declared, opaque
}

// secretNames reports whether a propertyNames schema under locs is
// sensitive: then every member name of the object is a secret.
func (w *maskWalk) secretNames(locs []loc) bool {
	for _, l := range locs {
		if pn := l.s.Get("propertyNames"); pn != nil && w.marked([]loc{{pn, l.ptr + "/propertyNames"}}) {
			return true
		}
	}
	return false
}

// item returns the subschemas that apply to item i of an array under locs
// (prefixItems or items, draft-07's items list or additionalItems, contains
// and unevaluatedItems), and whether expand found them opaque.
func (w *maskWalk) item(locs []loc, i int) ([]loc, bool) {
	var out []loc
	at := func(l loc, kw string) string { return l.ptr + "/" + kw }
	for _, l := range locs {
		pre, it := l.s.Get("prefixItems"), l.s.Get("items")
		switch {
		case pre != nil && pre.Kind == jsonval.Array && i < len(pre.Items):
			out = append(out, loc{pre.Items[i], at(l, "prefixItems/"+strconv.Itoa(i))})
		case it != nil && it.Kind == jsonval.Array && i < len(it.Items):
			out = append(out, loc{it.Items[i], at(l, "items/"+strconv.Itoa(i))})
		case it != nil && it.Kind == jsonval.Array:
			if a := l.s.Get("additionalItems"); a != nil {
				out = append(out, loc{a, at(l, "additionalItems")})
			}
		case it != nil:
			out = append(out, loc{it, at(l, "items")})
		}
		for _, kw := range []string{"contains", "unevaluatedItems"} {
			if c := l.s.Get(kw); c != nil {
				out = append(out, loc{c, at(l, kw)})
			}
		}
	}
	return w.expand(out)
}

func (w *maskWalk) pattern(p string) *regexp.Regexp {
	re, ok := w.patterns[p]
	if !ok {
		re, _ = regexp.Compile(p)
		w.patterns[p] = re
	}
	return re
}

// value masks v, which locs apply to, at the instance pointer ptr; secret
// is set below a sensitive value.
func (w *maskWalk) value(v *jsonval.Value, locs []loc, ptr string, secret bool) *jsonval.Value {
	secret = secret || w.sensitiveArg != nil && w.sensitiveArg(ptr) || w.marked(locs)
	if enumHas(locs, v) {
		return v.Clone()
	}
	switch v.Kind {
	case jsonval.Object:
		out := &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{}}
		for _, mem := range v.Members {
			child, declared, opaque := w.member(locs, mem.Key)
			if secret && !declared || w.secretNames(locs) {
				w.hidden[mem.Key] = true
				w.fail(whyHiddenName)
				continue
			}
			out.Members = append(out.Members, jsonval.Member{Key: mem.Key, Value: w.value(mem.Value, child, ptr+"/"+jsonval.EscapeToken(mem.Key), secret || opaque)})
		}
		return out
	case jsonval.Array:
		out := &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{}}
		for i, it := range v.Items {
			child, opaque := w.item(locs, i)
			out.Items = append(out.Items, w.value(it, child, ptr+"/"+strconv.Itoa(i), secret || opaque))
		}
		return out
	case jsonval.Null:
		return v.Clone()
	}
	if !secret && v.Kind != jsonval.String {
		return v.Clone()
	}
	var got *jsonval.Value
	switch v.Kind {
	case jsonval.String:
		got = w.str(v, locs, secret)
	case jsonval.Number:
		got = w.pick(v, locs, numbers(numberCandidates(locs)))
	case jsonval.Bool:
		got = w.pick(v, locs, []*jsonval.Value{{Kind: jsonval.Bool}, {Kind: jsonval.Bool, Bool: true}})
	}
	if got == nil {
		w.fail(fmt.Sprintf(whyNoStandIn, strconv.Quote(HidePath(ptr, w.hidden))))
		return &jsonval.Value{Kind: jsonval.Null}
	}
	return got
}

// str returns the stand-in of the string v, or nil.
func (w *maskWalk) str(v *jsonval.Value, locs []loc, secret bool) *jsonval.Value {
	var cands []*jsonval.Value
	add := func(s string) { cands = append(cands, &jsonval.Value{Kind: jsonval.String, Str: s}) }
	for _, l := range locs {
		if f := l.s.Get("format"); f != nil && f.Kind == jsonval.String {
			if ex, ok := formatExamples[f.Str]; ok {
				if check, known := format.Lookup(f.Str); secret || known && check(v.Str) {
					add(ex)
				}
			}
		}
	}
	if !secret {
		add(string(classMask(v.Str)))
		if got := w.pick(v, locs, cands); got != nil {
			return got
		}
		return w.restore(v, locs)
	}
	for _, l := range locs {
		if p := l.s.Get("pattern"); p != nil && p.Kind == jsonval.String {
			for _, extra := range []int{0, 1, 2, 4, 8, 16, 32, 64} {
				if ex, ok := patternExample(p.Str, extra); ok {
					add(ex)
				}
			}
		}
	}
	add("")
	add("x")
	for _, l := range locs {
		for _, kw := range lengthBounds {
			if n := l.s.Get(kw); n != nil && n.Kind == jsonval.Number {
				if k, err := strconv.Atoi(n.Str); err == nil && k < maxExample {
					add(strings.Repeat("x", k))
					add(strings.Repeat("x", k+1))
					add(strings.Repeat("1", k))
				}
			}
		}
	}
	return w.pick(v, locs, cands)
}

// restore returns the class mask of the string v with, one by one from the
// start, each character the schemas need kept as written, or nil.
func (w *maskWalk) restore(v *jsonval.Value, locs []loc) *jsonval.Value {
	want, ok := w.decided(v, locs)
	orig := []rune(v.Str)
	if !ok || len(orig) > maxGreedy {
		return nil
	}
	out := slices.Clone(orig)
	for i, r := range orig {
		if c := classOf(r); c != r {
			out[i] = c
			got, ok := w.decided(&jsonval.Value{Kind: jsonval.String, Str: string(out)}, locs)
			if !ok {
				return nil
			}
			if !same(got, want) {
				out[i] = r
			}
		}
	}
	return &jsonval.Value{Kind: jsonval.String, Str: string(out)}
}

// pick returns the first candidate each of locs decides as it decides v,
// or nil.
func (w *maskWalk) pick(v *jsonval.Value, locs []loc, cands []*jsonval.Value) *jsonval.Value {
	want, ok := w.decided(v, locs)
	if !ok {
		return nil
	}
	for _, c := range cands {
		if got, ok := w.decided(c, locs); ok && same(got, want) {
			return c
		}
	}
	return nil
}

// decided returns how each of locs decides v (valid, or which keywords
// fail where); ok is false when the validator cannot tell.
func (w *maskWalk) decided(v *jsonval.Value, locs []loc) (ds []Decision, ok bool) {
	if w.why != "" {
		return nil, false // the call is not replayable already
	}
	for _, l := range locs {
		if w.checks--; w.checks < 0 {
			w.fail(whyTooMuch)
			return nil, false
		}
		d, err := w.check.decideAt(l.ptr, v)
		if err != nil {
			return nil, false
		}
		ds = append(ds, d)
	}
	return ds, true
}

// same reports whether two results of decided agree.
func same(a, b []Decision) bool { return slices.EqualFunc(a, b, Decision.Equal) }

// enumHas reports whether v is one of the enum or const values of a
// schema in locs.
func enumHas(locs []loc, v *jsonval.Value) bool {
	for _, l := range locs {
		if e := l.s.Get("enum"); e != nil && e.Kind == jsonval.Array && slices.ContainsFunc(e.Items, func(x *jsonval.Value) bool { return jsonval.Equal(x, v) }) {
			return true
		}
		if c := l.s.Get("const"); c != nil && jsonval.Equal(c, v) {
			return true
		}
	}
	return false
}

// numbers turns number texts into values.
func numbers(texts []string) []*jsonval.Value {
	out := make([]*jsonval.Value, len(texts))
	for i, t := range texts {
		out[i] = &jsonval.Value{Kind: jsonval.Number, Str: t}
	}
	return out
}

// HidePath replaces by * each token of the JSON pointer ptr that names a
// member in hidden (Masked.Hidden).
func HidePath(ptr string, hidden map[string]bool) string {
	if len(hidden) == 0 || ptr == "" {
		return ptr
	}
	toks := strings.Split(ptr[1:], "/")
	for i, t := range toks {
		if hidden[jsonval.UnescapeToken(t)] {
			toks[i] = "*"
		}
	}
	return "/" + strings.Join(toks, "/")
}

// lengthBounds are the keywords that bound a string's length, lower first.
var lengthBounds = func() []string {
	var out []string
	for _, k := range schema.Keywords() {
		if k.Of == schema.OfString && k.Bound != schema.NoBound {
			out = append(out, k.Name)
		}
	}
	return out
}()
