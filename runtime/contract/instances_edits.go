package contract

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// stringEdits returns the length, pattern and format cases of the string v.
func (d *deriver) stringEdits(f, v *jsonval.Value, path []string) []edit {
	var out []edit
	at := func(tier int, what, s string) {
		out = append(out, edit{path: path, val: jsonString(s), where: path, what: what, tier: tier})
	}
	plain := !f.Has("pattern") && !f.Has("format")
	for _, k := range lengthBounds {
		if m := f.Get(k.Name); m != nil {
			d.lengthEdits(f, k, intOf(m), plain, at)
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

// lengthBounds are the string length bounds of the table, lower first.
var lengthBounds = func() []schema.Keyword {
	lo, _ := schema.BoundOf(schema.Length, schema.Lower)
	hi, _ := schema.BoundOf(schema.Length, schema.Upper)
	return []schema.Keyword{lo, hi}
}()

// lengthEdits adds the cases of the length bound k of n code points: the
// strings just outside it, at it and just inside it, and (for a string
// without a pattern or format) the string of 2-byte runes that a bound
// counted in bytes would judge wrongly. Nothing is built longer than
// maxLen.
func (d *deriver) lengthEdits(f *jsonval.Value, k schema.Keyword, n int, plain bool, at func(int, string, string)) {
	name := k.Name
	if k.Bound == schema.Lower {
		if n > maxLen {
			return
		}
		if n > 0 {
			s, _ := d.stringOfLen(f, n-1)
			at(tierKeyword, name+"-1", s)
			if plain && n > 1 {
				at(tierKeyword, name+"-1 in 2-byte runes", strings.Repeat("é", n-1))
			}
		}
		if s, ok := d.stringOfLen(f, n); ok {
			at(tierKeyword, name, s)
		}
		if s, ok := d.stringOfLen(f, n+1); ok {
			at(tierInside, name+"+1", s)
		}
		return
	}
	if n >= maxLen {
		return
	}
	if s, ok := d.stringOfLen(f, n); ok {
		at(tierKeyword, name, s)
	}
	s, _ := d.stringOfLen(f, n+1)
	at(tierKeyword, name+"+1", s)
	if plain && n > 0 {
		at(tierKeyword, name+" in 2-byte runes", strings.Repeat("é", n))
	}
	if s, ok := d.stringOfLen(f, n-1); n > 0 && ok {
		at(tierInside, name+"-1", s)
	}
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
