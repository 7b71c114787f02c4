// Package provider derives, from a tool's effective schema
// (schema.Effective, in runtime/schema), the exact tool definition each
// model provider is sent: OpenAI Chat Completions and Responses (strict
// function tools), Anthropic Messages, Gemini function declarations
// (parametersJsonSchema, and the legacy OpenAPI subset) and MCP tools/list
// entries.
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
//	                                                 minimum, maximum, string lengths, pattern, format date-time,
//	                                                 propertyOrdering; no additionalProperties (closure is local), no
//	                                                 $ref (inlined, each definition projected once;
//	                                                 recursion, or an inlined schema of more than
//	                                                 65,536 values, is refused)
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
// (runtime/schema/closure.go), which no strict mode takes: its branches are open, so
// strict OpenAI refuses it and Anthropic sends it non-strict.
//
// OpenAI strict mode requires every property to be listed in required. An
// optional member that is not nullable is therefore sent as required and
// nullable (NullAsAbsent): a model on that dialect sends null to mean
// "absent", and the gate maps it back for those members only. An optional
// member that is already nullable stays as it is, and null from the model
// means null.
package provider

import "fmt"

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
	// Destructive marks a tool whose calls change state irreversibly
	// (x-toolgate destructive, or MCP's annotations.destructiveHint): the
	// MCP definition's annotations say destructiveHint true, readOnlyHint
	// false and idempotentHint as MCP's annotations say (false when they
	// do not), beside MCP's other annotations.
	Destructive bool
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
	// Unenforced lists the keywords of the effective schema that are
	// annotations to the gate, though they read like rules (a format it
	// does not know): nobody checks them. The definition's schema keeps
	// them where the provider takes them.
	Unenforced []Local
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
