package contract

import (
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/format"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Instance is one argument document derived from a schema.
type Instance struct {
	// Name says what the instance exercises: "valid", "/amountInCents minimum-1",
	// "/address missing required line1", "/line_items/0 unknown member", ... A name starts with the
	// JSON pointer of the value it changes, left out for the document itself.
	Name string
	// JSON is the document, compact, members in schema order.
	JSON []byte
	// Valid is what the instance is expected to be by construction (true for the base valid instance and
	// in-bounds boundary values); callers compare verdicts with an oracle, not with this.
	Valid bool
}

// Instances returns a boundary matrix for the effective schema (a JSON Schema document whose root is an
// object schema, draft 2020-12 or draft-07 per its $schema): a valid base instance, then for each keyword
// instances at, inside and outside every bound; every enum value and a near-miss (other case, leading
// space); each required member missing; an unknown member added at every object; null where not allowed;
// wrong types (string for number, number for string, "2500" for integers, object for boolean, a JSON
// string holding JSON for an object); plus mutations of the valid base (drop each optional member; set each
// member to each of a few type-confused values). Deterministic (same schema → same list, same bytes), bounded
// (at most `max` instances, keep the matrix ordered so the most important come first), and never panics.
//
// The first instance is always the base, named "valid". The rest come in three tiers, each in document
// order: the keyword matrix (values at and just outside every bound, enum values and near-misses, missing
// required members, unknown members, null, the most likely wrong type); then values inside the bounds and
// the other wrong types; then the mutations. Instances with the same bytes as an earlier one are left
// out. Valid is decided by checking each document against the schema with the keywords listed below, so
// it holds for every instance, not only for the ones whose intent is plain from the name.
//
// Supported: type, enum, const, multipleOf, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
// minLength, maxLength (in code points), pattern (Go RE2 syntax), format (the formats of package
// runtime/format; others are annotations), items, prefixItems, additionalItems (draft-07), minItems,
// maxItems, uniqueItems, contains, minContains, maxContains, properties, patternProperties,
// additionalProperties, required, minProperties, maxProperties, propertyNames, dependentRequired,
// dependentSchemas, dependencies (draft-07), allOf, anyOf, oneOf, not, if/then/else, unevaluatedProperties,
// unevaluatedItems (unevaluated.go), and local $ref ("#" followed by a JSON pointer) into $defs,
// definitions or anywhere else in the document. Schemas with $dynamicRef, $recursiveRef, references to other documents or
// anchors, and patterns Go cannot compile are refused with an error naming the JSON pointer, as is a
// schema for which no valid instance can be built (a contradiction, or a required member that can only
// be satisfied by an infinite recursion).
func Instances(schema []byte, max int) ([]Instance, error) {
	return instances(schema, max, true)
}

// ValueInstances is Instances for a schema whose root may describe any JSON
// value, not only an object: the result schema of a tool (its
// outputSchema) may be an array, a scalar or a union.
func ValueInstances(schema []byte, max int) ([]Instance, error) {
	return instances(schema, max, false)
}

func instances(schema []byte, max int, objectRoot bool) ([]Instance, error) {
	if max < 1 {
		return nil, fmt.Errorf("contract: Instances: max must be at least 1, got %d", max)
	}
	root, err := jsonval.Parse(schema)
	if err != nil {
		return nil, fmt.Errorf("contract: schema is not JSON: %w", err)
	}
	if root.Kind != jsonval.Object {
		return nil, errors.New("contract: schema root is not an object schema")
	}
	d := &deriver{root: root, res: map[string]*regexp.Regexp{}, pools: map[string][]*jsonval.Value{}}
	if err := d.setDraft(); err != nil {
		return nil, err
	}
	if err := d.scan(root, ""); err != nil {
		return nil, err
	}
	if t := root.Get("type"); objectRoot && t != nil && !slices.Contains(typeList(t), "object") {
		return nil, errors.New("contract: schema root is not an object schema: its type does not include object")
	}
	base, err := d.synth(root, "", nil, 0)
	if err == nil && objectRoot && base.Kind != jsonval.Object {
		err = errors.New("the schema admits no object")
	}
	if err == nil {
		err = d.err
	}
	if err != nil {
		return nil, fmt.Errorf("contract: cannot build a valid instance: %w", err)
	}
	edits := d.edits(root, base, nil, 0)
	slices.SortStableFunc(edits, func(a, b edit) int { return a.tier - b.tier })
	out := []Instance{{Name: "valid", JSON: base.Marshal(), Valid: true}}
	seen := map[string]bool{string(out[0].JSON): true}
	for _, e := range edits {
		if len(out) >= max {
			break
		}
		doc := applyEdit(base, e)
		data := doc.Marshal()
		if seen[string(data)] {
			continue
		}
		seen[string(data)] = true
		out = append(out, Instance{Name: instName(e.where, e.what), JSON: data, Valid: d.check(root, doc, 0)})
	}
	if d.err != nil {
		return nil, fmt.Errorf("contract: %w", d.err)
	}
	return out, nil
}

// Limits that keep Instances bounded on any schema.
const (
	maxDepth    = 64   // nesting of schemas and values followed at once
	maxLen      = 4096 // longest string built for a length bound
	maxItemsLen = 256  // longest array built for an item-count bound
	maxExp      = 400  // largest decimal exponent of a number taken from the schema
)

// errRecursive reports that a value would need a schema that is already being built: an optional
// member is then left out.
var errRecursive = errors.New("recursive schema")

// deriver holds the schema document while instances are derived from it.
type deriver struct {
	root   *jsonval.Value
	draft7 bool
	res    map[string]*regexp.Regexp   // compiled patterns
	pools  map[string][]*jsonval.Value // variants, by schema and value
	err    error                       // first error found while checking
}

// edit is one change to the base instance: the value at path replaced (or added, for a new member), or
// removed when val is nil.
type edit struct {
	path  []string
	val   *jsonval.Value
	where []string // the value the name is about (path, or its parent for a member removed or added)
	what  string   // what the edit exercises
	tier  int
}

// The tiers of the matrix, most important first.
const (
	tierKeyword = iota + 1 // at and just outside every bound, enum values, missing, unknown, null
	tierInside             // inside the bounds, secondary wrong types
	tierMutate             // mutations of the base
)

// setDraft reads $schema: draft 2020-12 when absent.
func (d *deriver) setDraft() error {
	s := d.root.Get("$schema")
	if s == nil {
		return nil
	}
	if s.Kind != jsonval.String {
		return errors.New("contract: $schema is not a string")
	}
	u := strings.TrimSuffix(strings.TrimSuffix(s.Str, "#"), "/")
	switch strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://") {
	case "json-schema.org/draft/2020-12/schema":
	case "json-schema.org/draft-07/schema":
		d.draft7 = true
	default:
		return fmt.Errorf("contract: unsupported $schema %q (draft 2020-12 and draft-07 are supported)", s.Str)
	}
	return nil
}

// fail records the first error found while checking.
func (d *deriver) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// scan checks the shape of every schema in the document once, so that synthesis and checking can rely
// on it: known keyword values have the right JSON types, patterns compile, references resolve, and no
// unsupported keyword is used.
func (d *deriver) scan(s *jsonval.Value, ptr string) error {
	if s.Kind == jsonval.Bool {
		return nil
	}
	if s.Kind != jsonval.Object {
		return fmt.Errorf("contract: schema at %s is %s, not an object or boolean", ptrText(ptr), s.Kind)
	}
	for _, m := range s.Members {
		p := ptr + "/" + jsonval.EscapeToken(m.Key)
		v := m.Value
		bad := func(what string) error {
			return fmt.Errorf("contract: %s at %s is not %s", m.Key, ptrText(p), what)
		}
		switch m.Key {
		case "$dynamicRef", "$recursiveRef":
			return fmt.Errorf("contract: unsupported keyword %s at %s", m.Key, ptrText(p))
		case "unevaluatedProperties", "unevaluatedItems":
			if d.draft7 {
				continue
			}
			if err := d.scan(v, p); err != nil {
				return err
			}
		case "$ref":
			if v.Kind != jsonval.String {
				return bad("a string")
			}
			if d.resolve(v.Str) == nil {
				return fmt.Errorf("contract: $ref %q at %s does not resolve (only local references \"#/...\" are supported)", v.Str, ptrText(p))
			}
		case "type":
			ts := typeList(v)
			if len(ts) == 0 {
				return bad("a type name or a non-empty array of them")
			}
			for _, t := range ts {
				if !slices.Contains([]string{"null", "boolean", "object", "array", "number", "integer", "string"}, t) {
					return fmt.Errorf("contract: unknown type %q at %s", t, ptrText(p))
				}
			}
		case "pattern":
			if v.Kind != jsonval.String {
				return bad("a string")
			}
			if _, err := d.compile(v.Str); err != nil {
				return fmt.Errorf("contract: pattern at %s: %w", ptrText(p), err)
			}
		case "enum", "required":
			if v.Kind != jsonval.Array {
				return bad("an array")
			}
			if m.Key == "required" {
				for _, it := range v.Items {
					if it.Kind != jsonval.String {
						return bad("an array of strings")
					}
				}
			}
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			r := numRat(v)
			if r == nil {
				return bad("a number of moderate size")
			}
			if m.Key == "multipleOf" && r.Sign() <= 0 {
				return bad("a positive number")
			}
		case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains":
			if r := numRat(v); r == nil || !r.IsInt() || r.Sign() < 0 {
				return bad("a non-negative integer")
			}
		case "properties", "$defs", "definitions", "dependentSchemas", "patternProperties", "dependencies", "dependentRequired":
			if v.Kind != jsonval.Object {
				return bad("an object")
			}
			for _, sub := range v.Members {
				sp := p + "/" + jsonval.EscapeToken(sub.Key)
				if m.Key == "patternProperties" {
					if _, err := d.compile(sub.Key); err != nil {
						return fmt.Errorf("contract: patternProperties key at %s: %w", ptrText(sp), err)
					}
				}
				if m.Key == "dependentRequired" || m.Key == "dependencies" && sub.Value.Kind == jsonval.Array {
					if sub.Value.Kind != jsonval.Array {
						return fmt.Errorf("contract: %s at %s is not an array", m.Key, ptrText(sp))
					}
					continue
				}
				if err := d.scan(sub.Value, sp); err != nil {
					return err
				}
			}
		case "allOf", "anyOf", "oneOf", "prefixItems":
			if v.Kind != jsonval.Array || len(v.Items) == 0 && m.Key != "prefixItems" {
				return bad("a non-empty array of schemas")
			}
			for i, sub := range v.Items {
				if err := d.scan(sub, p+"/"+strconv.Itoa(i)); err != nil {
					return err
				}
			}
		case "items":
			if v.Kind == jsonval.Array {
				if !d.draft7 {
					return bad("a schema (use prefixItems for tuples in draft 2020-12)")
				}
				for i, sub := range v.Items {
					if err := d.scan(sub, p+"/"+strconv.Itoa(i)); err != nil {
						return err
					}
				}
				continue
			}
			if err := d.scan(v, p); err != nil {
				return err
			}
		case "additionalProperties", "additionalItems", "contains", "not", "if", "then", "else", "propertyNames":
			if err := d.scan(v, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// compile returns the compiled pattern, cached.
func (d *deriver) compile(p string) (*regexp.Regexp, error) {
	if re, ok := d.res[p]; ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	d.res[p] = re
	return re, nil
}

// match reports whether the (scanned, so compilable) pattern p matches s.
func (d *deriver) match(p, s string) bool {
	re, err := d.compile(p)
	if err != nil {
		d.fail(err)
		return false
	}
	return re.MatchString(s)
}

// resolve returns the schema a local reference points to, or nil.
func (d *deriver) resolve(ref string) *jsonval.Value {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil
	}
	return jsonval.Resolve(d.root, frag)
}

// ptrText renders a JSON pointer for messages.
func ptrText(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}

// ---- checking ----

// check reports whether v is valid against the schema s.
func (d *deriver) check(s, v *jsonval.Value, depth int) bool {
	if depth > maxDepth {
		d.fail(errors.New("schema or instance nested too deeply (or a $ref cycle)"))
		return false
	}
	switch s.Kind {
	case jsonval.Bool:
		return s.Bool
	case jsonval.Object:
	default:
		return true
	}
	if ref := s.Get("$ref"); ref != nil {
		t := d.resolve(ref.Str)
		if t == nil || !d.check(t, v, depth+1) {
			return false
		}
		if d.draft7 {
			return true
		}
	}
	for _, m := range s.Members {
		if !d.keyword(s, m.Key, m.Value, v, depth) {
			return false
		}
	}
	return true
}

// keyword checks one keyword (with its siblings where it depends on them).
func (d *deriver) keyword(s *jsonval.Value, key string, kw, v *jsonval.Value, depth int) bool {
	switch key {
	case "type":
		return slices.ContainsFunc(typeList(kw), func(t string) bool { return hasType(v, t) })
	case "enum":
		return slices.ContainsFunc(kw.Items, func(e *jsonval.Value) bool { return jsonval.Equal(e, v) })
	case "const":
		return jsonval.Equal(kw, v)
	case "allOf":
		for _, b := range kw.Items {
			if !d.check(b, v, depth+1) {
				return false
			}
		}
	case "anyOf":
		return slices.ContainsFunc(kw.Items, func(b *jsonval.Value) bool { return d.check(b, v, depth+1) })
	case "oneOf":
		n := 0
		for _, b := range kw.Items {
			if d.check(b, v, depth+1) {
				n++
			}
		}
		return n == 1
	case "not":
		return !d.check(kw, v, depth+1)
	case "unevaluatedProperties", "unevaluatedItems":
		return d.draft7 || d.unevaluated(s, key, kw, v, depth)
	case "if":
		if d.check(kw, v, depth+1) {
			if t := s.Get("then"); t != nil {
				return d.check(t, v, depth+1)
			}
		} else if e := s.Get("else"); e != nil {
			return d.check(e, v, depth+1)
		}
	}
	switch v.Kind {
	case jsonval.Number:
		return d.numberKeyword(key, kw, v)
	case jsonval.String:
		return d.stringKeyword(key, kw, v)
	case jsonval.Array:
		return d.arrayKeyword(s, key, kw, v, depth)
	case jsonval.Object:
		return d.objectKeyword(s, key, kw, v, depth)
	}
	return true
}

// numberKeyword checks a numeric keyword against the number v.
func (d *deriver) numberKeyword(key string, kw, v *jsonval.Value) bool {
	var c func(x, b *big.Rat) bool
	switch key {
	case "minimum":
		c = func(x, b *big.Rat) bool { return x.Cmp(b) >= 0 }
	case "exclusiveMinimum":
		c = func(x, b *big.Rat) bool { return x.Cmp(b) > 0 }
	case "maximum":
		c = func(x, b *big.Rat) bool { return x.Cmp(b) <= 0 }
	case "exclusiveMaximum":
		c = func(x, b *big.Rat) bool { return x.Cmp(b) < 0 }
	case "multipleOf":
		c = func(x, b *big.Rat) bool { return new(big.Rat).Quo(x, b).IsInt() }
	default:
		return true
	}
	x, b := numRat(v), numRat(kw)
	return x != nil && b != nil && c(x, b)
}

// stringKeyword checks a string keyword against the string v.
func (d *deriver) stringKeyword(key string, kw, v *jsonval.Value) bool {
	switch key {
	case "minLength":
		return utf8.RuneCountInString(v.Str) >= intOf(kw)
	case "maxLength":
		return utf8.RuneCountInString(v.Str) <= intOf(kw)
	case "pattern":
		return d.match(kw.Str, v.Str)
	case "format":
		if f, ok := format.Lookup(kw.Str); ok {
			return f(v.Str)
		}
	}
	return true
}

// arrayKeyword checks an array keyword of s against the array v.
func (d *deriver) arrayKeyword(s *jsonval.Value, key string, kw, v *jsonval.Value, depth int) bool {
	switch key {
	case "minItems":
		return len(v.Items) >= intOf(kw)
	case "maxItems":
		return len(v.Items) <= intOf(kw)
	case "uniqueItems":
		if isTrue(kw) {
			for i := range v.Items {
				for j := range i {
					if jsonval.Equal(v.Items[i], v.Items[j]) {
						return false
					}
				}
			}
		}
	case "items", "prefixItems", "additionalItems":
		for i, it := range v.Items {
			if sub, k := d.itemSchema(s, i); k == key && !d.check(sub, it, depth+1) {
				return false
			}
		}
	case "contains":
		n := 0
		for _, it := range v.Items {
			if d.check(kw, it, depth+1) {
				n++
			}
		}
		lo, hi := 1, len(v.Items)
		if m := s.Get("minContains"); m != nil && !d.draft7 {
			lo = intOf(m)
		}
		if m := s.Get("maxContains"); m != nil && !d.draft7 {
			hi = intOf(m)
		}
		return n >= lo && n <= hi
	}
	return true
}

// objectKeyword checks an object keyword of s against the object v.
func (d *deriver) objectKeyword(s *jsonval.Value, key string, kw, v *jsonval.Value, depth int) bool {
	switch key {
	case "required":
		return !slices.ContainsFunc(kw.Items, func(r *jsonval.Value) bool { return !v.Has(r.Str) })
	case "minProperties":
		return len(v.Members) >= intOf(kw)
	case "maxProperties":
		return len(v.Members) <= intOf(kw)
	case "properties", "patternProperties", "additionalProperties":
		for _, m := range v.Members {
			for _, ms := range d.memberSchemas(s, m.Key) {
				if ms.key == key && !d.check(ms.schema, m.Value, depth+1) {
					return false
				}
			}
		}
	case "propertyNames":
		for _, m := range v.Members {
			if !d.check(kw, &jsonval.Value{Kind: jsonval.String, Str: m.Key}, depth+1) {
				return false
			}
		}
	case "dependentRequired", "dependentSchemas", "dependencies":
		for _, dep := range kw.Members {
			if !v.Has(dep.Key) {
				continue
			}
			if dep.Value.Kind == jsonval.Array {
				if key == "dependentSchemas" {
					continue
				}
				if slices.ContainsFunc(dep.Value.Items, func(r *jsonval.Value) bool { return r.Kind == jsonval.String && !v.Has(r.Str) }) {
					return false
				}
			} else if key != "dependentRequired" && !d.check(dep.Value, v, depth+1) {
				return false
			}
		}
	}
	return true
}

// memberSchema is a schema that applies to an object member, and the keyword it comes from.
type memberSchema struct {
	key    string
	schema *jsonval.Value
}

// memberSchemas returns the schemas of s that apply to the member named name: its property schema and
// every matching patternProperties schema, or else additionalProperties.
func (d *deriver) memberSchemas(s *jsonval.Value, name string) []memberSchema {
	var out []memberSchema
	if p := s.Get("properties").Get(name); p != nil {
		out = append(out, memberSchema{"properties", p})
	}
	if pp := s.Get("patternProperties"); pp != nil {
		for _, m := range pp.Members {
			if d.match(m.Key, name) {
				out = append(out, memberSchema{"patternProperties", m.Value})
			}
		}
	}
	if len(out) == 0 {
		if a := s.Get("additionalProperties"); a != nil {
			out = append(out, memberSchema{"additionalProperties", a})
		}
	}
	return out
}

// itemSchema returns the schema of s for the item at index i and the keyword it comes from, or the
// true schema and "".
func (d *deriver) itemSchema(s *jsonval.Value, i int) (*jsonval.Value, string) {
	prefix, rest, restKey := s.Get("prefixItems"), s.Get("items"), "items"
	if d.draft7 {
		prefix, restKey = nil, "additionalItems"
		if rest != nil && rest.Kind == jsonval.Array {
			prefix, rest = rest, s.Get("additionalItems")
		} else {
			restKey = "items"
		}
		if prefix != nil && i < len(prefix.Items) {
			return prefix.Items[i], "items"
		}
	} else if prefix != nil && i < len(prefix.Items) {
		return prefix.Items[i], "prefixItems"
	}
	if rest != nil {
		return rest, restKey
	}
	return trueSchema, ""
}

var trueSchema = &jsonval.Value{Kind: jsonval.Bool, Bool: true}

// hasType reports whether v is of the JSON Schema type t (1.0 is an integer).
func hasType(v *jsonval.Value, t string) bool {
	switch t {
	case "integer":
		r := numRat(v)
		return v.Kind == jsonval.Number && r != nil && r.IsInt()
	case "number":
		return v.Kind == jsonval.Number
	}
	return v.Kind.String() == t
}

// typeList returns the type names of a "type" keyword value.
func typeList(t *jsonval.Value) []string {
	if t == nil {
		return nil
	}
	if t.Kind == jsonval.String {
		return []string{t.Str}
	}
	var out []string
	for _, it := range t.Items {
		if it.Kind == jsonval.String {
			out = append(out, it.Str)
		}
	}
	return out
}

// numRat returns the exact value of a JSON number, or nil for a non-number or one whose exponent is too
// large to handle.
func numRat(v *jsonval.Value) *big.Rat {
	if v == nil || v.Kind != jsonval.Number {
		return nil
	}
	if plainInt(v.Str) && len(v.Str) < 19 {
		n, err := strconv.ParseInt(v.Str, 10, 64)
		if err == nil {
			return big.NewRat(n, 1)
		}
	}
	if i := strings.IndexAny(v.Str, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(v.Str[i+1:], "+"))
		if err != nil || e > maxExp || e < -maxExp {
			return nil
		}
	}
	r, ok := new(big.Rat).SetString(v.Str)
	if !ok {
		return nil
	}
	return r
}

// plainInt reports whether the JSON number text s has neither fraction nor exponent.
func plainInt(s string) bool { return !strings.ContainsAny(s, ".eE") }

// intOf returns a scanned count keyword as an int, saturating.
func intOf(v *jsonval.Value) int {
	r := numRat(v)
	if r == nil || !r.IsInt() {
		return 0
	}
	if !r.Num().IsInt64() || r.Num().Int64() > 1<<31 {
		return 1 << 31
	}
	return int(r.Num().Int64())
}

// ratText writes an exact decimal as JSON number text.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	den := new(big.Int).Set(r.Denom())
	digits := 0
	ten, zero := big.NewInt(10), new(big.Int)
	for m := new(big.Int); digits < 2*maxExp; digits++ {
		if m.Mod(new(big.Int).Exp(ten, big.NewInt(int64(digits)), nil), den); m.Cmp(zero) == 0 {
			break
		}
	}
	s := r.FloatString(digits)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// itemsOf returns the items of an array value; nil for anything else, nil included.
func itemsOf(v *jsonval.Value) []*jsonval.Value {
	if v == nil || v.Kind != jsonval.Array {
		return nil
	}
	return v.Items
}

// membersOf returns the members of an object value; nil for anything else, nil included.
func membersOf(v *jsonval.Value) []jsonval.Member {
	if v == nil || v.Kind != jsonval.Object {
		return nil
	}
	return v.Members
}

// isTrue reports whether v is the JSON value true.
func isTrue(v *jsonval.Value) bool { return v != nil && v.Kind == jsonval.Bool && v.Bool }

// jsonNumber returns the exact decimal r as a JSON number.
func jsonNumber(r *big.Rat) *jsonval.Value {
	return &jsonval.Value{Kind: jsonval.Number, Str: ratText(r)}
}

// jsonString returns s as a JSON string.
func jsonString(s string) *jsonval.Value { return &jsonval.Value{Kind: jsonval.String, Str: s} }

// emptyObject returns a new {}.
func emptyObject() *jsonval.Value {
	return &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{}}
}

// ---- the valid base ----

// flat returns s as one object schema: a boolean schema becomes {} or {"not": {}}; a local $ref is
// replaced by its target (merged with its siblings in draft 2020-12); the branches of allOf are merged in.
// Keywords two merged schemas both set differently stay in a residual allOf, which check still enforces.
// refs lists the references followed, for the recursion guard.
func (d *deriver) flat(s *jsonval.Value, refs []string, depth int) (*jsonval.Value, []string, error) {
	if depth > maxDepth {
		return nil, refs, errors.New("$ref chain too long (or a $ref cycle)")
	}
	if s.Kind == jsonval.Bool {
		if s.Bool {
			return emptyObject(), refs, nil
		}
		return &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{{Key: "not", Value: emptyObject()}}}, refs, nil
	}
	out := emptyObject()
	var allOf []*jsonval.Value
	ref := ""
	for _, m := range s.Members {
		switch m.Key {
		case "$ref":
			ref = m.Value.Str
		case "allOf":
			allOf = m.Value.Items
		default:
			out.Members = append(out.Members, m)
		}
	}
	if ref != "" {
		target := d.resolve(ref)
		if target == nil {
			return nil, refs, fmt.Errorf("$ref %q does not resolve", ref)
		}
		t, r, err := d.flat(target, append(refs, ref), depth+1)
		if err != nil {
			return nil, r, err
		}
		refs = r
		if d.draft7 {
			return t, refs, nil
		}
		out = mergeSchemas(t, out)
	}
	for _, b := range allOf {
		fb, r, err := d.flat(b, refs, depth+1)
		if err != nil {
			return nil, r, err
		}
		refs = r
		out = mergeSchemas(out, fb)
	}
	return out, refs, nil
}

// mergeSchemas returns a schema that combines the keywords of a and b (both flat), without changing either.
func mergeSchemas(a, b *jsonval.Value) *jsonval.Value {
	out := &jsonval.Value{Kind: jsonval.Object, Members: slices.Clone(a.Members)}
	var residual []*jsonval.Value
	for _, m := range b.Members {
		have := out.Get(m.Key)
		if have == nil {
			out.Members = append(out.Members, m)
			continue
		}
		switch m.Key {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
			merged := &jsonval.Value{Kind: jsonval.Object, Members: slices.Clone(have.Members)}
			for _, p := range m.Value.Members {
				if q := merged.Get(p.Key); q != nil {
					merged.Set(p.Key, &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{
						{Key: "allOf", Value: &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{q, p.Value}}}}})
				} else {
					merged.Members = append(merged.Members, p)
				}
			}
			out.Set(m.Key, merged)
		case "required":
			items := slices.Clone(have.Items)
			for _, r := range m.Value.Items {
				if !slices.ContainsFunc(items, func(x *jsonval.Value) bool { return jsonval.Equal(x, r) }) {
					items = append(items, r)
				}
			}
			out.Set(m.Key, &jsonval.Value{Kind: jsonval.Array, Items: items})
		case "type":
			bt := typeList(m.Value)
			var both []*jsonval.Value
			for _, t := range typeList(have) {
				switch {
				case slices.Contains(bt, t):
				case t == "number" && slices.Contains(bt, "integer"):
					t = "integer"
				case t == "integer" && slices.Contains(bt, "number"):
				default:
					continue
				}
				both = append(both, jsonString(t))
			}
			if len(both) == 0 {
				residual = append(residual, &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{m}})
				continue
			}
			out.Set("type", &jsonval.Value{Kind: jsonval.Array, Items: both})
		case "enum":
			var both []*jsonval.Value
			for _, e := range have.Items {
				if slices.ContainsFunc(m.Value.Items, func(x *jsonval.Value) bool { return jsonval.Equal(x, e) }) {
					both = append(both, e)
				}
			}
			out.Set("enum", &jsonval.Value{Kind: jsonval.Array, Items: both})
		case "minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains":
			if x, y := numRat(have), numRat(m.Value); x != nil && y != nil && y.Cmp(x) > 0 {
				out.Set(m.Key, m.Value)
			}
		case "maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains":
			if x, y := numRat(have), numRat(m.Value); x != nil && y != nil && y.Cmp(x) < 0 {
				out.Set(m.Key, m.Value)
			}
		case "title", "description", "default", "examples", "$comment", "$id", "$schema", "$anchor", "deprecated", "readOnly", "writeOnly":
		default:
			if !jsonval.Equal(have, m.Value) {
				residual = append(residual, &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{m}})
			}
		}
	}
	if len(residual) > 0 {
		if r := out.Get("allOf"); r != nil {
			residual = append(slices.Clone(r.Items), residual...)
		}
		out.Set("allOf", &jsonval.Value{Kind: jsonval.Array, Items: residual})
	}
	return out
}

// withoutKeywords returns a copy of the flat schema f without the keywords keys.
func withoutKeywords(f *jsonval.Value, keys ...string) *jsonval.Value {
	out := emptyObject()
	for _, m := range f.Members {
		if !slices.Contains(keys, m.Key) {
			out.Members = append(out.Members, m)
		}
	}
	return out
}

// synth returns a value valid against s. ptr is the instance location, for messages; stack lists the
// references being built, so that a recursive reference is reported as errRecursive.
func (d *deriver) synth(s *jsonval.Value, ptr string, stack []string, depth int) (*jsonval.Value, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("schema nested too deeply at %s", ptrText(ptr))
	}
	f, refs, err := d.flat(s, nil, depth)
	if err != nil {
		return nil, fmt.Errorf("at %s: %w", ptrText(ptr), err)
	}
	for _, r := range refs {
		if slices.Contains(stack, r) {
			return nil, errRecursive
		}
	}
	stack = append(slices.Clip(stack), refs...)
	try := func(f *jsonval.Value) (*jsonval.Value, error) {
		v, err := d.synthFlat(f, ptr, stack, depth)
		if err == nil && !d.check(s, v, depth) {
			err = fmt.Errorf("no value satisfies the schema at %s", ptrText(ptr))
		}
		return v, err
	}
	v, first := try(f)
	if first == nil || errors.Is(first, errRecursive) {
		return v, first
	}
	var branches []*jsonval.Value
	for _, key := range []string{"anyOf", "oneOf"} {
		if b := f.Get(key); b != nil {
			for _, br := range b.Items {
				fb, _, err := d.flat(br, nil, depth+1)
				if err == nil {
					branches = append(branches, mergeSchemas(withoutKeywords(f, "anyOf", "oneOf"), fb))
				}
			}
		}
	}
	if f.Has("if") {
		for _, key := range []string{"then", "else"} {
			if b := f.Get(key); b != nil {
				if fb, _, err := d.flat(b, nil, depth+1); err == nil {
					branches = append(branches, mergeSchemas(withoutKeywords(f, "if", "then", "else"), fb))
				}
			}
		}
	}
	for _, b := range branches {
		if v, err := try(b); err == nil {
			return v, nil
		}
	}
	for _, c := range []string{`null`, `"a"`, `0`, `1`, `true`, `false`, `{}`, `[]`, `""`} {
		v, _ := jsonval.Parse([]byte(c))
		if d.check(s, v, depth) {
			return v, nil
		}
	}
	return nil, first
}

// synthFlat builds a value from the keywords of the flat schema f (it does not check composition).
func (d *deriver) synthFlat(f *jsonval.Value, ptr string, stack []string, depth int) (*jsonval.Value, error) {
	if c := f.Get("const"); c != nil {
		return c.Clone(), nil
	}
	if e := f.Get("enum"); e != nil {
		for _, it := range e.Items {
			if d.check(f, it, depth) {
				return it.Clone(), nil
			}
		}
		return nil, fmt.Errorf("no enum value satisfies the schema at %s", ptrText(ptr))
	}
	ts := typeList(f.Get("type"))
	if ts == nil {
		ts = []string{inferType(f)}
	}
	var first error
	for _, t := range ts {
		var v *jsonval.Value
		var err error
		switch t {
		case "null":
			if len(ts) > 1 {
				continue // prefer the non-null type
			}
			v = &jsonval.Value{Kind: jsonval.Null}
		case "boolean":
			v = &jsonval.Value{Kind: jsonval.Bool, Bool: true}
		case "string":
			v, err = d.synthString(f, ptr)
		case "integer", "number":
			v, err = synthNumber(f, t == "integer", ptr)
		case "array":
			v, err = d.synthArray(f, ptr, stack, depth)
		case "object":
			v, err = d.synthObject(f, ptr, stack, depth)
		}
		if err == nil && d.check(f, v, depth) {
			return v, nil
		}
		if first == nil {
			first = err
		}
	}
	if slices.Contains(ts, "null") {
		return &jsonval.Value{Kind: jsonval.Null}, nil
	}
	if first == nil {
		first = fmt.Errorf("no value satisfies the schema at %s", ptrText(ptr))
	}
	return nil, first
}

// inferType guesses the type of an untyped schema from its keywords; null when nothing hints.
func inferType(f *jsonval.Value) string {
	has := func(keys ...string) bool { return slices.ContainsFunc(keys, f.Has) }
	switch {
	case has("properties", "required", "additionalProperties", "patternProperties", "minProperties", "maxProperties", "propertyNames", "dependentRequired"):
		return "object"
	case has("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"):
		return "array"
	case has("pattern", "minLength", "maxLength", "format"):
		return "string"
	case has("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
		return "number"
	}
	return "null"
}

// formatSamples are fixed valid values of each format.
var formatSamples = map[string]string{
	"date":      "2026-01-31",
	"date-time": "2026-01-31T12:00:00Z",
	"time":      "12:00:00Z",
	"email":     "a@example.com",
	"uuid":      "123e4567-e89b-12d3-a456-426614174000",
	"uri":       "https://example.com/a",
	"ipv4":      "192.0.2.1",
	"ipv6":      "::1",
	"hostname":  "example.com",
	"duration":  "P1D",
}

// formatMisses are fixed invalid values of each format.
var formatMisses = map[string]string{
	"date":      "2026-02-30",
	"date-time": "2026-01-31",
	"time":      "25:00:00Z",
	"email":     "a.example.com",
	"uuid":      "123e4567-e89b-12d3-a456",
	"uri":       "example.com/a",
	"ipv4":      "256.0.2.1",
	"ipv6":      "1::2::3",
	"hostname":  "-example.com",
	"duration":  "1D",
}

// synthString picks a string for the flat schema f: the format sample, else a pattern match of at
// least minLength code points (or "a" padded to minLength), else the first of a few candidates that passes.
func (d *deriver) synthString(f *jsonval.Value, ptr string) (*jsonval.Value, error) {
	lo, hi := 0, -1
	if m := f.Get("minLength"); m != nil {
		lo = intOf(m)
	}
	if m := f.Get("maxLength"); m != nil {
		hi = intOf(m)
	}
	if lo > maxLen {
		return nil, fmt.Errorf("minLength at %s is too large to build", ptrText(ptr))
	}
	var cands []string
	if fm := f.Get("format"); fm != nil && fm.Kind == jsonval.String {
		if s, ok := formatSamples[fm.Str]; ok {
			cands = append(cands, s)
		}
	}
	want := max(lo, 1) // a non-empty string where allowed
	if p := f.Get("pattern"); p != nil {
		if s, ok := minimalMatch(p.Str); ok {
			want = max(lo, utf8.RuneCountInString(s))
		}
	}
	if hi >= 0 {
		want = min(want, hi)
	}
	if s, ok := d.stringOfLen(f, want); ok {
		cands = append(cands, s)
	}
	cands = append(cands, "a", "A", "0", "example", "")
	for _, c := range cands {
		v := jsonString(c)
		if d.check(f, v, 0) {
			return v, nil
		}
	}
	return nil, fmt.Errorf("no string satisfies the schema at %s", ptrText(ptr))
}

// minimalMatch returns the shortest-repetition string patternString builds for the pattern p.
func minimalMatch(p string) (string, bool) {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	ok := patternString(re, 0, &b)
	return b.String(), ok
}

// stringOfLen returns a string of n code points, and whether it matches the pattern of f (if any) and is
// not known to break its format.
func (d *deriver) stringOfLen(f *jsonval.Value, n int) (string, bool) {
	if n < 0 {
		return "", false
	}
	plain := strings.Repeat("a", n)
	if fm := f.Get("format"); fm != nil && fm.Kind == jsonval.String {
		if _, known := format.Lookup(fm.Str); known {
			if s := formatSamples[fm.Str]; utf8.RuneCountInString(s) == n {
				return s, true
			}
			return plain, false
		}
	}
	p := f.Get("pattern")
	if p == nil {
		return plain, true
	}
	re, err := syntax.Parse(p.Str, syntax.Perl)
	if err != nil {
		return plain, false
	}
	var b strings.Builder
	if !patternString(re, 0, &b) {
		return plain, false
	}
	s := b.String()
	if k := utf8.RuneCountInString(s); k < n {
		b.Reset()
		patternString(re, n-k, &b)
		s = b.String()
		if k := utf8.RuneCountInString(s); k < n {
			s += strings.Repeat(string(padRune(re)), n-k)
		}
	}
	if utf8.RuneCountInString(s) != n || !d.match(p.Str, s) {
		return plain, false
	}
	return s, true
}

// patternString appends to b a string the parsed pattern re matches, with every repetition at its
// minimum (once for +) except that the first repetitions with room repeat more, growing the result by up
// to extra runes. It reports false when re matches nothing.
func patternString(re *syntax.Regexp, extra int, b *strings.Builder) bool {
	return (&patternWalk{extra: extra, b: b}).walk(re)
}

// patternWalk is one walk of patternString: extra is the growth still to place.
type patternWalk struct {
	extra int
	b     *strings.Builder
}

// walk writes a string re matches and reports false when it matches nothing.
func (w *patternWalk) walk(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpLiteral:
		w.b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return false
		}
		w.b.WriteRune(classRune(re.Rune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		w.b.WriteByte('a')
	case syntax.OpCapture:
		return w.walk(re.Sub[0])
	case syntax.OpStar:
		return w.repeat(re.Sub[0], 0, -1)
	case syntax.OpPlus:
		return w.repeat(re.Sub[0], 1, -1)
	case syntax.OpQuest:
		return w.repeat(re.Sub[0], 0, 1)
	case syntax.OpRepeat:
		return w.repeat(re.Sub[0], re.Min, re.Max)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !w.walk(sub) {
				return false
			}
		}
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			var t strings.Builder
			if patternString(sub, 0, &t) {
				return w.walk(sub)
			}
		}
		return false
	}
	return true // anchors, boundaries, empty match
}

// repeat writes sub lo times, plus as many whole extra repetitions (up to hi, -1 for no limit) as fit in
// the growth still to place.
func (w *patternWalk) repeat(sub *syntax.Regexp, lo, hi int) bool {
	n := lo
	if w.extra > 0 && (hi < 0 || hi > lo) {
		var t strings.Builder
		if patternString(sub, 0, &t) {
			if l := utf8.RuneCountInString(t.String()); l > 0 {
				k := w.extra / l
				if hi >= 0 {
					k = min(k, hi-lo)
				}
				n += k
				w.extra -= k * l
			}
		}
	}
	inner := &patternWalk{b: w.b}
	for range n {
		if !inner.walk(sub) {
			return false
		}
	}
	return true
}

// classRune picks a rune of a character class (pairs of inclusive ranges): an ASCII letter or digit if
// there is one, else printable ASCII, else the first rune.
func classRune(ranges []rune) rune {
	for _, pick := range []func(rune) bool{
		func(r rune) bool { return r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) },
		func(r rune) bool { return r > ' ' && r < 0x7f },
	} {
		for i := 0; i+1 < len(ranges); i += 2 {
			for r := ranges[i]; r <= ranges[i+1] && r < 0x80; r++ {
				if pick(r) {
					return r
				}
			}
		}
	}
	return ranges[0]
}

// padRune returns a rune to append to a string matched by an unanchored-at-end pattern.
func padRune(re *syntax.Regexp) rune {
	if re.Op == syntax.OpConcat && len(re.Sub) > 0 {
		return padRune(re.Sub[len(re.Sub)-1])
	}
	if re.Op == syntax.OpCharClass && len(re.Rune) > 0 {
		return classRune(re.Rune)
	}
	return 'a'
}

// numBounds are the numeric limits of a flat schema.
type numBounds struct {
	lo, hi         *big.Rat
	loExcl, hiExcl bool
	step           *big.Rat // multipleOf, made integral for integers
}

// boundsOf reads the numeric limits of f; for integers the step is the least integer multiple of
// multipleOf (1 without it).
func boundsOf(f *jsonval.Value, integer bool) numBounds {
	var b numBounds
	set := func(key string, r *big.Rat, low bool) {
		if r == nil {
			return
		}
		excl := strings.HasPrefix(key, "exclusive")
		if low {
			if b.lo == nil || r.Cmp(b.lo) > 0 || r.Cmp(b.lo) == 0 && excl {
				b.lo, b.loExcl = r, excl
			}
		} else if b.hi == nil || r.Cmp(b.hi) < 0 || r.Cmp(b.hi) == 0 && excl {
			b.hi, b.hiExcl = r, excl
		}
	}
	set("minimum", numRat(f.Get("minimum")), true)
	set("exclusiveMinimum", numRat(f.Get("exclusiveMinimum")), true)
	set("maximum", numRat(f.Get("maximum")), false)
	set("exclusiveMaximum", numRat(f.Get("exclusiveMaximum")), false)
	b.step = numRat(f.Get("multipleOf"))
	if integer {
		if b.step == nil {
			b.step = big.NewRat(1, 1)
		} else if !b.step.IsInt() {
			b.step = new(big.Rat).SetInt(b.step.Num()) // lcm(p/q, 1) = p for p/q in lowest terms
		}
	}
	return b
}

// admits reports whether x is within the bounds and a multiple of the step.
func (b numBounds) admits(x *big.Rat) bool {
	if b.lo != nil && (x.Cmp(b.lo) < 0 || b.loExcl && x.Cmp(b.lo) == 0) {
		return false
	}
	if b.hi != nil && (x.Cmp(b.hi) > 0 || b.hiExcl && x.Cmp(b.hi) == 0) {
		return false
	}
	return b.step == nil || new(big.Rat).Quo(x, b.step).IsInt()
}

// synthNumber picks a number within the bounds of f: 1 if it fits, else the least multiple of the step
// above the lower bound (or the greatest below the upper bound), else a point between the bounds.
func synthNumber(f *jsonval.Value, integer bool, ptr string) (*jsonval.Value, error) {
	b := boundsOf(f, integer)
	one := big.NewRat(1, 1)
	cands := []*big.Rat{one}
	if b.step != nil {
		switch {
		case b.lo != nil:
			k := new(big.Rat).Quo(b.lo, b.step)
			n := new(big.Int).Div(k.Num(), k.Denom()) // floor
			for range 2 {
				n.Add(n, big.NewInt(1))
				cands = append(cands, new(big.Rat).Mul(new(big.Rat).SetInt(n), b.step))
			}
			cands = append(cands, new(big.Rat).Set(b.lo))
		case b.hi != nil:
			k := new(big.Rat).Quo(b.hi, b.step)
			n := new(big.Int).Div(k.Num(), k.Denom())
			for range 2 {
				cands = append(cands, new(big.Rat).Mul(new(big.Rat).SetInt(n), b.step))
				n.Sub(n, big.NewInt(1))
			}
		default:
			cands = append(cands, b.step)
		}
	} else {
		switch {
		case b.lo != nil && b.hi != nil:
			cands = append(cands, b.lo, new(big.Rat).Quo(new(big.Rat).Add(b.lo, b.hi), big.NewRat(2, 1)))
		case b.lo != nil:
			cands = append(cands, b.lo, new(big.Rat).Add(b.lo, one))
		case b.hi != nil:
			cands = append(cands, b.hi, new(big.Rat).Sub(b.hi, one))
		}
	}
	for _, c := range cands {
		if b.admits(c) {
			return jsonNumber(c), nil
		}
	}
	return nil, fmt.Errorf("no number satisfies the bounds at %s", ptrText(ptr))
}

// synthArray builds max(minItems, 1) items (every prefixItems position, at most maxItems), distinct
// when uniqueItems, and one more item when contains is not yet satisfied.
func (d *deriver) synthArray(f *jsonval.Value, ptr string, stack []string, depth int) (*jsonval.Value, error) {
	lo, hi := 0, -1
	if m := f.Get("minItems"); m != nil {
		lo = intOf(m)
	}
	if m := f.Get("maxItems"); m != nil {
		hi = intOf(m)
	}
	if lo > maxItemsLen {
		return nil, fmt.Errorf("minItems at %s is too large to build", ptrText(ptr))
	}
	prefix := f.Get("prefixItems")
	if d.draft7 {
		prefix = nil
		if it := f.Get("items"); it != nil && it.Kind == jsonval.Array {
			prefix = it
		}
	}
	target := max(lo, 1)
	if prefix != nil {
		target = max(lo, len(prefix.Items))
	}
	if hi >= 0 {
		target = min(target, hi)
	}
	items, err := d.extend(f, []*jsonval.Value{}, target, ptr, stack, depth)
	if err != nil && len(items) < lo {
		return nil, err
	}
	arr := &jsonval.Value{Kind: jsonval.Array, Items: items}
	if c := f.Get("contains"); c != nil && !d.check(f, arr, depth) && (hi < 0 || len(arr.Items) < hi) {
		if v, err := d.synth(c, ptr+"/"+strconv.Itoa(len(arr.Items)), stack, depth+1); err == nil {
			arr.Items = append(arr.Items, v)
		}
	}
	return arr, nil
}

// extend appends to items values valid at their positions in the flat array schema f until there are n,
// distinct when f says uniqueItems. On an error it returns the items it has.
func (d *deriver) extend(f *jsonval.Value, items []*jsonval.Value, n int, ptr string, stack []string, depth int) ([]*jsonval.Value, error) {
	unique := isTrue(f.Get("uniqueItems"))
	var last, seed *jsonval.Value
	var pool []*jsonval.Value
	next := 0
	for i := len(items); i < n; i++ {
		s, _ := d.itemSchema(f, i)
		if s != last {
			var err error
			if seed, err = d.synth(s, ptr+"/"+strconv.Itoa(i), stack, depth+1); err != nil {
				return items, err
			}
			last, pool, next = s, nil, 0
			if unique {
				pool = d.variants(s, seed, depth+1)
			}
		}
		it := seed
		if unique {
			for next < len(pool) && slices.ContainsFunc(items, func(h *jsonval.Value) bool { return jsonval.Equal(h, pool[next]) }) {
				next++
			}
			if next == len(pool) {
				return items, fmt.Errorf("cannot build %d distinct items at %s", n, ptrText(ptr))
			}
			it = pool[next]
			next++
		}
		items = append(items, it)
	}
	return items, nil
}

// variants returns up to maxItemsLen+1 distinct values valid against s, v first: then the valid
// instances of v's own matrix, then v with a counter appended (strings) or added (numbers). Results are
// kept per schema and value, so nested arrays of distinct items cost one matrix per level.
func (d *deriver) variants(s, v *jsonval.Value, depth int) []*jsonval.Value {
	key := fmt.Sprintf("%p %s", s, v.Marshal())
	if p, ok := d.pools[key]; ok {
		return p
	}
	out := []*jsonval.Value{v}
	add := func(x *jsonval.Value) {
		if x != nil && len(out) <= maxItemsLen &&
			!slices.ContainsFunc(out, func(h *jsonval.Value) bool { return jsonval.Equal(h, x) }) && d.check(s, x, depth) {
			out = append(out, x)
		}
	}
	for _, e := range d.edits(s, v, nil, depth) {
		add(applyEdit(v, e))
	}
	for k := 1; k <= maxItemsLen && len(out) <= maxItemsLen; k++ {
		switch v.Kind {
		case jsonval.String:
			add(jsonString(v.Str + strconv.Itoa(k)))
		case jsonval.Number:
			if r := numRat(v); r != nil {
				add(jsonNumber(new(big.Rat).Add(r, big.NewRat(int64(k), 1))))
				add(jsonNumber(new(big.Rat).Sub(r, big.NewRat(int64(k), 1))))
			}
		default:
			k = maxItemsLen // no counter for other kinds
		}
	}
	d.pools[key] = out
	return out
}

// synthObject builds an object with every property it can build (required ones must succeed; an
// optional recursive one is left out), the required members without a property schema, one member per
// patternProperties pattern, one extra member when additionalProperties is a schema, the members that
// dependentRequired asks for, and as many members as minProperties and maxProperties want.
func (d *deriver) synthObject(f *jsonval.Value, ptr string, stack []string, depth int) (*jsonval.Value, error) {
	obj := emptyObject()
	required := map[string]bool{}
	for _, r := range itemsOf(f.Get("required")) {
		required[r.Str] = true
	}
	add := func(name string) error {
		if obj.Has(name) {
			return nil
		}
		ms := d.memberSchemas(f, name)
		if len(ms) == 0 {
			ms = []memberSchema{{"", trueSchema}}
		}
		var all []*jsonval.Value
		for _, m := range ms {
			all = append(all, m.schema)
		}
		s := all[0]
		if len(all) > 1 {
			s = &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{{Key: "allOf", Value: &jsonval.Value{Kind: jsonval.Array, Items: all}}}}
		}
		v, err := d.synth(s, ptr+"/"+jsonval.EscapeToken(name), stack, depth+1)
		if err != nil {
			return err
		}
		obj.Members = append(obj.Members, jsonval.Member{Key: name, Value: v})
		return nil
	}
	if props := f.Get("properties"); props != nil {
		for _, p := range props.Members {
			if err := add(p.Key); err != nil && required[p.Key] {
				return nil, err
			}
		}
	}
	for _, r := range itemsOf(f.Get("required")) {
		if err := add(r.Str); err != nil {
			return nil, err
		}
	}
	if pp := f.Get("patternProperties"); pp != nil {
		for _, m := range pp.Members {
			if re, err := syntax.Parse(m.Key, syntax.Perl); err == nil {
				var b strings.Builder
				if patternString(re, 0, &b) && !f.Get("properties").Has(b.String()) {
					_ = add(b.String()) // optional: left out if it cannot be built
				}
			}
		}
	}
	if a := f.Get("additionalProperties"); a != nil && a.Kind == jsonval.Object {
		_ = add(d.unknownName(f, obj, "extra"))
	}
	for _, dep := range []string{"dependentRequired", "dependencies"} {
		for _, m := range membersOf(f.Get(dep)) {
			if obj.Has(m.Key) && m.Value.Kind == jsonval.Array {
				for _, r := range m.Value.Items {
					if err := add(r.Str); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	if m := f.Get("minProperties"); m != nil {
		for n := intOf(m); len(obj.Members) < n && len(obj.Members) < maxItemsLen; {
			if err := add(d.unknownName(f, obj, "extra")); err != nil {
				return nil, err
			}
		}
	}
	if m := f.Get("maxProperties"); m != nil {
		for n := intOf(m); len(obj.Members) > n; {
			i := slices.IndexFunc(obj.Members, func(m jsonval.Member) bool { return !required[m.Key] })
			if i < 0 {
				break
			}
			obj.Members = slices.Delete(obj.Members, i, i+1)
		}
	}
	return obj, nil
}

// unknownName returns a member name, based on base, that neither obj nor the properties of f have and
// that no patternProperties of f matches.
func (d *deriver) unknownName(f, obj *jsonval.Value, base string) string {
	name := base
	for i := 2; ; i++ {
		taken := obj.Has(name) || f.Get("properties").Has(name)
		for _, m := range membersOf(f.Get("patternProperties")) {
			taken = taken || d.match(m.Key, name)
		}
		if !taken {
			return name
		}
		name = base + strconv.Itoa(i)
	}
}

// ---- the matrix ----

// applyEdit returns a copy of base with e applied.
func applyEdit(base *jsonval.Value, e edit) *jsonval.Value {
	if len(e.path) == 0 {
		return e.val.Clone()
	}
	doc := base.Clone()
	parent := doc
	for _, tok := range e.path[:len(e.path)-1] {
		if parent.Kind == jsonval.Object {
			parent = parent.Get(tok)
		} else {
			i, _ := strconv.Atoi(tok)
			parent = parent.Items[i]
		}
	}
	last := e.path[len(e.path)-1]
	switch {
	case parent.Kind == jsonval.Object && e.val == nil:
		parent.Delete(last)
	case parent.Kind == jsonval.Object:
		parent.Set(last, e.val.Clone())
	default:
		i, _ := strconv.Atoi(last)
		switch {
		case e.val == nil:
			parent.Items = slices.Delete(parent.Items, i, i+1)
		case i == len(parent.Items):
			parent.Items = append(parent.Items, e.val.Clone())
		default:
			parent.Items[i] = e.val.Clone()
		}
	}
	return doc
}

// shape returns the flat schema of s that describes v: with anyOf or oneOf, the first branch v satisfies
// merged in; with if, the branch that applies.
func (d *deriver) shape(s, v *jsonval.Value, depth int) *jsonval.Value {
	f, _, err := d.flat(s, nil, depth)
	if err != nil {
		return emptyObject()
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if b := f.Get(key); b != nil {
			for _, br := range b.Items {
				if d.check(br, v, depth+1) {
					if fb, _, err := d.flat(br, nil, depth+1); err == nil {
						f = mergeSchemas(withoutKeywords(f, key), fb)
					}
					break
				}
			}
		}
	}
	if i := f.Get("if"); i != nil {
		key := "else"
		if d.check(i, v, depth+1) {
			key = "then"
		}
		if b := f.Get(key); b != nil {
			if fb, _, err := d.flat(b, nil, depth+1); err == nil {
				f = mergeSchemas(withoutKeywords(f, "if", "then", "else"), fb)
			}
		}
	}
	return f
}

// edits returns the matrix for the value v at path, valid against s.
func (d *deriver) edits(s, v *jsonval.Value, path []string, depth int) []edit {
	if depth > maxDepth {
		return nil
	}
	f := d.shape(s, v, depth)
	var out []edit
	at := func(tier int, what string, val *jsonval.Value) {
		out = append(out, edit{path: path, val: val, where: path, what: what, tier: tier})
	}
	at(tierKeyword, "null", &jsonval.Value{Kind: jsonval.Null})
	for _, key := range []string{"enum", "const"} {
		var vals []*jsonval.Value
		if key == "enum" {
			vals = itemsOf(f.Get("enum"))
		} else if c := f.Get("const"); c != nil {
			vals = []*jsonval.Value{c}
		}
		for i, e := range vals {
			what := key + " " + string(e.Marshal())
			at(tierKeyword, what, e)
			if e.Kind != jsonval.String {
				continue
			}
			if o := otherCase(e.Str); o != e.Str {
				at(tierKeyword, what+" other case", jsonString(o))
			}
			if i == 0 || key == "const" {
				at(tierKeyword, what+" leading space", jsonString(" "+e.Str))
			}
		}
	}
	switch v.Kind {
	case jsonval.String:
		out = append(out, d.stringEdits(f, v, path)...)
		at(tierKeyword, "number for string", jsonNumber(big.NewRat(2500, 1)))
	case jsonval.Number:
		integer := slices.Contains(typeList(f.Get("type")), "integer")
		out = append(out, numberEdits(f, v, path, integer)...)
		t := "number"
		if integer {
			t = "integer"
		}
		at(tierKeyword, "string for "+t, jsonString(v.Str))
	case jsonval.Bool:
		at(tierKeyword, "object for boolean", emptyObject())
		at(tierInside, "string for boolean", jsonString(strconv.FormatBool(v.Bool)))
		at(tierInside, "other boolean", &jsonval.Value{Kind: jsonval.Bool, Bool: !v.Bool})
	case jsonval.Array:
		at(tierKeyword, "JSON string for array", jsonString(string(v.Marshal())))
		if len(v.Items) > 0 {
			at(tierInside, "item for array", v.Items[0])
		}
		out = append(out, d.arrayEdits(f, v, path, depth)...)
	case jsonval.Object:
		at(tierKeyword, "JSON string for object", jsonString(string(v.Marshal())))
		at(tierInside, "array for object", &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{v}})
		out = append(out, d.objectEdits(f, v, path, depth)...)
	}
	for _, c := range []string{`true`, `2500`, `"2500"`, `{}`, `[]`, `""`} {
		val, _ := jsonval.Parse([]byte(c))
		at(tierMutate, "set to "+c, val)
	}
	return out
}

// instName joins the JSON pointer of path and what.
func instName(path []string, what string) string {
	if len(path) == 0 {
		return what
	}
	var b strings.Builder
	for _, tok := range path {
		b.WriteString("/" + jsonval.EscapeToken(tok))
	}
	return b.String() + " " + what
}

// otherCase swaps the case of the first letter whose case can change.
func otherCase(s string) string {
	for i, r := range s {
		o := unicode.ToUpper(r)
		if o == r {
			o = unicode.ToLower(r)
		}
		if o != r {
			return s[:i] + string(o) + s[i+utf8.RuneLen(r):]
		}
	}
	return s
}

// stringEdits returns the length, pattern and format cases of the string v.
func (d *deriver) stringEdits(f, v *jsonval.Value, path []string) []edit {
	var out []edit
	at := func(tier int, what, s string) {
		out = append(out, edit{path: path, val: jsonString(s), where: path, what: what, tier: tier})
	}
	plain := !f.Has("pattern") && !f.Has("format")
	if m := f.Get("minLength"); m != nil && intOf(m) <= maxLen {
		n := intOf(m)
		if n > 0 {
			s, _ := d.stringOfLen(f, n-1)
			at(tierKeyword, "minLength-1", s)
			if plain && n > 1 {
				at(tierKeyword, "minLength-1 in 2-byte runes", strings.Repeat("é", n-1))
			}
		}
		if s, ok := d.stringOfLen(f, n); ok {
			at(tierKeyword, "minLength", s)
		}
		if s, ok := d.stringOfLen(f, n+1); ok {
			at(tierInside, "minLength+1", s)
		}
	}
	if m := f.Get("maxLength"); m != nil && intOf(m) < maxLen {
		n := intOf(m)
		if s, ok := d.stringOfLen(f, n); ok {
			at(tierKeyword, "maxLength", s)
		}
		s, _ := d.stringOfLen(f, n+1)
		at(tierKeyword, "maxLength+1", s)
		if plain && n > 0 {
			at(tierKeyword, "maxLength in 2-byte runes", strings.Repeat("é", n))
		}
		if s, ok := d.stringOfLen(f, n-1); n > 0 && ok {
			at(tierInside, "maxLength-1", s)
		}
	}
	if f.Has("pattern") {
		at(tierKeyword, "pattern mismatch (leading space)", " "+v.Str)
		at(tierKeyword, "pattern mismatch (trailing newline)", v.Str+"\n")
		if o := otherCase(v.Str); o != v.Str {
			at(tierKeyword, "pattern mismatch (other case)", o)
		}
		at(tierInside, "pattern mismatch (punctuation)", strings.Repeat("#", max(1, utf8.RuneCountInString(v.Str))))
	}
	if fm := f.Get("format"); fm != nil && fm.Kind == jsonval.String {
		if s, ok := formatMisses[fm.Str]; ok {
			at(tierKeyword, "format "+fm.Str+" invalid", s)
		}
	}
	return out
}

// numberEdits returns the bound, multipleOf and integer cases of the number v.
func numberEdits(f, v *jsonval.Value, path []string, integer bool) []edit {
	x := numRat(v)
	if x == nil {
		return nil
	}
	var out []edit
	at := func(tier int, what string, r *big.Rat) {
		out = append(out, edit{path: path, val: jsonNumber(r), where: path, what: what, tier: tier})
	}
	b := boundsOf(f, integer)
	delta := b.step
	if delta == nil {
		delta = big.NewRat(1, 2)
	}
	dt := ratText(delta)
	for _, key := range []string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"} {
		bound := numRat(f.Get(key))
		if bound == nil {
			continue
		}
		below, above := new(big.Rat).Sub(bound, delta), new(big.Rat).Add(bound, delta)
		at(tierKeyword, key, bound)
		if strings.HasSuffix(key, "inimum") {
			at(tierKeyword, key+"-"+dt, below)
			at(tierInside, key+"+"+dt, above)
		} else {
			at(tierKeyword, key+"+"+dt, above)
			at(tierInside, key+"-"+dt, below)
		}
	}
	if m := numRat(f.Get("multipleOf")); m != nil {
		at(tierKeyword, "multipleOf+half", new(big.Rat).Add(x, new(big.Rat).Quo(m, big.NewRat(2, 1))))
		at(tierInside, "multipleOf+1", new(big.Rat).Add(x, m))
		if !m.IsInt() {
			at(tierInside, "multipleOf×7", new(big.Rat).Mul(m, big.NewRat(7, 1)))
			at(tierInside, "multipleOf×1999", new(big.Rat).Mul(m, big.NewRat(1999, 1)))
		}
	}
	if integer {
		at(tierKeyword, "fraction", new(big.Rat).Add(x, big.NewRat(1, 2)))
		if x.IsInt() {
			out = append(out, edit{path: path, val: &jsonval.Value{Kind: jsonval.Number, Str: ratText(x) + ".0"}, where: path, what: "integer written as decimal", tier: tierInside})
		}
	}
	return out
}

// arrayEdits returns the item-count, uniqueness and tuple cases of the array v, then the matrix of
// every tuple item and of the first item under items.
func (d *deriver) arrayEdits(f, v *jsonval.Value, path []string, depth int) []edit {
	var out []edit
	at := func(tier int, what string, items []*jsonval.Value) {
		out = append(out, edit{path: path, val: &jsonval.Value{Kind: jsonval.Array, Items: items}, where: path, what: what, tier: tier})
	}
	unique := isTrue(f.Get("uniqueItems"))
	// withLen returns v's items cut or extended to n, or nil if it cannot.
	withLen := func(n int) []*jsonval.Value {
		if n <= len(v.Items) {
			return slices.Clone(v.Items[:n])
		}
		if n > maxItemsLen || len(v.Items) == 0 {
			return nil
		}
		items, err := d.extend(f, slices.Clone(v.Items), n, "", nil, depth)
		if err != nil {
			return nil
		}
		return items
	}
	if m := f.Get("minItems"); m != nil && intOf(m) > 0 {
		n := intOf(m)
		at(tierKeyword, "minItems-1", withLen(n-1))
		if items := withLen(n); items != nil {
			at(tierKeyword, "minItems", items)
		}
	}
	at(tierKeyword, "empty array", []*jsonval.Value{})
	if m := f.Get("maxItems"); m != nil {
		n := intOf(m)
		if items := withLen(n); items != nil {
			at(tierKeyword, "maxItems", items)
		}
		if items := withLen(n + 1); items != nil {
			at(tierKeyword, "maxItems+1", items)
		}
	}
	if unique && len(v.Items) > 0 {
		items := slices.Clone(v.Items)
		if len(items) > 1 {
			items[1] = items[0]
		} else {
			items = append(items, items[0])
		}
		at(tierKeyword, "uniqueItems duplicate", items)
	}
	if (f.Has("prefixItems") || d.draft7 && itemsOf(f.Get("items")) != nil) && len(v.Items) > 0 {
		at(tierInside, "extra item", append(slices.Clone(v.Items), v.Items[len(v.Items)-1]))
	}
	// Recurse into every item with its own schema position, and the first item under the shared one.
	prefixLen := 0
	if p := f.Get("prefixItems"); p != nil && !d.draft7 {
		prefixLen = len(p.Items)
	} else if p := f.Get("items"); p != nil && p.Kind == jsonval.Array && d.draft7 {
		prefixLen = len(p.Items)
	}
	for i, it := range v.Items {
		if i > prefixLen {
			break
		}
		s, _ := d.itemSchema(f, i)
		out = append(out, d.edits(s, it, append(slices.Clip(path), strconv.Itoa(i)), depth+1)...)
	}
	return out
}

// objectEdits returns the missing-required, unknown-member, member-count and drop-optional cases of
// the object v, then the matrix of every member.
func (d *deriver) objectEdits(f, v *jsonval.Value, path []string, depth int) []edit {
	var out []edit
	required := map[string]bool{}
	for _, r := range itemsOf(f.Get("required")) {
		required[r.Str] = true
		if v.Has(r.Str) {
			out = append(out, edit{path: append(slices.Clip(path), r.Str), where: path, what: "missing required " + r.Str, tier: tierKeyword})
		}
	}
	unknown := d.unknownName(f, v, "unexpected")
	out = append(out, edit{path: append(slices.Clip(path), unknown), val: jsonString("x"), where: path, what: "unknown member", tier: tierKeyword})
	whole := func(what string, members []jsonval.Member) {
		out = append(out, edit{path: path, val: &jsonval.Value{Kind: jsonval.Object, Members: members}, where: path, what: what, tier: tierKeyword})
	}
	if m := f.Get("minProperties"); m != nil && intOf(m) > 0 && intOf(m) <= len(v.Members) {
		whole("minProperties-1", slices.Clone(v.Members[:intOf(m)-1]))
	}
	if m := f.Get("maxProperties"); m != nil && intOf(m) < maxItemsLen {
		members := slices.Clone(v.Members)
		for len(members) <= intOf(m) {
			members = append(members, jsonval.Member{Key: d.unknownName(f, &jsonval.Value{Kind: jsonval.Object, Members: members}, "extra"), Value: jsonString("x")})
		}
		whole("maxProperties+1", members)
	}
	for _, m := range v.Members {
		if !required[m.Key] {
			out = append(out, edit{path: append(slices.Clip(path), m.Key), where: path, what: "drop optional " + m.Key, tier: tierMutate})
		}
	}
	for _, m := range v.Members {
		ms := d.memberSchemas(f, m.Key)
		s := trueSchema
		if len(ms) > 0 {
			s = ms[0].schema
		}
		out = append(out, d.edits(s, m.Value, append(slices.Clip(path), m.Key), depth+1)...)
	}
	return out
}
