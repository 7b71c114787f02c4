package schema

// Class is what a keyword is.
type Class uint8

// The classes of keywords.
const (
	Assertion   Class = iota + 1 // can make a value invalid
	Applicator                   // holds subschemas applied to the value or to its members
	Annotation                   // never makes a value invalid
	Identifier                   // names a schema, an anchor or the dialect
	Reference                    // points at another schema
	Definitions                  // holds schemas that apply only where referred to
)

// Draft is a set of JSON Schema drafts.
type Draft uint8

// The drafts toolgate reads. A keyword of none of them (Drafts == 0) is one
// santhosh-tekuri/jsonschema reads in another draft.
const (
	Draft2020 Draft = 1 << iota // JSON Schema 2020-12
	Draft7                      // JSON Schema draft-07
)

// Form is how a keyword holds its subschemas.
type Form uint8

// The forms of subschemas.
const (
	NoSubschema Form = iota
	One              // one schema
	List             // a list of schemas
	Map              // a map of names to schemas
	OneOrList        // one schema or, in draft-07, a list (items)
)

// Applies is the value that a keyword's subschemas apply to.
type Applies uint8

// The values subschemas apply to.
const (
	NoValue   Applies = iota // no subschemas
	SameValue                // the schema's own value (allOf, not, if, …)
	Members                  // the value's members or items (properties, items, …)
	Names                    // the value's member names (propertyNames)
	Nowhere                  // none until a reference names them ($defs)
)

// Enforcement is how toolgate's generated code enforces a keyword.
type Enforcement uint8

// The ways a keyword is enforced.
const (
	NotEnforced Enforcement = iota
	Direct                  // by the plain decoder of a value
	Composed                // by the composition path (gen/COMPOSITION.md)
)

// Value is what a keyword's value must be, per a draft's meta-schema.
type Value uint8

// The values of keywords.
const (
	AnyValue          Value = iota + 1 // any JSON value
	StringValue                        // a string
	BoolValue                          // a boolean
	NumberValue                        // a number
	PositiveValue                      // a number greater than 0
	CountValue                         // a non-negative integer
	ArrayValue                         // an array
	UniqueArrayValue                   // a non-empty array of unique items (draft-07 enum)
	PatternValue                       // a regular expression
	TypesValue                         // a simple type or a non-empty array of unique ones
	StringsValue                       // an array of unique strings
	SchemaValue                        // a schema
	SchemasValue                       // a non-empty array of schemas
	SchemaOrListValue                  // a schema or a non-empty array of them (draft-07 items)
	SchemaMapValue                     // an object of schemas
	PatternMapValue                    // an object of schemas keyed by regular expressions
	StringsMapValue                    // an object of string arrays
	DependenciesValue                  // an object of schemas or string arrays (draft-07)
	RefValue                           // a URI reference ($ref)
	DialectValue                       // a dialect's URI ($schema)
)

// Of is the type of JSON value a keyword constrains.
type Of uint8

// The types a keyword may constrain; a keyword of another type's values
// says nothing of a value of this one.
const (
	OfAny Of = iota
	OfString
	OfNumber // numbers and integers
	OfArray
	OfObject
)

// Bound is the direction of a bound.
type Bound uint8

// The directions of bounds.
const (
	NoBound Bound = iota
	Lower
	Upper
)

// Measure is what a bound or a multipleOf measures of a value.
type Measure uint8

// The measures.
const (
	NoMeasure   Measure = iota
	Magnitude           // the number itself
	Length              // a string's length in code points
	ItemCount           // the number of an array's items
	MemberCount         // the number of an object's members
	MatchCount          // the number of an array's items that contains matches
)

// Subset is a set of the providers' strict or legacy schema subsets
// (runtime/provider).
type Subset uint8

// The subsets that take some of the assertions as JSON Schema writes them.
const (
	AnthropicStrict Subset = 1 << iota // Anthropic's strict tool use
	GeminiLegacy                       // Gemini's OpenAPI 3.0 subset of parameters
)

// Keyword is one row of the vocabulary.
type Keyword struct {
	Name    string
	Class   Class
	Drafts  Draft
	Form    Form
	Applies Applies
	// Shapes: the keyword declares the members or items of a value by
	// itself.
	Shapes bool
	// Composes: an applicator whose subschemas add to or choose the shape
	// of the value itself.
	Composes bool
	Enforced Enforcement
	// Value is what the keyword's value must be, per the meta-schema of
	// the drafts that define it, and Value7 what draft-07's asks when it
	// differs. Both are zero for the keywords that toolgate's quick
	// meta-schema check leaves to the full check: identifiers other than
	// $schema, and dynamic and recursive references.
	Value, Value7 Value
	// Of is the type of the values the keyword constrains, or OfAny when
	// it applies to values of every type.
	Of Of
	// Bound says whether the keyword is a lower or an upper bound of a
	// number, a length or a count.
	Bound Bound
	// Pair is the other bound of the same measure (maxItems for
	// minItems).
	Pair string
	// Measure is what the bound (or multipleOf) measures of the value,
	// and Exclusive says whether the bound itself is outside it.
	Measure   Measure
	Exclusive bool
	// Subsets are the provider subsets that take the assertion, or the
	// applicator of the composition path, as it is written. A projection
	// to another subset drops such an assertion, which the gate then
	// enforces locally, and does not send a strict schema with such an
	// applicator. Zero for the other keywords (a projection decides those
	// by their class and shape).
	Subsets Subset
}

// ValueIn returns what the keyword's value must be in draft d.
func (k Keyword) ValueIn(d Draft) Value {
	if d == Draft7 && k.Value7 != 0 {
		return k.Value7
	}
	return k.Value
}

// CarriesNoRule reports whether the keyword never makes a value invalid
// and names nothing another keyword needs: an annotation or an
// identifier. A provider that drops it loses nothing the gate enforces.
func (k Keyword) CarriesNoRule() bool { return k.Class == Annotation || k.Class == Identifier }

const both = Draft2020 | Draft7

var table = []Keyword{
	// Identifiers, references and definitions.
	{Name: "$schema", Class: Identifier, Drafts: both, Value: DialectValue},
	{Name: "$id", Class: Identifier, Drafts: both},
	{Name: "id", Class: Identifier},
	{Name: "$anchor", Class: Identifier, Drafts: Draft2020},
	{Name: "$dynamicAnchor", Class: Identifier, Drafts: Draft2020},
	{Name: "$recursiveAnchor", Class: Identifier},
	{Name: "$vocabulary", Class: Identifier, Drafts: Draft2020},
	{Name: "$ref", Class: Reference, Drafts: both, Shapes: true, Enforced: Direct, Value: RefValue},
	{Name: "$dynamicRef", Class: Reference, Drafts: Draft2020},
	{Name: "$recursiveRef", Class: Reference},
	{Name: "$defs", Class: Definitions, Drafts: Draft2020, Form: Map, Applies: Nowhere, Enforced: Direct, Value: SchemaMapValue},
	{Name: "definitions", Class: Definitions, Drafts: Draft7, Form: Map, Applies: Nowhere, Enforced: Direct, Value: SchemaMapValue},

	// Applicators to the value itself.
	{Name: "allOf", Class: Applicator, Drafts: both, Form: List, Applies: SameValue, Composes: true, Enforced: Composed, Value: SchemasValue, Subsets: AnthropicStrict},
	{Name: "anyOf", Class: Applicator, Drafts: both, Form: List, Applies: SameValue, Composes: true, Enforced: Composed, Value: SchemasValue, Subsets: AnthropicStrict},
	{Name: "oneOf", Class: Applicator, Drafts: both, Form: List, Applies: SameValue, Composes: true, Enforced: Composed, Value: SchemasValue},
	{Name: "not", Class: Applicator, Drafts: both, Form: One, Applies: SameValue, Enforced: Composed, Value: SchemaValue},
	{Name: "if", Class: Applicator, Drafts: both, Form: One, Applies: SameValue, Composes: true, Enforced: Composed, Value: SchemaValue},
	{Name: "then", Class: Applicator, Drafts: both, Form: One, Applies: SameValue, Composes: true, Enforced: Composed, Value: SchemaValue},
	{Name: "else", Class: Applicator, Drafts: both, Form: One, Applies: SameValue, Composes: true, Enforced: Composed, Value: SchemaValue},
	{Name: "dependentSchemas", Class: Applicator, Drafts: Draft2020, Form: Map, Applies: SameValue, Composes: true, Enforced: Composed, Value: SchemaMapValue, Of: OfObject},
	// dependencies: a map whose values are schemas or, in its other form,
	// lists of member names.
	{Name: "dependencies", Class: Applicator, Drafts: Draft7, Form: Map, Applies: SameValue, Value: DependenciesValue, Of: OfObject},

	// Applicators to members and items.
	{Name: "properties", Class: Applicator, Drafts: both, Form: Map, Applies: Members, Shapes: true, Enforced: Direct, Value: SchemaMapValue, Of: OfObject},
	{Name: "patternProperties", Class: Applicator, Drafts: both, Form: Map, Applies: Members, Shapes: true, Enforced: Composed, Value: PatternMapValue, Of: OfObject},
	{Name: "additionalProperties", Class: Applicator, Drafts: both, Form: One, Applies: Members, Shapes: true, Enforced: Direct, Value: SchemaValue, Of: OfObject},
	{Name: "unevaluatedProperties", Class: Applicator, Drafts: Draft2020, Form: One, Applies: Members, Enforced: Composed, Value: SchemaValue, Of: OfObject},
	{Name: "propertyNames", Class: Applicator, Drafts: both, Form: One, Applies: Names, Enforced: Composed, Value: SchemaValue, Of: OfObject},
	{Name: "items", Class: Applicator, Drafts: both, Form: OneOrList, Applies: Members, Shapes: true, Enforced: Direct, Value: SchemaValue, Value7: SchemaOrListValue, Of: OfArray},
	{Name: "prefixItems", Class: Applicator, Drafts: Draft2020, Form: List, Applies: Members, Shapes: true, Enforced: Direct, Value: SchemasValue, Of: OfArray},
	{Name: "additionalItems", Class: Applicator, Drafts: Draft7, Form: One, Applies: Members, Value: SchemaValue, Of: OfArray},
	{Name: "unevaluatedItems", Class: Applicator, Drafts: Draft2020, Form: One, Applies: Members, Enforced: Composed, Value: SchemaValue, Of: OfArray},
	{Name: "contains", Class: Applicator, Drafts: both, Form: One, Applies: Members, Enforced: Composed, Value: SchemaValue, Of: OfArray},

	// Assertions.
	{Name: "type", Class: Assertion, Drafts: both, Enforced: Direct, Value: TypesValue, Subsets: AnthropicStrict},
	{Name: "enum", Class: Assertion, Drafts: both, Enforced: Direct, Value: ArrayValue, Value7: UniqueArrayValue, Subsets: AnthropicStrict},
	{Name: "const", Class: Assertion, Drafts: both, Enforced: Direct, Value: AnyValue, Subsets: AnthropicStrict},
	{Name: "minimum", Class: Assertion, Drafts: both, Enforced: Direct, Value: NumberValue, Of: OfNumber, Bound: Lower, Pair: "maximum", Measure: Magnitude, Subsets: GeminiLegacy},
	{Name: "exclusiveMinimum", Class: Assertion, Drafts: both, Enforced: Direct, Value: NumberValue, Of: OfNumber, Bound: Lower, Pair: "exclusiveMaximum", Measure: Magnitude, Exclusive: true},
	{Name: "maximum", Class: Assertion, Drafts: both, Enforced: Direct, Value: NumberValue, Of: OfNumber, Bound: Upper, Pair: "minimum", Measure: Magnitude, Subsets: GeminiLegacy},
	{Name: "exclusiveMaximum", Class: Assertion, Drafts: both, Enforced: Direct, Value: NumberValue, Of: OfNumber, Bound: Upper, Pair: "exclusiveMinimum", Measure: Magnitude, Exclusive: true},
	{Name: "multipleOf", Class: Assertion, Drafts: both, Enforced: Direct, Value: PositiveValue, Of: OfNumber, Measure: Magnitude},
	{Name: "minLength", Class: Assertion, Drafts: both, Enforced: Direct, Value: CountValue, Of: OfString, Bound: Lower, Pair: "maxLength", Measure: Length, Subsets: GeminiLegacy},
	{Name: "maxLength", Class: Assertion, Drafts: both, Enforced: Direct, Value: CountValue, Of: OfString, Bound: Upper, Pair: "minLength", Measure: Length, Subsets: GeminiLegacy},
	{Name: "pattern", Class: Assertion, Drafts: both, Enforced: Direct, Value: PatternValue, Of: OfString, Subsets: AnthropicStrict | GeminiLegacy},
	{Name: "format", Class: Assertion, Drafts: both, Enforced: Direct, Value: StringValue, Of: OfString, Subsets: AnthropicStrict},
	// Anthropic's strict mode takes a minItems of 0 or 1 only (see
	// runtime/provider).
	{Name: "minItems", Class: Assertion, Drafts: both, Enforced: Direct, Value: CountValue, Of: OfArray, Bound: Lower, Pair: "maxItems", Measure: ItemCount, Subsets: GeminiLegacy},
	{Name: "maxItems", Class: Assertion, Drafts: both, Enforced: Direct, Value: CountValue, Of: OfArray, Bound: Upper, Pair: "minItems", Measure: ItemCount, Subsets: GeminiLegacy},
	{Name: "uniqueItems", Class: Assertion, Drafts: both, Enforced: Direct, Value: BoolValue, Of: OfArray},
	{Name: "maxContains", Class: Assertion, Drafts: Draft2020, Enforced: Composed, Value: CountValue, Of: OfArray, Bound: Upper, Pair: "minContains", Measure: MatchCount},
	{Name: "minContains", Class: Assertion, Drafts: Draft2020, Enforced: Composed, Value: CountValue, Of: OfArray, Bound: Lower, Pair: "maxContains", Measure: MatchCount},
	{Name: "minProperties", Class: Assertion, Drafts: both, Enforced: Composed, Value: CountValue, Of: OfObject, Bound: Lower, Pair: "maxProperties", Measure: MemberCount},
	{Name: "maxProperties", Class: Assertion, Drafts: both, Enforced: Composed, Value: CountValue, Of: OfObject, Bound: Upper, Pair: "minProperties", Measure: MemberCount},
	{Name: "required", Class: Assertion, Drafts: both, Shapes: true, Enforced: Direct, Value: StringsValue, Of: OfObject, Subsets: AnthropicStrict | GeminiLegacy},
	{Name: "dependentRequired", Class: Assertion, Drafts: Draft2020, Enforced: Composed, Value: StringsMapValue, Of: OfObject},

	// Annotations. contentSchema holds a schema but is never applied, so
	// Walk does not visit it.
	{Name: "title", Class: Annotation, Drafts: both, Value: StringValue},
	{Name: "description", Class: Annotation, Drafts: both, Value: StringValue},
	{Name: "$comment", Class: Annotation, Drafts: both, Value: StringValue},
	{Name: "examples", Class: Annotation, Drafts: both, Value: ArrayValue},
	{Name: "default", Class: Annotation, Drafts: both, Value: AnyValue},
	{Name: "deprecated", Class: Annotation, Drafts: Draft2020, Value: BoolValue},
	{Name: "readOnly", Class: Annotation, Drafts: both, Value: BoolValue},
	{Name: "writeOnly", Class: Annotation, Drafts: both, Value: BoolValue},
	{Name: "contentMediaType", Class: Annotation, Drafts: both, Value: StringValue, Of: OfString},
	{Name: "contentEncoding", Class: Annotation, Drafts: both, Value: StringValue, Of: OfString},
	{Name: "contentSchema", Class: Annotation, Drafts: Draft2020, Value: SchemaValue, Of: OfString},
}

var byName = func() map[string]*Keyword {
	m := make(map[string]*Keyword, len(table))
	for i := range table {
		m[table[i].Name] = &table[i]
	}
	return m
}()

// Lookup returns the row of the keyword named name.
func Lookup(name string) (Keyword, bool) {
	k, ok := byName[name]
	if !ok {
		return Keyword{}, false
	}
	return *k, true
}

// Keywords returns every row of the table, in the table's order.
func Keywords() []Keyword { return append([]Keyword(nil), table...) }

// Is reports whether name is a keyword whose row satisfies f.
func Is(name string, f func(Keyword) bool) bool {
	k, ok := byName[name]
	return ok && f(*k)
}

// CountPairs returns the lower and upper bounds of the lengths and counts
// that f selects, as [lower, upper] pairs in the table's order.
func CountPairs(f func(Keyword) bool) [][2]string {
	var out [][2]string
	for _, k := range table {
		if k.Bound == Lower && k.Value == CountValue && f(k) {
			out = append(out, [2]string{k.Name, k.Pair})
		}
	}
	return out
}

// BoundOf returns the inclusive bound of measure m in direction b
// (minLength for Length and Lower).
func BoundOf(m Measure, b Bound) (Keyword, bool) {
	for _, k := range table {
		if b != NoBound && k.Measure == m && k.Bound == b && !k.Exclusive {
			return k, true
		}
	}
	return Keyword{}, false
}

// Takes reports whether the provider subset s takes the keyword named
// name as it is written (the Subsets column).
func Takes(s Subset, name string) bool {
	k, ok := byName[name]
	return ok && k.Subsets&s != 0
}
