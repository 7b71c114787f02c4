package contract

import (
	"fmt"
	"math/big"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

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
