package callrecord

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/format"
	"github.com/toolgate/toolgate/runtime/jsonval"
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
)

// Mask returns the masked copy of args, or nil and why args cannot be
// masked into a replayable call. sensitive reports instance pointers
// ("/card/number") whose values are sensitive whatever the schema says.
// hidden are the member names Mask did not keep (a record's violation
// paths must not show them either).
func (m *Masker) Mask(args *jsonval.Value, sensitive func(ptr string) bool) (masked *jsonval.Value, why string, hidden map[string]bool) {
	w := &maskWalk{Masker: m, sensitiveArg: sensitive, hidden: map[string]bool{}, patterns: map[string]*regexp.Regexp{}}
	want, err := m.check.Decide(args)
	if err != nil {
		return nil, whyUnjudged, w.hidden
	}
	masked = w.value(args, w.expand([]loc{{m.root, ""}}), "", false)
	if w.why != "" {
		return nil, w.why, w.hidden
	}
	got, err := m.check.Decide(masked)
	if err != nil || !got.Equal(want) {
		return nil, whyDecidedElse, w.hidden
	}
	return masked, "", w.hidden
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
	why          string
}

func (w *maskWalk) fail(why string) {
	if w.why == "" {
		w.why = why
	}
}

// expand adds to locs the subschemas that apply to the same value: the
// targets of $ref and the branches of allOf, anyOf, oneOf, if, then and
// else, each once.
func (w *maskWalk) expand(locs []loc) []loc {
	out := []loc{}
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
			case "$ref":
				if mem.Value.Kind == jsonval.String {
					if t, ptr, ok := jsonval.ResolveRef(w.root, mem.Value.Str); ok {
						locs = append(locs, loc{t, ptr})
					}
				}
			case "allOf", "anyOf", "oneOf":
				for i, it := range mem.Value.Items {
					locs = append(locs, loc{it, at + "/" + strconv.Itoa(i)})
				}
			case "if", "then", "else":
				locs = append(locs, loc{mem.Value, at})
			}
		}
	}
	return out
}

// secret reports whether a value at ptr under locs is sensitive.
func (w *maskWalk) secret(locs []loc, ptr string) bool {
	if w.sensitiveArg != nil && w.sensitiveArg(ptr) {
		return true
	}
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
// under locs, and whether one of them declares it.
func (w *maskWalk) member(locs []loc, key string) (out []loc, declared bool) {
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
	}
	return w.expand(out), declared
}

// item returns the subschemas that apply to item i of an array under locs.
func (w *maskWalk) item(locs []loc, i int) []loc {
	var out []loc
	for _, l := range locs {
		if pre := l.s.Get("prefixItems"); pre != nil && pre.Kind == jsonval.Array && i < len(pre.Items) {
			out = append(out, loc{pre.Items[i], l.ptr + "/prefixItems/" + strconv.Itoa(i)})
		} else if it := l.s.Get("items"); it != nil && it.Kind != jsonval.Array {
			out = append(out, loc{it, l.ptr + "/items"})
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

func (w *maskWalk) value(v *jsonval.Value, locs []loc, ptr string, secret bool) *jsonval.Value {
	secret = secret || w.secret(locs, ptr)
	switch v.Kind {
	case jsonval.Object:
		out := &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{}}
		for _, mem := range v.Members {
			child, declared := w.member(locs, mem.Key)
			if secret && !declared {
				w.hidden[mem.Key] = true
				w.fail(whyHiddenName)
				continue
			}
			out.Members = append(out.Members, jsonval.Member{Key: mem.Key, Value: w.value(mem.Value, child, ptr+"/"+jsonval.EscapeToken(mem.Key), secret)})
		}
		return out
	case jsonval.Array:
		out := &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{}}
		for i, it := range v.Items {
			out.Items = append(out.Items, w.value(it, w.item(locs, i), ptr+"/"+strconv.Itoa(i), secret))
		}
		return out
	case jsonval.Null:
		return v.Clone()
	}
	if enumHas(locs, v) || !secret && v.Kind != jsonval.String {
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
		w.fail(fmt.Sprintf(whyNoStandIn, strconv.Quote(w.shown(ptr))))
		return &jsonval.Value{Kind: jsonval.Null}
	}
	return got
}

// shown is ptr with the names Mask did not keep replaced by *.
func (w *maskWalk) shown(ptr string) string { return hidePath(ptr, w.hidden) }

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
		for _, kw := range []string{"minLength", "maxLength"} {
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
	for _, l := range locs {
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

// hidePath replaces each token of the JSON pointer ptr that names a hidden
// member by *.
func hidePath(ptr string, hidden map[string]bool) string {
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
