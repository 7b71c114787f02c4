package provider

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// ---- OpenAI strict ----

var openAIKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"enum": true, "const": true, "items": true, "$ref": true, "$defs": true, "description": true,
	"pattern": true, "format": true, "minimum": true, "maximum": true, "exclusiveMinimum": true,
	"exclusiveMaximum": true, "multipleOf": true, "minItems": true, "maxItems": true, "anyOf": true,
}

var openAIFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

const openAIMaxDepth = 10

func (pr *projection) openAI(in *jsonval.Value) (*jsonval.Value, error) {
	if !slices.Equal(schema.TypeNames(in), []string{"object"}) {
		return nil, pr.refuse("", "the root must be a plain object in")
	}
	out := in.CloneCompact()
	if err := pr.openAINode(out, "", 0); err != nil {
		return nil, err
	}
	return out, nil
}

func (pr *projection) openAINode(s *jsonval.Value, ptr string, depth int) error {
	if depth > openAIMaxDepth {
		return pr.refuse(ptr, "OpenAI strict mode allows at most %d levels of nesting", openAIMaxDepth)
	}
	if s.Kind == jsonval.Bool {
		return pr.refuse(ptr, "a boolean schema cannot be expressed in strict mode")
	}
	if r := s.Get("$ref"); r != nil && !pointerRef(r) {
		return pr.refuse(ptr+"/$ref", "strict mode resolves only JSON-pointer references (#/...), not %s", r.Str)
	}
	if s.Has("$ref") {
		// The referenced schema is projected under $defs; beside the
		// reference only the description stays.
		pr.refSiblings(s, ptr)
		s.Members = slices.DeleteFunc(s.Members, func(m jsonval.Member) bool { return m.Key != "$ref" && m.Key != "description" })
		return nil
	}
	if err := pr.refuseShaping(s, ptr, openAIKeywords); err != nil {
		return err
	}
	if any := s.Get("anyOf"); any != nil {
		// Strict mode takes anyOf (orNull makes one too); each branch must
		// be a strict schema itself. Beside it, what strict mode carries
		// stays and the rest is local.
		pr.carry(s, ptr, openAIKeywords, openAIFormats)
		for i, alt := range any.Items {
			if err := pr.openAINode(alt, ptr+"/anyOf/"+strconv.Itoa(i), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if s.Has("definitions") {
		return pr.refuse(ptr+"/definitions", "strict mode takes definitions under $defs")
	}
	inferType(s)
	ts := schema.TypeNames(s)
	nonNull := slices.DeleteFunc(slices.Clone(ts), func(t string) bool { return t == "null" })
	switch {
	case len(ts) == 0 && !s.Has("enum") && !s.Has("const"):
		return pr.refuse(ptr, "every value needs a type in strict mode")
	case len(nonNull) > 1:
		return pr.refuse(ptr+"/type", "a union of types %v cannot be expressed in strict mode", nonNull)
	case s.Has("prefixItems"):
		return pr.refuse(ptr+"/prefixItems", "tuples (prefixItems) cannot be expressed in strict mode")
	}
	if slices.Contains(ts, "object") {
		if a := s.Get("additionalProperties"); a == nil || !(a.Kind == jsonval.Bool && !a.Bool) {
			return pr.refuse(ptr, "strict mode needs additionalProperties: false on every object; this one is open")
		}
	}
	pr.carry(s, ptr, openAIKeywords, openAIFormats)
	if props := s.Get("properties"); props != nil {
		if err := pr.requireAll(s, props, ptr); err != nil {
			return err
		}
	}
	return walkChildren(s, ptr, func(c *jsonval.Value, at string) error {
		return pr.openAINode(c, at, depth+1)
	})
}

// refSiblings records as enforced locally every rule keyword beside a $ref
// that a strict schema cannot keep there (anything but $ref, description,
// annotations and extensions).
func (pr *projection) refSiblings(s *jsonval.Value, ptr string) {
	for _, m := range s.Members {
		if m.Key == "$ref" || m.Key == "description" || schema.Is(m.Key, schema.Keyword.CarriesNoRule) || strings.HasPrefix(m.Key, "x-") {
			continue
		}
		pr.keep(ptr, m.Key, m.Value)
	}
}

// requireAll lists every property in required, making the optional ones
// that are not nullable accept null (which then means "absent").
func (pr *projection) requireAll(s, props *jsonval.Value, ptr string) error {
	required := map[string]bool{}
	if r := s.Get("required"); r != nil {
		for _, it := range r.Items {
			required[it.Str] = true
		}
	}
	all := &jsonval.Value{Kind: jsonval.Array}
	for _, m := range props.Members {
		all.Items = append(all.Items, str(m.Key))
		if required[m.Key] || pr.isNullable(m.Value) {
			continue
		}
		nullable, err := pr.orNull(m.Value, ptr+"/properties/"+jsonval.EscapeToken(m.Key))
		if err != nil {
			return err
		}
		props.Set(m.Key, nullable)
		pr.nullAsAbsent = true
	}
	s.Set("required", all)
	return nil
}

// orNull returns s widened by null.
func (pr *projection) orNull(s *jsonval.Value, ptr string) (*jsonval.Value, error) {
	if s.Has("$ref") {
		// anyOf keeps the reference intact; the description moves out,
		// other annotations go, and a rule beside the reference is kept
		// locally.
		pr.refSiblings(s, ptr)
		ref := object(jsonval.Member{Key: "$ref", Value: s.Get("$ref")})
		wrapped := object(jsonval.Member{Key: "anyOf", Value: &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{ref, object(jsonval.Member{Key: "type", Value: str("null")})}}})
		if d := s.Get("description"); d != nil {
			wrapped.Set("description", d)
		}
		return wrapped, nil
	}
	// A new member list, type and enum; s is not changed, and the result
	// shares its subschemas (the caller replaces s by it).
	out := *s
	out.Members = slices.Clone(s.Members)
	inferType(&out)
	if c := out.Get("const"); c != nil {
		out.Delete("const")
		out.Set("enum", &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{c}})
	}
	switch t := out.Get("type"); {
	case t == nil:
		return nil, pr.refuse(ptr, "every value needs a type in strict mode")
	case t.Kind == jsonval.String:
		out.Set("type", &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{str(t.Str), str("null")}})
	default:
		out.Set("type", &jsonval.Value{Kind: jsonval.Array, Items: append(slices.Clone(t.Items), str("null"))})
	}
	if e := out.Get("enum"); e != nil {
		out.Set("enum", &jsonval.Value{Kind: jsonval.Array, Items: append(slices.Clone(e.Items), &jsonval.Value{Kind: jsonval.Null})})
	}
	return &out, nil
}
