package schemadiff

import (
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// Change is one classified change of one tool.
type Change struct {
	Tool string
	Kind string
	// Pointer locates the change in the new effective schema (the old one
	// for a removal); "" for the tool itself.
	Pointer string
	// Old and New are the values involved as JSON, or "".
	Old, New string
	Callers  Class
	Queued   Class
	// Allowed is the reason a config gives for accepting a breaking
	// change, or "".
	Allowed string
}

// Worst is the more severe of the two classes.
func (c Change) Worst() Class { return max(c.Callers, c.Queued) }

// ToolDiff is the changes of one tool, with its schema versions ("" on the
// side it is missing from).
type ToolDiff struct {
	Name                   string
	OldVersion, NewVersion string
	Changes                []Change
}

// Report is the result of a comparison, tools in name order.
type Report struct {
	Tools []ToolDiff
}

// Count returns the number of changes whose worst class is c, and of those
// how many a config allowed.
func (r *Report) Count(c Class) (n, allowed int) {
	for _, t := range r.Tools {
		for _, ch := range t.Changes {
			if ch.Worst() == c {
				n++
				if ch.Allowed != "" {
					allowed++
				}
			}
		}
	}
	return n, allowed
}

// side is one tool's effective schema, effective result schema (nil when
// it has none) and version.
type side struct {
	t       *gen.Tool
	schema  *jsonval.Value
	result  *jsonval.Value
	version string
}

func index(set *gen.Set) (map[string]side, error) {
	out := map[string]side{}
	var errs gen.ErrorList
	for _, t := range set.Tools() {
		s, v, err := set.Schema(t)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[t.Name] = side{t, s, gen.ResultSchema(t, set.Options()), v}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// Compare classifies every change from old to new, the analyses
// (gen.Analyze) of the tools before and after, under the same options. err
// reports invalid tool definitions on either side (a gen.ErrorList).
func Compare(old, new *gen.Set, cfg Config) (*Report, error) {
	o, err := index(old)
	if err != nil {
		return nil, err
	}
	n, err := index(new)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for k := range o {
		names[k] = true
	}
	for k := range n {
		names[k] = true
	}
	sorted := make([]string, 0, len(names))
	for k := range names {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	rep := &Report{}
	for _, name := range sorted {
		a, inOld := o[name]
		b, inNew := n[name]
		td := ToolDiff{Name: name, OldVersion: a.version, NewVersion: b.version}
		w := &walker{tool: name}
		switch {
		case !inNew:
			w.add(ToolRemoved, "", "", "")
		case !inOld:
			w.add(ToolAdded, "", "", "")
		default:
			if a.t.Description != b.t.Description {
				w.add(DescriptionChanged, "", quote(a.t.Description), quote(b.t.Description))
			}
			w.roles(a.t.Meta.Roles, b.t.Meta.Roles)
			w.oldRoot, w.newRoot = a.schema, b.schema
			w.seen = map[[2]string]bool{}
			w.schema(a.schema, b.schema, "", "", "")
			if ra, rb := marshal(a.result), marshal(b.result); ra != rb {
				w.add(ResultChanged, "/outputSchema", ra, rb)
			}
		}
		for i := range w.out {
			w.out[i].Allowed = cfg.allows(w.out[i])
		}
		td.Changes = w.out
		if len(td.Changes) > 0 {
			rep.Tools = append(rep.Tools, td)
		}
	}
	return rep, nil
}

// roles compares the roles that may call the tool; none means every
// principal.
func (w *walker) roles(old, new []string) {
	list := func(rs []string) string {
		if len(rs) == 0 {
			return "(any principal)"
		}
		return strings.Join(rs, ", ")
	}
	lost := slices.ContainsFunc(old, func(r string) bool { return !slices.Contains(new, r) })
	gained := slices.ContainsFunc(new, func(r string) bool { return !slices.Contains(old, r) })
	switch {
	case len(old) == 0 && len(new) > 0, len(new) > 0 && lost:
		w.add(RolesNarrowed, "", list(old), list(new))
	case len(old) > 0 && len(new) == 0, gained:
		w.add(RolesWidened, "", list(old), list(new))
	}
}

func quote(s string) string { return string(jsonval.AppendString(nil, s)) }

type walker struct {
	tool             string
	oldRoot, newRoot *jsonval.Value
	seen             map[[2]string]bool
	out              []Change
}

func (w *walker) add(kind, ptr, old, new string) {
	k := KindByID(kind)
	w.out = append(w.out, Change{Tool: w.tool, Kind: kind, Pointer: ptr, Old: old, New: new, Callers: k.Callers, Queued: k.Queued})
}

func marshal(v *jsonval.Value) string {
	if v == nil {
		return ""
	}
	return string(v.Marshal())
}

// deref follows local $refs (a bounded number of hops) and returns the
// target and its pointer.
func deref(root, s *jsonval.Value, ptr string) (*jsonval.Value, string) {
	for range 32 {
		if s == nil || s.Kind != jsonval.Object {
			return s, ptr
		}
		ref := s.Get("$ref")
		if ref == nil || ref.Kind != jsonval.String {
			return s, ptr
		}
		t, at, ok := jsonval.ResolveRef(root, ref.Str)
		if !ok {
			return s, ptr
		}
		s, ptr = t, at
	}
	return s, ptr
}

func allows(types []string, t string) bool {
	return types == nil || slices.Contains(types, t) || (t == "integer" && slices.Contains(types, "number"))
}

// schema compares old and new at ptr (in the new schema); oldAt and newAt
// are the resolved locations, to stop on recursive references.
func (w *walker) schema(old, new *jsonval.Value, ptr, oldAt, newAt string) {
	old, oldAt = deref(w.oldRoot, old, oldAt)
	new, newAt = deref(w.newRoot, new, newAt)
	key := [2]string{oldAt, newAt}
	if w.seen[key] {
		return
	}
	w.seen[key] = true
	if old.Kind == jsonval.Bool || new.Kind == jsonval.Bool {
		if !jsonval.Equal(old, new) {
			w.add(SchemaChanged, ptr, marshal(old), marshal(new))
		}
		return
	}
	w.types(old, new, ptr)
	w.enum(old, new, ptr)
	w.bounds(old, new, ptr)
	for _, kw := range []struct{ name, added, changed, removed string }{
		{"pattern", PatternAdded, PatternChanged, PatternRemoved},
		{"format", FormatAdded, FormatChanged, FormatRemoved},
	} {
		a, b := old.Get(kw.name), new.Get(kw.name)
		switch {
		case a == nil && b != nil:
			w.add(kw.added, ptr+"/"+kw.name, "", marshal(b))
		case a != nil && b == nil:
			w.add(kw.removed, ptr+"/"+kw.name, marshal(a), "")
		case a != nil && !jsonval.Equal(a, b):
			w.add(kw.changed, ptr+"/"+kw.name, marshal(a), marshal(b))
		}
	}
	if a, b := old.Get("default"), new.Get("default"); (a == nil) != (b == nil) || (a != nil && !jsonval.Equal(a, b)) {
		w.add(DefaultChanged, ptr+"/default", marshal(a), marshal(b))
	}
	if a, b := old.Get("description"), new.Get("description"); (a == nil) != (b == nil) || (a != nil && !jsonval.Equal(a, b)) {
		w.add(DescriptionChanged, ptr+"/description", marshal(a), marshal(b))
	}
	w.object(old, new, ptr, oldAt, newAt)
	w.array(old, new, ptr, oldAt, newAt)
	for _, kw := range []string{"anyOf", "oneOf", "allOf", "not", "if", "then", "else", "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas", "contains", "uniqueItems"} {
		if a, b := old.Get(kw), new.Get(kw); (a == nil) != (b == nil) || (a != nil && !jsonval.Equal(a, b)) {
			w.add(SchemaChanged, ptr+"/"+kw, marshal(a), marshal(b))
		}
	}
}

func (w *walker) types(old, new *jsonval.Value, ptr string) {
	a, b := schema.TypeNames(old), schema.TypeNames(new)
	var lost, gained []string
	for _, t := range []string{"null", "boolean", "integer", "number", "string", "array", "object"} {
		switch {
		case allows(a, t) && !allows(b, t):
			lost = append(lost, t)
		case !allows(a, t) && allows(b, t):
			gained = append(gained, t)
		}
	}
	if len(lost) > 0 {
		w.add(TypeNarrowed, ptr+"/type", marshal(old.Get("type")), marshal(new.Get("type")))
	}
	if len(gained) > 0 {
		w.add(TypeWidened, ptr+"/type", marshal(old.Get("type")), marshal(new.Get("type")))
	}
}

// values returns the enum (or const) values of s, or nil.
func values(s *jsonval.Value) ([]*jsonval.Value, string) {
	if e := s.Get("enum"); e != nil && e.Kind == jsonval.Array {
		return e.Items, "enum"
	}
	if c := s.Get("const"); c != nil {
		return []*jsonval.Value{c}, "const"
	}
	return nil, ""
}

func (w *walker) enum(old, new *jsonval.Value, ptr string) {
	a, akw := values(old)
	b, bkw := values(new)
	switch {
	case a == nil && b == nil:
		return
	case a == nil:
		w.add(EnumAdded, ptr+"/"+bkw, "", marshal(new.Get(bkw)))
		return
	case b == nil:
		w.add(EnumRemoved, ptr+"/"+akw, marshal(old.Get(akw)), "")
		return
	}
	in := func(v *jsonval.Value, list []*jsonval.Value) bool {
		return slices.ContainsFunc(list, func(x *jsonval.Value) bool { return jsonval.Equal(x, v) })
	}
	for _, v := range a {
		if !in(v, b) {
			w.add(EnumValueRemoved, ptr+"/"+bkw, marshal(v), "")
		}
	}
	for _, v := range b {
		if !in(v, a) {
			w.add(EnumValueAdded, ptr+"/"+bkw, "", marshal(v))
		}
	}
}

// bound is one side of a range: a value and whether it is exclusive.
type bound struct {
	kw        string
	v         *big.Rat
	exclusive bool
}

// pick returns the effective bound of s on one side: the exclusive
// keyword when it is as strict as the inclusive one or stricter.
func pick(s *jsonval.Value, incl, excl string, lower bool) bound {
	var b bound
	if r := s.Get(incl).Rat(); r != nil {
		b = bound{incl, r, false}
	}
	if r := s.Get(excl).Rat(); r != nil {
		if b.v == nil || (lower && r.Cmp(b.v) >= 0) || (!lower && r.Cmp(b.v) <= 0) {
			b = bound{excl, r, true}
		}
	}
	return b
}

// tighter reports whether bound b admits less than a on its side (lower
// bounds when lower is set).
func tighter(a, b bound, lower bool) bool {
	switch {
	case b.v == nil:
		return false
	case a.v == nil:
		return true
	}
	c := b.v.Cmp(a.v)
	if !lower {
		c = -c
	}
	return c > 0 || (c == 0 && b.exclusive && !a.exclusive)
}

func (w *walker) compareBound(a, b bound, lower bool, ptr string) {
	at := func(bd bound) string {
		if bd.kw == "" {
			return ""
		}
		return marshal(&jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{{Key: bd.kw, Value: &jsonval.Value{Kind: jsonval.Number, Str: bd.v.RatString()}}}})
	}
	kw := b.kw
	if kw == "" {
		kw = a.kw
	}
	switch {
	case tighter(a, b, lower):
		w.add(BoundNarrowed, ptr+"/"+kw, at(a), at(b))
	case tighter(b, a, lower):
		w.add(BoundWidened, ptr+"/"+kw, at(a), at(b))
	}
}

func (w *walker) bounds(o, n *jsonval.Value, ptr string) {
	w.compareBound(pick(o, "minimum", "exclusiveMinimum", true), pick(n, "minimum", "exclusiveMinimum", true), true, ptr)
	w.compareBound(pick(o, "maximum", "exclusiveMaximum", false), pick(n, "maximum", "exclusiveMaximum", false), false, ptr)
	for _, p := range sizeBounds {
		w.compareBound(pick(o, p[0], "", true), pick(n, p[0], "", true), true, ptr)
		w.compareBound(pick(o, p[1], "", false), pick(n, p[1], "", false), false, ptr)
	}
	a, b := o.Get("multipleOf").Rat(), n.Get("multipleOf").Rat()
	switch {
	case a == nil && b == nil, a != nil && b != nil && a.Cmp(b) == 0:
	case b == nil, a != nil && new(big.Rat).Quo(a, b).IsInt():
		// No step any more, or the new step divides the old one.
		w.add(BoundWidened, ptr+"/multipleOf", marshal(o.Get("multipleOf")), marshal(n.Get("multipleOf")))
	default:
		w.add(BoundNarrowed, ptr+"/multipleOf", marshal(o.Get("multipleOf")), marshal(n.Get("multipleOf")))
	}
}

// isSchema reports whether v, the value of additionalProperties, is a
// schema object (not absent, true or false).
func isSchema(v *jsonval.Value) bool { return v != nil && v.Kind == jsonval.Object }

// closed reports whether an object schema refuses undeclared members.
func closed(s *jsonval.Value) bool {
	ap := s.Get("additionalProperties")
	return ap != nil && ap.Kind == jsonval.Bool && !ap.Bool
}

func required(s *jsonval.Value) map[string]bool {
	out := map[string]bool{}
	if r := s.Get("required"); r != nil {
		for _, it := range r.Items {
			out[it.Str] = true
		}
	}
	return out
}

func (w *walker) object(old, new *jsonval.Value, ptr, oldAt, newAt string) {
	ap, bp := old.Get("properties"), new.Get("properties")
	if ap == nil && bp == nil && old.Get("additionalProperties") == nil && new.Get("additionalProperties") == nil {
		return
	}
	switch {
	case !closed(old) && closed(new):
		w.add(ObjectClosed, ptr+"/additionalProperties", marshal(old.Get("additionalProperties")), "false")
	case closed(old) && !closed(new):
		w.add(ObjectOpened, ptr+"/additionalProperties", "false", marshal(new.Get("additionalProperties")))
	case !closed(old) && !closed(new):
		a, b := old.Get("additionalProperties"), new.Get("additionalProperties")
		switch {
		case isSchema(a) && isSchema(b):
			w.schema(a, b, ptr+"/additionalProperties", oldAt+"/additionalProperties", newAt+"/additionalProperties")
		case isSchema(b):
			// Members of any value (a free-form map) must now satisfy a schema.
			w.add(SchemaChanged, ptr+"/additionalProperties", marshal(a), marshal(b))
		case isSchema(a):
			w.add(ObjectOpened, ptr+"/additionalProperties", marshal(a), marshal(b))
		}
	}
	ra, rb := required(old), required(new)
	get := func(props *jsonval.Value, name string) *jsonval.Value {
		if props == nil {
			return nil
		}
		return props.Get(name)
	}
	var names []string
	seen := map[string]bool{}
	for _, props := range []*jsonval.Value{ap, bp} {
		if props == nil {
			continue
		}
		for _, m := range props.Members {
			if !seen[m.Key] {
				seen[m.Key] = true
				names = append(names, m.Key)
			}
		}
	}
	for _, name := range names {
		at := ptr + "/properties/" + jsonval.EscapeToken(name)
		a, b := get(ap, name), get(bp, name)
		switch {
		case b == nil:
			w.add(PropertyRemoved, at, marshal(a), "")
		case a == nil && rb[name]:
			w.add(RequiredAdded, ptr+"/required", "", quote(name))
		case a == nil:
			w.add(PropertyAdded, at, "", marshal(b))
		default:
			if !ra[name] && rb[name] {
				w.add(RequiredAdded, ptr+"/required", "", quote(name))
			}
			if ra[name] && !rb[name] {
				w.add(RequiredRemoved, ptr+"/required", quote(name), "")
			}
			tok := "/properties/" + jsonval.EscapeToken(name)
			w.schema(a, b, at, oldAt+tok, newAt+tok)
		}
	}
	for name := range rb {
		if !ra[name] && get(ap, name) == nil && get(bp, name) == nil {
			w.add(RequiredAdded, ptr+"/required", "", quote(name))
		}
	}
}

func (w *walker) array(old, new *jsonval.Value, ptr, oldAt, newAt string) {
	a, b := old.Get("items"), new.Get("items")
	switch {
	case a == nil && b == nil:
	case a == nil || b == nil:
		w.add(SchemaChanged, ptr+"/items", marshal(a), marshal(b))
	case a.Kind == jsonval.Array || b.Kind == jsonval.Array:
		if !jsonval.Equal(a, b) {
			w.add(SchemaChanged, ptr+"/items", marshal(a), marshal(b))
		}
	default:
		w.schema(a, b, ptr+"/items", oldAt+"/items", newAt+"/items")
	}
	pa, pb := old.Get("prefixItems"), new.Get("prefixItems")
	if pa != nil && pb != nil && len(pa.Items) == len(pb.Items) {
		for i := range pa.Items {
			at := "/prefixItems/" + strconv.Itoa(i)
			w.schema(pa.Items[i], pb.Items[i], ptr+at, oldAt+at, newAt+at)
		}
	} else if (pa == nil) != (pb == nil) || (pa != nil && !jsonval.Equal(pa, pb)) {
		w.add(SchemaChanged, ptr+"/prefixItems", marshal(pa), marshal(pb))
	}
}

// describe renders a change for people.
func describe(c Change) string {
	var b strings.Builder
	b.WriteString(c.Kind)
	if c.Pointer != "" {
		fmt.Fprintf(&b, " at %s", c.Pointer)
	}
	switch {
	case c.Old != "" && c.New != "":
		fmt.Fprintf(&b, ": %s → %s", c.Old, c.New)
	case c.Old != "":
		fmt.Fprintf(&b, ": %s", c.Old)
	case c.New != "":
		fmt.Fprintf(&b, ": %s", c.New)
	}
	return b.String()
}

// sizeBounds are the [lower, upper] bounds of a string's length, an
// array's items and an object's members. The bounds of contains count the
// items that match it, which these rules leave alone.
var sizeBounds = schema.CountPairs(func(k schema.Keyword) bool { return k.Name != "minContains" })
