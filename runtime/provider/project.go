package provider

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

var (
	openAIName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	geminiName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
)

// Project returns the definition of t for p, or a *RefusedError.
func Project(p Provider, t Tool) (Definition, error) {
	schema, err := ParseSchema(t)
	if err != nil {
		return Definition{}, err
	}
	return ProjectParsed(p, t, schema)
}

// ParseSchema parses t.Schema, for ProjectParsed.
func ParseSchema(t Tool) (*jsonval.Value, error) {
	schema, err := jsonval.Parse([]byte(t.Schema))
	if err != nil {
		return nil, fmt.Errorf("tool %s: the effective schema is not valid JSON: %w", t.Name, err)
	}
	return schema, nil
}

// ProjectParsed is Project with t.Schema parsed already (ParseSchema), so
// that a tool projected for several providers is parsed once. schema is
// not changed, and the definition shares none of it that a later
// projection changes.
func ProjectParsed(p Provider, t Tool, schema *jsonval.Value) (Definition, error) {
	return project(p, t, schema, true)
}

// Assess is ProjectParsed without the definition's JSON, which it leaves
// empty: whether p can carry t (else the same *RefusedError), the rules
// that stay local and NullAsAbsent, for a caller that does not send the
// definition and need not pay for marshalling it.
func Assess(p Provider, t Tool, schema *jsonval.Value) (Definition, error) {
	return project(p, t, schema, false)
}

// project is ProjectParsed, and Assess without withJSON.
func project(p Provider, t Tool, schema *jsonval.Value, withJSON bool) (Definition, error) {
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
	var err error
	switch p {
	case OpenAIChat, OpenAIResponses:
		body, err = pr.openAI(schema)
		def.NullAsAbsent = pr.nullAsAbsent
	case Anthropic:
		body, err = pr.anthropic(schema)
	case Gemini:
		body, err = pr.gemini(schema)
	case GeminiLegacy:
		body, err = pr.geminiLegacyInlined(schema)
	case MCP:
		body = schema
	}
	if err != nil {
		return Definition{}, err
	}
	def.Local = pr.local
	def.Unenforced = unenforced(schema)
	if !withJSON {
		return def, nil
	}
	desc := t.Description
	if len(def.Local) > 0 {
		desc = describeLocal(desc, def.Local)
	}
	// About the effective schema's length, and the envelope's: room enough
	// most of the time, without growing the buffer.
	size := len(t.Schema) + len(t.Schema)/4 + len(desc) + len(t.Name) + len(t.MCP) + 128
	def.JSON = string(envelope(p, t, desc, body, pr.strict).AppendJSON(make([]byte, 0, size)))
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
	hints(v, t)
	return v
}

// hints says in the annotations of t's MCP definition v that t is
// destructive, when it is: destructiveHint true, readOnlyHint false (MCP
// would ignore destructiveHint were it true) and idempotentHint false
// unless they say it is. The three are what MCP clients read (the go-sdk
// writes readOnlyHint and idempotentHint always), so the definition is
// what a client decodes.
func hints(v *jsonval.Value, t Tool) {
	if !t.Destructive {
		return
	}
	ann := v.Get("annotations")
	if ann == nil || ann.Kind != jsonval.Object {
		ann = object()
		v.Set("annotations", ann)
	}
	ann.Set("destructiveHint", boolean(true))
	ann.Set("readOnlyHint", boolean(false))
	if idem := ann.Get("idempotentHint"); idem == nil || idem.Kind != jsonval.Bool {
		ann.Set("idempotentHint", boolean(false))
	}
}
