package gen

import (
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Free-form objects. An object below the root that declares no members at
// all ({"type": "object"}, "properties": {}, no patternProperties,
// additionalProperties, propertyNames, required or composition) is a
// free-form map by intent: closing it could only mean "accept {}", which no
// author means. It takes any members and keeps each value as its validated
// raw JSON (map[string]json.RawMessage), so that what the decoder accepts
// reaches the executor whole; the effective schema says
// "additionalProperties": true (runtime/schema/freeform.go), and lint's
// object-free-form rule asks the author to describe or close it. An object
// whose value is fixed by const or enum is one too: its members are those
// of the value. The parameters' root is not: a tool whose parameters
// declare no members takes no arguments (a result's root is).

// freeFormKeywords are the keywords by which an object schema declares,
// bounds or composes its members; additionalProperties is read by
// fillObject itself.
var freeFormKeywords = []string{
	"patternProperties", "propertyNames", "required", "unevaluatedProperties",
	"dependentRequired", "dependentSchemas", "dependencies",
	"allOf", "anyOf", "oneOf", "not", "if", "then", "else",
}

// declaresMembers reports whether s declares or composes members beyond
// its properties.
func (b *builder) declaresMembers(s *jsonval.Value) bool {
	for _, kw := range freeFormKeywords {
		if s.Has(kw) {
			return true
		}
	}
	return false
}

// freeForm makes the object n, which declares no members, a map of raw
// JSON values.
func (b *builder) freeForm(n *node, ptr string) {
	n.freeForm = true
	n.addl, n.addlPtr = addlSchema, ptr+"/additionalProperties"
	n.addlNode = anyNode(n.addlPtr, n.name+"Value")
}

// anyNode is a node that takes any value and keeps it raw, at schema
// pointer ptr: the values of a free-form map, the undeclared members of an
// open struct, a merged member whose branches disagree.
func anyNode(ptr, name string) *node {
	return newNode(ptr, name, kindAny)
}
