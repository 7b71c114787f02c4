package schema

import "github.com/toolgate/toolgate/runtime/jsonval"

// Free-form objects. An object schema that declares no members at all
// ({"type": "object"}, or with "properties": {}) says only "an object".
// Closed by default it could only mean "accept {}", which no author means:
// such an object is a free-form map instead, and the effective schema says
// so with "additionalProperties": true. The root of the parameters is not
// one: a tool whose parameters declare no members takes no arguments (the
// root of a result is, ClosedResult).

// memberKeywords are the keywords by which an object schema declares its
// members or composes its value with other schemas: a rule of free-form
// maps rather than a column of the keyword table (minProperties bounds the
// members of a free-form map without declaring any).
var memberKeywords = []string{
	"additionalProperties", "patternProperties", "propertyNames", "required",
	"unevaluatedProperties", "dependentRequired", "dependentSchemas", "dependencies",
	"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref",
}

// DeclaresNoMembers reports whether s describes objects and declares no
// members at all: no properties (or an empty properties), no
// patternProperties, additionalProperties, propertyNames or required, and
// no composition. Below the root such an object is a free-form map.
func DeclaresNoMembers(s *jsonval.Value) bool {
	if s.Kind != jsonval.Object || !isObjectSchema(s) {
		return false
	}
	if p := s.Get("properties"); p != nil && (p.Kind != jsonval.Object || len(p.Members) > 0) {
		return false
	}
	for _, kw := range memberKeywords {
		if s.Has(kw) {
			return false
		}
	}
	return true
}
