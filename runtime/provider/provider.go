// Package provider derives, from a tool's effective schema, the exact tool
// definition each model provider is sent: OpenAI Chat Completions and
// Responses (strict function tools), Anthropic Messages, Gemini function
// declarations (parametersJsonSchema, and the legacy OpenAPI subset) and
// MCP tools/list entries.
//
// A projection never widens what the gate accepts and never hides a rule:
// a keyword a provider cannot carry is either dropped from that provider's
// schema and listed as enforced locally (the gate still checks it, and the
// tool description says so), or, where dropping it would change what the
// model is asked for, the tool is refused for that provider with a clear
// error. Nothing is renamed: a tool name that breaks a provider's name rule
// is refused.
//
// toolgate's generator embeds the projections in generated code, and the
// generated contract test recomputes them with this package (it does not
// import the generator) and compares.
//
// The provider rules applied (toolgate's reading of each provider's
// documentation):
//
//	provider          names                          keywords carried; everything else is local or refused
//	openai-chat,      ^[a-zA-Z0-9_-]{1,64}$          type (one type, or one plus null), properties, required (all),
//	openai-responses                                 additionalProperties false (every object), enum, const, items,
//	                                                 $ref/$defs, description, pattern, format (date-time, time, date,
//	                                                 duration, email, hostname, ipv4, ipv6, uuid), minimum, maximum,
//	                                                 exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems;
//	                                                 at most 10 levels of nesting; strict is always set explicitly
//	anthropic         ^[a-zA-Z0-9_-]{1,64}$          strict when every object is closed and nothing recurses: numeric
//	                                                 bounds, multipleOf, string lengths and minItems above 1, maxItems
//	                                                 and uniqueItems are local; otherwise not strict, with the whole
//	                                                 effective schema
//	gemini            ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$  parametersJsonSchema: type, properties, required,
//	                                                 additionalProperties, enum, items, prefixItems, minItems, maxItems,
//	                                                 minimum, maximum, $ref/$defs, format (date-time, date, time),
//	                                                 title, description; const becomes a one-value enum
//	gemini-legacy     as gemini                      the OpenAPI 3.0 subset in parameters: upper-case types,
//	                                                 nullable, string enums, properties, required, items, min/maxItems,
//	                                                 minimum, maximum, min/maxLength, pattern, format date-time,
//	                                                 propertyOrdering; no additionalProperties (closure is local), no
//	                                                 $ref (inlined; recursion is refused)
//	mcp               MCP's rule                     the whole effective schema (JSON Schema 2020-12)
//
// Composition (allOf, anyOf, oneOf, not, if/then/else, dependentSchemas,
// patternProperties, propertyNames, min/maxProperties, contains,
// unevaluatedProperties/Items) follows each provider's documented subset:
//
//   - OpenAI strict mode takes anyOf (each branch a strict schema itself:
//     typed, objects closed) but not allOf, oneOf, not, if/then/else,
//     dependentRequired/Schemas, patternProperties, unevaluated* ("Supported
//     schemas", https://platform.openai.com/docs/guides/structured-outputs#supported-schemas;
//     a oneOf is answered "'oneOf' is not permitted",
//     https://community.openai.com/t/932422).
//   - Anthropic strict tool use takes the subset of its structured outputs:
//     anyOf, allOf (not with $ref), const, enum, local $ref; no recursion,
//     no numeric or length bounds ("JSON Schema limitations",
//     https://platform.claude.com/docs/en/build-with-claude/structured-outputs).
//     A tool with oneOf, not, conditionals or the other keywords above is
//     sent in full, not strict: Anthropic reads non-strict input_schema as
//     plain JSON Schema (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use).
//   - Gemini parametersJsonSchema takes anyOf among the keywords listed
//     above (FunctionDeclaration, https://ai.google.dev/api/caching#FunctionDeclaration);
//     the legacy parameters field is the OpenAPI 3.0 Schema subset, with no
//     composition at all.
//   - MCP carries the whole effective schema (JSON Schema 2020-12).
//
// A keyword a provider does not take is dropped and listed in
// Definition.Local (the gate enforces it, the description says so) when it
// only narrows values (not, propertyNames, minProperties, an allOf of
// string bounds, unevaluatedProperties); when it chooses or adds members
// or items (an allOf, oneOf, if/then/else or dependentSchemas whose
// branches describe objects or arrays), dropping it would change what the
// model is asked for, and the tool is refused for that provider
// (refuseShaping). A composed object is closed with unevaluatedProperties
// (closure.go), which no strict mode takes: its branches are open, so
// strict OpenAI refuses it and Anthropic sends it non-strict.
//
// OpenAI strict mode requires every property to be listed in required. An
// optional member that is not nullable is therefore sent as required and
// nullable (NullAsAbsent): a model on that dialect sends null to mean
// "absent", and the gate maps it back for those members only. An optional
// member that is already nullable stays as it is, and null from the model
// means null.
package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Provider names a model provider's tool definition format.
type Provider string

// The providers.
const (
	OpenAIChat      Provider = "openai-chat"
	OpenAIResponses Provider = "openai-responses"
	Anthropic       Provider = "anthropic"
	Gemini          Provider = "gemini"
	GeminiLegacy    Provider = "gemini-legacy"
	MCP             Provider = "mcp"
)

// All lists every provider, in a fixed order.
var All = []Provider{OpenAIChat, OpenAIResponses, Anthropic, Gemini, GeminiLegacy, MCP}

// Tool is what a projection starts from.
type Tool struct {
	Name        string
	Description string
	// Schema is the effective JSON Schema of the arguments.
	Schema string
	// MCP holds the other members of the tool's MCP object (title,
	// annotations, outputSchema, _meta, icons, execution) as a JSON object,
	// or "". Its name, description and inputSchema members, if any, are
	// ignored: those always come from Name, Description and Schema.
	MCP string
}

// Local is a rule of the effective schema that a provider's schema does not
// carry. The gate enforces it all the same.
type Local struct {
	// Pointer locates the schema that has the keyword, in the effective
	// schema.
	Pointer string
	Keyword string
	// Value is the keyword's value as JSON.
	Value string
}

// String renders the rule for people: "/properties/amount: maximum 100000".
func (l Local) String() string {
	at := l.Pointer
	if at == "" {
		at = "(root)"
	}
	return at + ": " + l.Keyword + " " + l.Value
}

// Definition is the tool definition of one tool for one provider.
type Definition struct {
	Provider Provider
	// JSON is the definition exactly as it is to be sent.
	JSON string
	// Local lists the rules the definition's schema does not carry.
	Local []Local
	// NullAsAbsent reports that the definition turned optional members into
	// required, nullable ones (OpenAI strict), so that null from a model on
	// that dialect means "absent" for them.
	NullAsAbsent bool
}

// RefusedError reports that a tool cannot be projected faithfully for a
// provider.
type RefusedError struct {
	Provider Provider
	Tool     string
	// Pointer locates the schema that cannot be carried ("" for the root
	// schema, or when Name is set).
	Pointer string
	// Name is set when the tool's name is what the provider refuses.
	Name   bool
	Reason string
}

func (e *RefusedError) Error() string {
	at := ""
	if e.Pointer != "" {
		at = " at " + e.Pointer
	}
	return fmt.Sprintf("tool %s cannot be sent to %s%s: %s", e.Tool, e.Provider, at, e.Reason)
}

var (
	openAIName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	geminiName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
)

// Project returns the definition of t for p, or a *RefusedError.
func Project(p Provider, t Tool) (Definition, error) {
	schema, err := jsonval.Parse([]byte(t.Schema))
	if err != nil {
		return Definition{}, fmt.Errorf("tool %s: the effective schema is not valid JSON: %w", t.Name, err)
	}
	refuse := func(ptr, format string, args ...any) error {
		return &RefusedError{Provider: p, Tool: t.Name, Pointer: ptr, Reason: fmt.Sprintf(format, args...)}
	}
	switch p {
	case OpenAIChat, OpenAIResponses, Anthropic:
		if !openAIName.MatchString(t.Name) {
			return Definition{}, &RefusedError{Provider: p, Tool: t.Name, Name: true, Reason: fmt.Sprintf("the name does not match %s", openAIName)}
		}
	case Gemini, GeminiLegacy:
		if !geminiName.MatchString(t.Name) {
			return Definition{}, &RefusedError{Provider: p, Tool: t.Name, Name: true, Reason: fmt.Sprintf("the name does not match %s", geminiName)}
		}
	case MCP:
	default:
		return Definition{}, fmt.Errorf("unknown provider %q", p)
	}
	pr := &projection{provider: p, root: schema, refuse: refuse}
	def := Definition{Provider: p}
	var body *jsonval.Value
	switch p {
	case OpenAIChat, OpenAIResponses:
		body, err = pr.openAI(schema)
		def.NullAsAbsent = pr.nullAsAbsent
	case Anthropic:
		body, err = pr.anthropic(schema)
	case Gemini:
		body, err = pr.gemini(schema)
	case GeminiLegacy:
		body, err = pr.geminiLegacy(schema, "", nil)
	case MCP:
		body = schema
	}
	if err != nil {
		return Definition{}, err
	}
	def.Local = pr.local
	desc := t.Description
	if len(def.Local) > 0 {
		desc = describeLocal(desc, def.Local)
	}
	def.JSON = string(envelope(p, t, desc, body, pr.strict).Marshal())
	return def, nil
}

// describeLocal appends the rules a provider's schema cannot carry to the
// tool description, so that the model learns them anyway.
func describeLocal(desc string, local []Local) string {
	rules := make([]string, len(local))
	for i, l := range local {
		rules[i] = l.String()
	}
	note := "Also checked when the tool runs (not expressible in this schema): " + strings.Join(rules, "; ") + "."
	if desc == "" {
		return note
	}
	return desc + "\n\n" + note
}

func str(s string) *jsonval.Value { return &jsonval.Value{Kind: jsonval.String, Str: s} }

func boolean(b bool) *jsonval.Value { return &jsonval.Value{Kind: jsonval.Bool, Bool: b} }

func object(members ...jsonval.Member) *jsonval.Value {
	return &jsonval.Value{Kind: jsonval.Object, Members: members}
}

// envelope wraps a projected schema in the provider's tool object.
func envelope(p Provider, t Tool, desc string, schema *jsonval.Value, strict bool) *jsonval.Value {
	switch p {
	case OpenAIChat:
		fn := object(jsonval.Member{Key: "name", Value: str(t.Name)}, jsonval.Member{Key: "description", Value: str(desc)},
			jsonval.Member{Key: "parameters", Value: schema}, jsonval.Member{Key: "strict", Value: boolean(true)})
		return object(jsonval.Member{Key: "type", Value: str("function")}, jsonval.Member{Key: "function", Value: fn})
	case OpenAIResponses:
		return object(jsonval.Member{Key: "type", Value: str("function")}, jsonval.Member{Key: "name", Value: str(t.Name)},
			jsonval.Member{Key: "description", Value: str(desc)}, jsonval.Member{Key: "parameters", Value: schema},
			jsonval.Member{Key: "strict", Value: boolean(true)})
	case Anthropic:
		v := object(jsonval.Member{Key: "name", Value: str(t.Name)}, jsonval.Member{Key: "description", Value: str(desc)},
			jsonval.Member{Key: "input_schema", Value: schema})
		if strict {
			v.Set("strict", boolean(true))
		}
		return v
	case Gemini:
		return object(jsonval.Member{Key: "name", Value: str(t.Name)}, jsonval.Member{Key: "description", Value: str(desc)},
			jsonval.Member{Key: "parametersJsonSchema", Value: schema})
	case GeminiLegacy:
		return object(jsonval.Member{Key: "name", Value: str(t.Name)}, jsonval.Member{Key: "description", Value: str(desc)},
			jsonval.Member{Key: "parameters", Value: schema})
	}
	v := object(jsonval.Member{Key: "name", Value: str(t.Name)})
	extra, _ := jsonval.Parse([]byte(t.MCP))
	if title := extra.Get("title"); title != nil {
		v.Set("title", title)
	}
	if desc != "" {
		v.Set("description", str(desc))
	}
	v.Set("inputSchema", schema)
	if extra != nil {
		for _, m := range extra.Members {
			switch m.Key {
			case "title":
			case "name", "description", "inputSchema":
				// Derived from the canonical tool; extras never override
				// what the gate enforces or the name it resolves.
			default:
				v.Set(m.Key, m.Value)
			}
		}
	}
	return v
}

// projection is the state of one projection.
type projection struct {
	provider     Provider
	root         *jsonval.Value
	refuse       func(ptr, format string, args ...any) error
	local        []Local
	nullAsAbsent bool
	strict       bool
}

func (pr *projection) keep(ptr, kw string, v *jsonval.Value) {
	pr.local = append(pr.local, Local{Pointer: ptr, Keyword: kw, Value: string(v.Marshal())})
}

// annotation keywords carry no rule; providers that do not take them lose
// nothing the gate enforces.
var annotations = []string{"title", "description", "$comment", "examples", "deprecated", "readOnly", "writeOnly", "default", "$schema", "$id", "$anchor", "contentMediaType", "contentEncoding", "contentSchema"}

// walkChildren calls f on every subschema of s: the values of properties,
// $defs, definitions, items, prefixItems, additionalProperties and
// additionalItems.
func walkChildren(s *jsonval.Value, ptr string, f func(child *jsonval.Value, ptr string) error) error {
	for _, m := range s.Members {
		at := ptr + "/" + jsonval.EscapeToken(m.Key)
		switch m.Key {
		case "properties", "$defs", "definitions":
			for _, c := range m.Value.Members {
				if err := f(c.Value, at+"/"+jsonval.EscapeToken(c.Key)); err != nil {
					return err
				}
			}
		case "items", "additionalProperties", "additionalItems":
			if m.Value.Kind == jsonval.Array {
				for i, c := range m.Value.Items {
					if err := f(c, at+"/"+strconv.Itoa(i)); err != nil {
						return err
					}
				}
			} else if m.Value.Kind == jsonval.Object {
				if err := f(m.Value, at); err != nil {
					return err
				}
			}
		case "prefixItems":
			for i, c := range m.Value.Items {
				if err := f(c, at+"/"+strconv.Itoa(i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// TypeNames returns the type names of a schema's type keyword: none, one,
// or the list.
func TypeNames(s *jsonval.Value) []string {
	t := s.Get("type")
	switch {
	case t == nil:
		return nil
	case t.Kind == jsonval.String:
		return []string{t.Str}
	}
	var out []string
	for _, it := range t.Items {
		out = append(out, it.Str)
	}
	return out
}

// inferType gives a schema without a type keyword the type its enum or
// const implies, when all their values are of one JSON type (with null
// allowed beside it): {"const": "fast"} is {"type": "string", "const":
// "fast"}. That changes nothing that is accepted.
func inferType(s *jsonval.Value) {
	if s.Kind != jsonval.Object || s.Has("type") {
		return
	}
	var vals []*jsonval.Value
	if c := s.Get("const"); c != nil {
		vals = []*jsonval.Value{c}
	} else if e := s.Get("enum"); e != nil {
		vals = e.Items
	}
	var names []string
	for _, v := range vals {
		name := v.Kind.String()
		if v.Kind == jsonval.Number {
			name = "number"
			if _, err := strconv.ParseInt(v.Str, 10, 64); err == nil {
				name = "integer"
			}
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if slices.Contains(names, "integer") && slices.Contains(names, "number") {
		names = slices.DeleteFunc(names, func(n string) bool { return n == "integer" })
	}
	nonNull := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "null" })
	switch {
	case len(nonNull) != 1:
		return
	case len(names) == 1:
		s.Members = append([]jsonval.Member{{Key: "type", Value: str(names[0])}}, s.Members...)
	default:
		t := &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{str(nonNull[0]), str("null")}}
		s.Members = append([]jsonval.Member{{Key: "type", Value: t}}, s.Members...)
	}
}

// isNullable reports whether s accepts null by its type or enum, following
// local references (a member that is a $ref to a nullable definition is
// nullable).
func (pr *projection) isNullable(s *jsonval.Value) bool {
	s, ok := pr.deref(s)
	return ok && isNullable(s)
}

// deref follows local references from s to a schema without $ref; ok is
// false for an unresolvable or circular chain.
func (pr *projection) deref(s *jsonval.Value) (*jsonval.Value, bool) {
	var seen []string
	for s != nil && s.Kind == jsonval.Object && s.Has("$ref") {
		t, ptr, ok := jsonval.ResolveRef(pr.root, s.Get("$ref").Str)
		if !ok || slices.Contains(seen, ptr) {
			return nil, false
		}
		seen = append(seen, ptr)
		s = t
	}
	return s, s != nil
}

func isNullable(s *jsonval.Value) bool {
	if slices.Contains(TypeNames(s), "null") {
		return true
	}
	if e := s.Get("enum"); e != nil && s.Get("type") == nil {
		for _, v := range e.Items {
			if v.Kind == jsonval.Null {
				return true
			}
		}
	}
	return false
}

// carry keeps the keywords a provider takes (and the formats it knows),
// drops annotations and extensions, which carry no rule, and moves every
// other keyword to the enforced-locally list.
func (pr *projection) carry(s *jsonval.Value, ptr string, keywords map[string]bool, formats []string) {
	for _, m := range slices.Clone(s.Members) {
		switch {
		case m.Key == "format" && !slices.Contains(formats, m.Value.Str):
			pr.keep(ptr, m.Key, m.Value)
			s.Delete(m.Key)
		case keywords[m.Key]:
		case slices.Contains(annotations, m.Key) || strings.HasPrefix(m.Key, "x-"):
			s.Delete(m.Key)
		default:
			pr.keep(ptr, m.Key, m.Value)
			s.Delete(m.Key)
		}
	}
}

// ---- OpenAI strict ----

var openAIKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"enum": true, "const": true, "items": true, "$ref": true, "$defs": true, "description": true,
	"pattern": true, "format": true, "minimum": true, "maximum": true, "exclusiveMinimum": true,
	"exclusiveMaximum": true, "multipleOf": true, "minItems": true, "maxItems": true, "anyOf": true,
}

var openAIFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

const openAIMaxDepth = 10

func (pr *projection) openAI(schema *jsonval.Value) (*jsonval.Value, error) {
	if !slices.Equal(TypeNames(schema), []string{"object"}) {
		return nil, pr.refuse("", "the root must be a plain object schema")
	}
	out := schema.Clone()
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
	ts := TypeNames(s)
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
		if m.Key == "$ref" || m.Key == "description" || slices.Contains(annotations, m.Key) || strings.HasPrefix(m.Key, "x-") {
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
	out := s.Clone()
	inferType(out)
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
		t.Items = append(t.Items, str("null"))
	}
	if e := out.Get("enum"); e != nil {
		e.Items = append(e.Items, &jsonval.Value{Kind: jsonval.Null})
	}
	return out, nil
}

// ---- Anthropic ----

// anthropicLocal are the keywords Anthropic's strict mode does not take.
var anthropicLocal = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "maxItems", "uniqueItems"}

func (pr *projection) anthropic(schema *jsonval.Value) (*jsonval.Value, error) {
	if !pr.closedAndFinite(schema) {
		return schema, nil
	}
	pr.strict = true
	out := schema.Clone()
	var strip func(s *jsonval.Value, ptr string) error
	strip = func(s *jsonval.Value, ptr string) error {
		for _, m := range slices.Clone(s.Members) {
			drop := slices.Contains(anthropicLocal, m.Key)
			if m.Key == "minItems" {
				n, err := strconv.Atoi(m.Value.Str)
				drop = err != nil || n > 1
			}
			if drop {
				pr.keep(ptr, m.Key, m.Value)
				s.Delete(m.Key)
			}
		}
		return walkChildren(s, ptr, strip)
	}
	return out, strip(out, "")
}

// closedAndFinite reports whether every object schema is closed and no
// $ref recurses: what strict modes require.
func (pr *projection) closedAndFinite(schema *jsonval.Value) bool {
	ok := true
	var visit func(s *jsonval.Value, ptr string, refs []string) error
	visit = func(s *jsonval.Value, ptr string, refs []string) error {
		if s.Kind != jsonval.Object {
			return nil
		}
		if slices.Contains(TypeNames(s), "object") || s.Has("properties") {
			if a := s.Get("additionalProperties"); a == nil || !(a.Kind == jsonval.Bool && !a.Bool) {
				ok = false
			}
		}
		if len(TypeNames(s)) == 0 && !s.Has("$ref") && !s.Has("enum") && !s.Has("const") && !s.Has("anyOf") && !s.Has("allOf") {
			ok = false // an untyped value
		}
		if slices.ContainsFunc(anthropicNotStrict, s.Has) {
			ok = false // beyond the strict subset
		}
		for _, kw := range []string{"anyOf", "allOf"} {
			for i, alt := range itemsOf(s.Get(kw)) {
				_ = visit(alt, ptr+"/"+kw+"/"+strconv.Itoa(i), refs)
			}
		}
		if r := s.Get("$ref"); r != nil {
			t, target, found := jsonval.ResolveRef(pr.root, r.Str)
			if !found {
				ok = false // what it refers to is unknown
				return nil
			}
			if slices.Contains(refs, target) {
				ok = false
				return nil
			}
			return visit(t, target, append(refs, target))
		}
		return walkChildren(s, ptr, func(c *jsonval.Value, at string) error { return visit(c, at, refs) })
	}
	_ = visit(schema, "", nil)
	return ok
}

// ---- Gemini ----

var geminiKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"enum": true, "items": true, "prefixItems": true, "minItems": true, "maxItems": true,
	"minimum": true, "maximum": true, "$ref": true, "$defs": true, "format": true,
	"title": true, "description": true, "anyOf": true,
}

var geminiFormats = []string{"date-time", "date", "time"}

func (pr *projection) gemini(schema *jsonval.Value) (*jsonval.Value, error) {
	out := schema.Clone()
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

// geminiLegacy projects onto the OpenAPI 3.0 subset of Gemini's legacy
// parameters field, inlining references (refs holds those being inlined, to
// refuse recursion).
func (pr *projection) geminiLegacy(s *jsonval.Value, ptr string, refs []string) (*jsonval.Value, error) {
	if s.Kind == jsonval.Bool {
		return nil, pr.refuse(ptr, "a boolean schema cannot be expressed in the OpenAPI subset")
	}
	if r := s.Get("$ref"); r != nil {
		t, target, ok := jsonval.ResolveRef(pr.root, r.Str)
		if !ok {
			return nil, pr.refuse(ptr, "unresolvable reference %s", r.Str)
		}
		if slices.Contains(refs, target) {
			return nil, pr.refuse(ptr, "a recursive schema cannot be inlined into the OpenAPI subset")
		}
		return pr.geminiLegacy(t, target, append(refs, target))
	}
	if err := pr.refuseShaping(s, ptr, nil); err != nil {
		return nil, err
	}
	s = s.Clone()
	inferType(s)
	ts := TypeNames(s)
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
		switch m.Key {
		case "type", "$defs", "definitions", "title", "$comment", "examples", "deprecated", "readOnly", "writeOnly", "default", "$schema", "$id":
		case "description", "minItems", "maxItems", "minimum", "maximum", "minLength", "maxLength", "pattern", "required":
			out.Set(m.Key, m.Value)
		case "format":
			if typ == "string" && m.Value.Str == "date-time" {
				out.Set("format", m.Value)
			} else {
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
				p, err := pr.geminiLegacy(c.Value, at+"/"+jsonval.EscapeToken(c.Key), refs)
				if err != nil {
					return nil, err
				}
				props.Set(c.Key, p)
				order.Items = append(order.Items, str(c.Key))
			}
			out.Set("properties", props)
			out.Set("propertyOrdering", order)
		case "items":
			it, err := pr.geminiLegacy(m.Value, at, refs)
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
