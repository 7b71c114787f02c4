package provider

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// ---- Gemini ----

var geminiKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"enum": true, "items": true, "prefixItems": true, "minItems": true, "maxItems": true,
	"minimum": true, "maximum": true, "$ref": true, "$defs": true, "format": true,
	"title": true, "description": true, "anyOf": true,
}

var geminiFormats = []string{"date-time", "date", "time"}

func (pr *projection) gemini(schema *jsonval.Value) (*jsonval.Value, error) {
	out := schema.CloneCompact()
	var visit func(s *jsonval.Value, ptr string) error
	visit = func(s *jsonval.Value, ptr string) error {
		if s.Kind != jsonval.Object {
			return nil
		}
		if s.Has("definitions") {
			return pr.refuse(ptr+"/definitions", "Gemini takes definitions under $defs")
		}
		if r := s.Get("$ref"); r != nil && !pointerRef(r) {
			return pr.refuse(ptr+"/$ref", "Gemini resolves only JSON-pointer references (#/...), not %s", r.Str)
		}
		if err := pr.refuseShaping(s, ptr, geminiKeywords); err != nil {
			return err
		}
		if c := s.Get("const"); c != nil {
			s.Delete("const")
			s.Set("enum", &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{c}})
		}
		pr.carry(s, ptr, geminiKeywords, geminiFormats)
		for i, alt := range itemsOf(s.Get("anyOf")) {
			if err := visit(alt, ptr+"/anyOf/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
		return walkChildren(s, ptr, visit)
	}
	return out, visit(out, "")
}

// maxInlined bounds the JSON values of a schema projected onto the OpenAPI
// subset, which has no references: a schema whose definitions refer to
// the next one twice doubles at each level when inlined, so that 1.7 KB
// of schema would become 2^20 copies of the last definition.
const maxInlined = 1 << 16

// inlining is the state of one projection onto the OpenAPI subset: the
// definitions being inlined or inlined already (refs), and the projection
// of each one inlined (done), shared by every reference to it.
type inlining struct {
	refs refVisits
	done map[string]*jsonval.Value
}

// geminiLegacyInlined projects schema onto the OpenAPI 3.0 subset of
// Gemini's legacy parameters field (geminiLegacy), and refuses it when
// its references, inlined, would make it larger than maxInlined values.
func (pr *projection) geminiLegacyInlined(schema *jsonval.Value) (*jsonval.Value, error) {
	in := &inlining{refs: refVisits{}, done: map[string]*jsonval.Value{}}
	out, err := pr.geminiLegacy(schema, "", in)
	if err != nil {
		return nil, err
	}
	if expandedSize(out, map[*jsonval.Value]int{}) > maxInlined {
		return nil, pr.refuse("", "its references, inlined into the OpenAPI subset, would make it more than %d JSON values", maxInlined)
	}
	return out, nil
}

// expandedSize is the number of JSON values in v written out, where the
// values v shares (an inlined definition) count once for each place they
// appear; counted is the size of each shared value already counted, and
// the count stops soon after it passes maxInlined.
func expandedSize(v *jsonval.Value, counted map[*jsonval.Value]int) int {
	if n, ok := counted[v]; ok {
		return n
	}
	n := 1
	for _, m := range v.Members {
		n += expandedSize(m.Value, counted)
		if n > maxInlined {
			break
		}
	}
	for _, it := range v.Items {
		n += expandedSize(it, counted)
		if n > maxInlined {
			break
		}
	}
	counted[v] = n
	return n
}

// geminiLegacy projects onto the OpenAPI 3.0 subset of Gemini's legacy
// parameters field, inlining references: each definition is projected
// once, and its projection shared by every reference to it (in); one
// that refers to itself is refused.
func (pr *projection) geminiLegacy(s *jsonval.Value, ptr string, in *inlining) (*jsonval.Value, error) {
	if s.Kind == jsonval.Bool {
		return nil, pr.refuse(ptr, "a boolean schema cannot be expressed in the OpenAPI subset")
	}
	if r := s.Get("$ref"); r != nil {
		t, target, ok := jsonval.ResolveRef(pr.root, r.Str)
		if !ok {
			return nil, pr.refuse(ptr, "unresolvable reference %s", r.Str)
		}
		switch in.refs[target] {
		case refVisiting:
			return nil, pr.refuse(ptr, "a recursive schema cannot be inlined into the OpenAPI subset")
		case refVisited:
			return in.done[target], nil
		}
		in.refs[target] = refVisiting
		out, err := pr.geminiLegacy(t, target, in)
		if err != nil {
			return nil, err
		}
		in.refs[target], in.done[target] = refVisited, out
		return out, nil
	}
	if err := pr.refuseShaping(s, ptr, nil); err != nil {
		return nil, err
	}
	// inferType may add a type member: to a copy of the members only, as
	// the output takes the values and changes none of them.
	shallow := *s
	shallow.Members = slices.Clone(s.Members)
	s = &shallow
	inferType(s)
	ts := schema.TypeNames(s)
	nonNull := slices.DeleteFunc(slices.Clone(ts), func(t string) bool { return t == "null" })
	if len(nonNull) != 1 {
		return nil, pr.refuse(ptr, "the OpenAPI subset needs exactly one type (plus nullable)")
	}
	typ := nonNull[0]
	out := object(jsonval.Member{Key: "type", Value: str(strings.ToUpper(typ))})
	if len(ts) > 1 {
		out.Set("nullable", boolean(true))
	}
	for _, m := range s.Members {
		at := ptr + "/" + jsonval.EscapeToken(m.Key)
		if m.Key == "description" || schema.Takes(schema.GeminiLegacy, m.Key) {
			out.Set(m.Key, m.Value)
			continue
		}
		switch m.Key {
		case "type", "$defs", "definitions", "title", "$comment", "examples", "deprecated", "readOnly", "writeOnly", "default", "$schema", "$id":
		case "format":
			switch {
			case typ == "string" && m.Value.Str == "date-time":
				out.Set("format", m.Value)
			case known(m.Value):
				pr.keep(ptr, m.Key, m.Value)
			}
		case "enum", "const":
			vals := m.Value.Items
			if m.Key == "const" {
				vals = []*jsonval.Value{m.Value}
			}
			if typ != "string" {
				pr.keep(ptr, m.Key, m.Value)
				continue
			}
			enum := &jsonval.Value{Kind: jsonval.Array}
			for _, v := range vals {
				if v.Kind == jsonval.String {
					enum.Items = append(enum.Items, v)
				}
			}
			out.Set("enum", enum)
		case "properties":
			props := object()
			order := &jsonval.Value{Kind: jsonval.Array}
			for _, c := range m.Value.Members {
				p, err := pr.geminiLegacy(c.Value, at+"/"+jsonval.EscapeToken(c.Key), in)
				if err != nil {
					return nil, err
				}
				props.Set(c.Key, p)
				order.Items = append(order.Items, str(c.Key))
			}
			out.Set("properties", props)
			out.Set("propertyOrdering", order)
		case "items":
			it, err := pr.geminiLegacy(m.Value, at, in)
			if err != nil {
				return nil, err
			}
			out.Set("items", it)
		case "additionalProperties":
			if m.Value.Kind == jsonval.Bool && !m.Value.Bool {
				pr.keep(ptr, m.Key, m.Value)
				continue
			}
			return nil, pr.refuse(at, "open objects and maps cannot be expressed in the OpenAPI subset")
		case "prefixItems":
			return nil, pr.refuse(at, "tuples (prefixItems) cannot be expressed in the OpenAPI subset")
		default:
			if strings.HasPrefix(m.Key, "x-") {
				continue
			}
			pr.keep(ptr, m.Key, m.Value)
		}
	}
	if typ == "object" && !s.Has("additionalProperties") {
		return nil, pr.refuse(ptr, "an open object cannot be expressed in the OpenAPI subset")
	}
	return out, nil
}
