package contract

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
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
// Supported: type, enum, const, multipleOf, every bound of runtime/schema's table (of numbers, of string
// lengths in code points, of item and member counts, of contains's matches), pattern (Go RE2 syntax),
// format (the formats of package runtime/format; others are annotations), items, prefixItems,
// additionalItems (draft-07), uniqueItems, contains, properties, patternProperties,
// additionalProperties, required, propertyNames, dependentRequired,
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
		switch k, _ := schema.Lookup(m.Key); {
		case m.Key == "$dynamicRef", m.Key == "$recursiveRef":
			return fmt.Errorf("contract: unsupported keyword %s at %s", m.Key, ptrText(p))
		case m.Key == "unevaluatedProperties", m.Key == "unevaluatedItems":
			if d.draft7 {
				continue
			}
			if err := d.scan(v, p); err != nil {
				return err
			}
		case m.Key == "$ref":
			if v.Kind != jsonval.String {
				return bad("a string")
			}
			if d.resolve(v.Str) == nil {
				return fmt.Errorf("contract: $ref %q at %s does not resolve (only local references \"#/...\" are supported)", v.Str, ptrText(p))
			}
		case m.Key == "type":
			ts := typeList(v)
			if len(ts) == 0 {
				return bad("a type name or a non-empty array of them")
			}
			for _, t := range ts {
				if !slices.Contains([]string{"null", "boolean", "object", "array", "number", "integer", "string"}, t) {
					return fmt.Errorf("contract: unknown type %q at %s", t, ptrText(p))
				}
			}
		case m.Key == "pattern":
			if v.Kind != jsonval.String {
				return bad("a string")
			}
			if _, err := d.compile(v.Str); err != nil {
				return fmt.Errorf("contract: pattern at %s: %w", ptrText(p), err)
			}
		case m.Key == "enum", m.Key == "required":
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
		case k.Value == schema.NumberValue || k.Value == schema.PositiveValue:
			r := numRat(v)
			if r == nil {
				return bad("a number of moderate size")
			}
			if m.Key == "multipleOf" && r.Sign() <= 0 {
				return bad("a positive number")
			}
		case k.Value == schema.CountValue:
			if r := numRat(v); r == nil || !r.IsInt() || r.Sign() < 0 {
				return bad("a non-negative integer")
			}
		case k.Value == schema.SchemaMapValue || k.Value == schema.PatternMapValue || k.Value == schema.StringsMapValue || k.Value == schema.DependenciesValue:
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
		case k.Value == schema.SchemasValue:
			if v.Kind != jsonval.Array || len(v.Items) == 0 && m.Key != "prefixItems" {
				return bad("a non-empty array of schemas")
			}
			for i, sub := range v.Items {
				if err := d.scan(sub, p+"/"+strconv.Itoa(i)); err != nil {
					return err
				}
			}
		case m.Key == "items":
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
		case m.Key == "additionalProperties", m.Key == "additionalItems", m.Key == "contains", m.Key == "not", m.Key == "if", m.Key == "then", m.Key == "else", m.Key == "propertyNames":
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
