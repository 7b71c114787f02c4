package gen

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/runtime/contract"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// Ambiguous oneOf. oneOf means exactly one branch: a value that two
// branches accept is refused, which is rarely what a schema's author meant
// (two open objects whose required members overlap, a number and an
// integer, a branch without a discriminator that accepts the other's
// values). OneOfOverlaps proves such overlaps by example: for each pair of
// branches it builds the values the site accepts through the second
// (runtime/contract's instances of the site with that branch alone in its
// oneOf) and asks the oracle whether the first branch accepts one too. A value both accept is reported with both branches; a pair for
// which no such value turns up is not (the search is not exhaustive, so
// silence is no proof of exclusivity). Tagged unions (discriminator) are
// exclusive by construction and not searched.

// Overlap is a oneOf two of whose branches accept Example.
type Overlap struct {
	File, Pointer string // the oneOf keyword
	First, Second int    // the branch indexes
	Example       string // a value both accept, as JSON
}

func (o Overlap) Error() string {
	return (&Error{File: o.File, Pointer: o.Pointer, Keyword: "oneOf", Message: o.Message()}).Error()
}

// Message says what overlaps, without the place.
func (o Overlap) Message() string {
	return fmt.Sprintf("branches #%d and #%d both accept %s, which oneOf therefore refuses; make them exclusive (a const discriminator, disjoint required members, closed objects) or use anyOf", o.First, o.Second, o.Example)
}

// hasMember reports whether v or a value in it is an object with a member
// named key.
func hasMember(v *jsonval.Value, key string) bool {
	for _, m := range v.Members {
		if m.Key == key || hasMember(m.Value, key) {
			return true
		}
	}
	return slices.ContainsFunc(v.Items, func(it *jsonval.Value) bool { return hasMember(it, key) })
}

// overlapInstances bounds the values tried per branch.
const overlapInstances = 24

// overlapBudget bounds the oracle validations of the pairs of one oneOf,
// so that the search grows linearly with the branches past a few hundred
// pairs: a oneOf of 500 branches has 124,750 pairs. The pairs are searched
// neighbours first until it is spent; a pair left unsearched is not
// reported, like one whose search found nothing.
const overlapBudget = 20000

// OneOfOverlaps returns the overlapping oneOf branches of t's effective
// schema that it can prove.
func OneOfOverlaps(t *Tool, opts Options) []Overlap {
	if !hasMember(t.params, "oneOf") {
		return nil
	}
	eff := schema.Effective(t.params, opts.OpenObjects)
	var out []Overlap
	var walk func(s *jsonval.Value, ptr string)
	walk = func(s *jsonval.Value, ptr string) {
		if s.Kind != jsonval.Object {
			return
		}
		if one := s.Get("oneOf"); one != nil && one.Kind == jsonval.Array {
			out = append(out, overlaps(t, eff, s, one.Items, ptr+"/oneOf")...)
		}
		schema.Each(s, ptr, func(_ schema.Keyword, sub *jsonval.Value, at string) { walk(sub, at) })
	}
	walk(eff, "")
	return out
}

// overlaps searches the pairs of branches of one oneOf, site being the
// schema that holds it. The values tried for branch j are those its site
// accepts with j alone in its oneOf (siteWith): they satisfy the site's
// other keywords too, so that {"type": "object", "oneOf": [...]} is not
// said to accept null. One that branch i accepts as well is refused by the
// site for matching both. Each branch's values are built and its oracles
// compiled once, then reused for every pair.
func overlaps(t *Tool, root, site *jsonval.Value, branches []*jsonval.Value, ptr string) []Overlap {
	var cands []candidates
	for _, b := range branches {
		c, ok := newCandidates(root, site, b)
		if !ok {
			return nil
		}
		cands = append(cands, c)
	}
	var out []Overlap
	budget := overlapBudget
	// Neighbours first (#0 and #1, #1 and #2, ..., then #0 and #2, ...):
	// branches that overlap are most often written next to each other,
	// and the budget may run out before the far pairs.
	for dist := 1; dist < len(cands) && budget > 0; dist++ {
		for i := 0; i+dist < len(cands) && budget > 0; i++ {
			j := i + dist
			ex, ok := cands[j].acceptedBy(cands[i].branch, &budget)
			if !ok {
				ex, ok = cands[i].acceptedBy(cands[j].branch, &budget)
			}
			if ok {
				out = append(out, Overlap{File: t.File, Pointer: t.Pointer + "/" + t.paramsKey + ptr, First: i, Second: j, Example: ex})
			}
		}
	}
	slices.SortFunc(out, func(a, b Overlap) int { return cmp.Or(a.First-b.First, a.Second-b.Second) })
	return out
}

// siteWith is the oneOf site with branch b alone in its oneOf: the values
// it accepts are those that b accepts and that the site's other keywords
// (type, required, unevaluatedProperties, ...) let through.
func siteWith(site, b *jsonval.Value) *jsonval.Value {
	s := &jsonval.Value{Kind: jsonval.Object}
	for _, m := range site.Members {
		if m.Key == "oneOf" {
			s.Set("oneOf", &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{b}})
			continue
		}
		s.Set(m.Key, m.Value)
	}
	return s
}

// wrapBranch makes a branch a document of its own: an object whose member
// "v" is the branch, with the root's $schema and definitions (so that
// references into them resolve). A branch that refers elsewhere in the
// root is not wrapped (nil).
func wrapBranch(root, b *jsonval.Value) []byte {
	refsOK := true
	var visit func(s *jsonval.Value)
	visit = func(s *jsonval.Value) {
		switch s.Kind {
		case jsonval.Object:
			for _, m := range s.Members {
				if m.Key == "$ref" && (m.Value.Kind != jsonval.String || !strings.HasPrefix(m.Value.Str, "#/$defs/") && !strings.HasPrefix(m.Value.Str, "#/definitions/")) {
					refsOK = false
				}
				visit(m.Value)
			}
		case jsonval.Array:
			for _, it := range s.Items {
				visit(it)
			}
		}
	}
	visit(b)
	for _, kw := range []string{"$defs", "definitions"} {
		if d := root.Get(kw); d != nil {
			visit(d)
		}
	}
	if !refsOK {
		return nil
	}
	w := &jsonval.Value{Kind: jsonval.Object}
	if s := root.Get("$schema"); s != nil {
		w.Set("$schema", s)
	}
	w.Set("type", &jsonval.Value{Kind: jsonval.String, Str: "object"})
	w.Set("properties", &jsonval.Value{Kind: jsonval.Object, Members: []jsonval.Member{{Key: "v", Value: b}}})
	w.Set("required", &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{{Kind: jsonval.String, Str: "v"}}})
	for _, kw := range []string{"$defs", "definitions"} {
		if d := root.Get(kw); d != nil {
			w.Set(kw, d)
		}
	}
	return w.Marshal()
}

// candidates are the values that one branch's site accepts (siteWith),
// decoded for the oracle, and the oracle of the branch alone.
type candidates struct {
	branch *jsonschema.Schema
	values []any
	json   [][]byte
}

// newCandidates builds the candidates of branch b of the oneOf at site;
// ok is false when a schema cannot be wrapped, built or compiled.
func newCandidates(root, site, b *jsonval.Value) (c candidates, ok bool) {
	alone, inSite := wrapBranch(root, b), wrapBranch(root, siteWith(site, b))
	if alone == nil || inSite == nil {
		return c, false
	}
	ins, err := contract.Instances(inSite, overlapInstances)
	if err != nil {
		return c, false
	}
	siteOracle := compileOracle(inSite, "site.json")
	if c.branch = compileOracle(alone, "branch.json"); c.branch == nil || siteOracle == nil {
		return c, false
	}
	for _, in := range ins {
		var v any
		dec := json.NewDecoder(bytes.NewReader(in.JSON))
		dec.UseNumber()
		if dec.Decode(&v) != nil || siteOracle.Validate(v) != nil {
			continue
		}
		c.values = append(c.values, v)
		c.json = append(c.json, in.JSON)
	}
	return c, true
}

// acceptedBy looks among the values of c for one that other accepts too,
// and returns its member "v" (the site's value) as JSON. Each validation
// spends one of budget.
func (c candidates) acceptedBy(other *jsonschema.Schema, budget *int) (string, bool) {
	for k, v := range c.values {
		if *budget <= 0 {
			return "", false
		}
		*budget--
		if other.Validate(v) != nil {
			continue
		}
		doc, err := jsonval.Parse(c.json[k])
		if err != nil || doc.Get("v") == nil {
			continue
		}
		return string(doc.Get("v").Marshal()), true
	}
	return "", false
}

// compileOracle compiles a wrapped branch, or returns nil.
func compileOracle(schema []byte, url string) *jsonschema.Schema {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if root, err := jsonval.Parse(schema); err == nil {
		if s := root.Get("$schema"); s != nil && strings.Contains(s.Str, "draft-07") {
			c.Draft = jsonschema.Draft7
		}
	}
	c.AssertFormat = true
	if err := c.AddResource(url, bytes.NewReader(schema)); err != nil {
		return nil
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil
	}
	return s
}
