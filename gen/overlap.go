package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/runtime/contract"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
)

// Ambiguous oneOf. oneOf means exactly one branch: a value that two
// branches accept is refused, which is rarely what a schema's author meant
// (two open objects whose required members overlap, a number and an
// integer, a branch without a discriminator that accepts the other's
// values). OneOfOverlaps proves such overlaps by example: for each pair of
// branches it builds the values the second accepts (runtime/contract's
// instances of the branch) and asks the oracle whether the first accepts
// one too. A value both accept is reported with both branches; a pair for
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

// OneOfOverlaps returns the overlapping oneOf branches of t's effective
// schema that it can prove.
func OneOfOverlaps(t *Tool, opts Options) []Overlap {
	if !hasMember(t.params, "oneOf") {
		return nil
	}
	eff := provider.Effective(t.params, opts.OpenObjects)
	var out []Overlap
	var walk func(s *jsonval.Value, ptr string)
	walk = func(s *jsonval.Value, ptr string) {
		if s.Kind != jsonval.Object {
			return
		}
		if one := s.Get("oneOf"); one != nil && one.Kind == jsonval.Array {
			out = append(out, overlaps(t, eff, one.Items, ptr+"/oneOf")...)
		}
		for _, m := range s.Members {
			at := ptr + "/" + escapePointer(m.Key)
			switch {
			case slices.Contains(subschemaOne, m.Key):
				walk(m.Value, at)
			case slices.Contains(subschemaMap, m.Key) && m.Value.Kind == jsonval.Object:
				for _, c := range m.Value.Members {
					walk(c.Value, at+"/"+escapePointer(c.Key))
				}
			case slices.Contains(subschemaList, m.Key) || m.Key == "items":
				if m.Value.Kind == jsonval.Array {
					for i, c := range m.Value.Items {
						walk(c, at+"/"+strconv.Itoa(i))
					}
				} else {
					walk(m.Value, at)
				}
			}
		}
	}
	walk(eff, "")
	return out
}

// overlaps searches the pairs of branches of one oneOf.
func overlaps(t *Tool, root *jsonval.Value, branches []*jsonval.Value, ptr string) []Overlap {
	var wrapped [][]byte
	for _, b := range branches {
		w := wrapBranch(root, b)
		if w == nil {
			return nil
		}
		wrapped = append(wrapped, w)
	}
	var out []Overlap
	for i := range wrapped {
		for j := range wrapped {
			if i == j {
				continue
			}
			if ex, ok := acceptedByBoth(wrapped[j], wrapped[i]); ok {
				first, second := min(i, j), max(i, j)
				if !slices.ContainsFunc(out, func(o Overlap) bool { return o.First == first && o.Second == second }) {
					out = append(out, Overlap{File: t.File, Pointer: t.Pointer + "/" + t.paramsKey + ptr, First: first, Second: second, Example: ex})
				}
			}
		}
	}
	return out
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

// acceptedByBoth looks among the values the branch wrapped in from accepts
// for one that the branch wrapped in other accepts too.
func acceptedByBoth(from, other []byte) (string, bool) {
	ins, err := contract.Instances(from, overlapInstances)
	if err != nil {
		return "", false
	}
	fromSchema, otherSchema := compileOracle(from, "from.json"), compileOracle(other, "other.json")
	if fromSchema == nil || otherSchema == nil {
		return "", false
	}
	for _, in := range ins {
		var v any
		dec := json.NewDecoder(bytes.NewReader(in.JSON))
		dec.UseNumber()
		if dec.Decode(&v) != nil || fromSchema.Validate(v) != nil || otherSchema.Validate(v) != nil {
			continue
		}
		doc, err := jsonval.Parse(in.JSON)
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
