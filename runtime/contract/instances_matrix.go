package contract

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

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
