package violation

import "github.com/toolgate/toolgate/runtime/schema"

// A Kind is a keyword and the template of its message.
type Kind uint8

// The kinds, named after their keyword or what they refuse (FloatMinimum
// and the like: a bound that a number's float64 breaks although its exact
// value keeps it).
const (
	Type Kind = iota
	Required
	Additional
	AdditionalNone
	Closed
	ClosedNone
	False
	Enum
	Const
	Minimum
	ExclusiveMinimum
	Maximum
	ExclusiveMaximum
	MultipleOf
	Pattern
	Format
	MinLength
	MaxLength
	MinItems
	MaxItems
	UniqueItems
	Integer
	IntRange
	Float
	FloatMinimum
	FloatExclusiveMinimum
	FloatMaximum
	FloatExclusiveMaximum
	AllOf
	AnyOf
	OneOf
	Not
	Then
	Else
	MinProperties
	MaxProperties
	DependentRequired
	DependentSchemas
	PropertyNames
	PatternProperties
	Contains
	MinContains
	MaxContains
	Ref
	Unevaluated
	UnevaluatedItems
	nKinds
)

// A form is how a message is built from its template.
type form uint8

const (
	// plain: "<subject><rule><arg><after>; received <got>", the last part
	// only when a value is shown.
	plain form = iota
	// required: "<subject>.<arg> is required", or "<arg> is required" at
	// the top level.
	required
	// typed: "<subject> must be a(n) <arg>; received <got>" (got is the
	// JSON kind received, as shown: "null", "a string").
	typed
	// counted: "<subject><rule><bound> <unit>(s)<after><n>[ <nUnit>(s)]",
	// the two numbers being varints in got.
	counted
	// unique: "<subject> must not contain duplicate items; items <i> and
	// <j> are equal", i and j being varints in got.
	unique
)

// A template is a kind's keyword and message.
type template struct {
	keyword     string
	form        form
	rule, after string
	unit, nUnit string // counted: the bound's unit and the received count's ("": bare)
}

// countWords are the words of the counted messages of a measure: the
// verb before the bound, the bound's unit, what follows it and the
// received count's unit.
var countWords = map[schema.Measure]struct{ verb, unit, after, nUnit string }{
	schema.Length:    {" must be ", "character", " long; received ", "character"},
	schema.ItemCount: {" must have ", "item", "; received ", ""},
}

// countedBound is the counted template of the bound of measure m in
// direction b, keyed by its keyword in runtime/schema's table.
func countedBound(m schema.Measure, b schema.Bound) template {
	k, _ := schema.BoundOf(m, b)
	w := countWords[m]
	dir := "at least "
	if b == schema.Upper {
		dir = "at most "
	}
	return template{keyword: k.Name, form: counted, rule: w.verb + dir, unit: w.unit, after: w.after, nUnit: w.nUnit}
}

// templates are the kinds' templates.
var templates = [nKinds]template{
	Type:                  {keyword: "type", form: typed},
	Required:              {keyword: "required", form: required},
	Additional:            {keyword: "additionalProperties", rule: " is not a known field; the fields are "},
	AdditionalNone:        {keyword: "additionalProperties", rule: " is not a known field; this object takes none"},
	Closed:                {keyword: "unevaluatedProperties", rule: " is not a known field; the fields are "},
	ClosedNone:            {keyword: "unevaluatedProperties", rule: " is not a known field; this object takes none"},
	False:                 {keyword: "false", rule: " is not allowed"},
	Enum:                  {keyword: "enum", rule: " must be one of "},
	Const:                 {keyword: "const", rule: " must be "},
	Minimum:               {keyword: "minimum", rule: " must be at least "},
	ExclusiveMinimum:      {keyword: "exclusiveMinimum", rule: " must be greater than "},
	Maximum:               {keyword: "maximum", rule: " must be at most "},
	ExclusiveMaximum:      {keyword: "exclusiveMaximum", rule: " must be less than "},
	MultipleOf:            {keyword: "multipleOf", rule: " must be a multiple of "},
	Pattern:               {keyword: "pattern", rule: " must match the pattern "},
	Format:                {keyword: "format", rule: " must be a valid "},
	MinLength:             countedBound(schema.Length, schema.Lower),
	MaxLength:             countedBound(schema.Length, schema.Upper),
	MinItems:              countedBound(schema.ItemCount, schema.Lower),
	MaxItems:              countedBound(schema.ItemCount, schema.Upper),
	UniqueItems:           {keyword: "uniqueItems", form: unique},
	Integer:               {keyword: "type", rule: " must be an integer"},
	IntRange:              {keyword: "type", rule: " must be an integer between -9223372036854775808 and 9223372036854775807"},
	Float:                 {keyword: "type", rule: " must be a number within the 64-bit floating-point range"},
	FloatMinimum:          {keyword: "minimum", rule: " must be at least ", after: " also as a 64-bit floating-point number"},
	FloatExclusiveMinimum: {keyword: "exclusiveMinimum", rule: " must be greater than ", after: " also as a 64-bit floating-point number"},
	FloatMaximum:          {keyword: "maximum", rule: " must be at most ", after: " also as a 64-bit floating-point number"},
	FloatExclusiveMaximum: {keyword: "exclusiveMaximum", rule: " must be less than ", after: " also as a 64-bit floating-point number"},
	// The compositions' messages are their argument.
	AllOf:             {keyword: "allOf"},
	AnyOf:             {keyword: "anyOf"},
	OneOf:             {keyword: "oneOf"},
	Not:               {keyword: "not"},
	Then:              {keyword: "then"},
	Else:              {keyword: "else"},
	MinProperties:     {keyword: "minProperties"},
	MaxProperties:     {keyword: "maxProperties"},
	DependentRequired: {keyword: "dependentRequired"},
	DependentSchemas:  {keyword: "dependentSchemas"},
	PropertyNames:     {keyword: "propertyNames"},
	PatternProperties: {keyword: "patternProperties"},
	Contains:          {keyword: "contains"},
	MinContains:       {keyword: "minContains"},
	MaxContains:       {keyword: "maxContains"},
	Ref:               {keyword: "$ref"},
	Unevaluated:       {keyword: "unevaluatedProperties"},
	UnevaluatedItems:  {keyword: "unevaluatedItems"},
}
