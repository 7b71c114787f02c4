// Package schema is toolgate's one home for the JSON Schema vocabulary:
// which keywords there are, what each one is, where its subschemas sit,
// and the effective schema that toolgate enforces. The generator (its
// keyword checks, meta-schema precheck, reference index and did-you-mean),
// the provider projections, the contract test, the lint, schemadiff and
// the call recorder read the vocabulary from here.
//
// # The keyword table
//
// Every keyword toolgate knows of, in JSON Schema 2020-12 and draft-07
// (and the few of other drafts that santhosh-tekuri/jsonschema reads), has
// one row in the table (keywords.go). Lookup returns it by name:
//
//	k, ok := schema.Lookup("minItems")
//	// k.Class == schema.Assertion, k.Drafts == schema.Draft2020|schema.Draft7,
//	// k.Of == schema.OfArray, k.Bound == schema.Lower, k.Value == schema.CountValue,
//	// k.Measure == schema.ItemCount, k.Enforced == schema.Direct
//
// A row says
//   - Class: what the keyword is. An Assertion can make a value invalid, an
//     Applicator holds subschemas applied to the value or to its members
//     and items, an Annotation never makes a value invalid, an Identifier
//     names a schema or its dialect, a Reference points at another schema,
//     and Definitions holds schemas that apply only where referred to.
//   - Drafts: the drafts that define it (Draft2020, Draft7).
//   - Form and Applies: for a keyword that holds subschemas, whether it
//     holds one, a list or a map of them (or, for items, one or a list), and
//     which value they apply to: the schema's own value (SameValue), its
//     members or items (Members), its member names (Names), or none until a
//     reference names them (Nowhere).
//   - Shapes and Composes: whether the keyword declares the members or
//     items of a value by itself (properties, items, required, $ref, …), or
//     adds to or chooses the value's shape through its subschemas (allOf,
//     anyOf, oneOf, if/then/else, dependentSchemas). A provider that drops
//     such a keyword changes what the model is asked for, not only how
//     strictly a rule is checked.
//   - Value: what the keyword's value must be, per the draft's meta-schema
//     (ValueIn gives draft-07's where it differs).
//   - Of and Bound: the type of the values it constrains (OfString, …) and
//     whether it is a lower or an upper bound; Pair is the other bound of
//     the same measure, Measure what it measures (a number's magnitude, a
//     string's length, an array's items, an object's members, contains's
//     matches) and Exclusive whether the bound itself is outside.
//     BoundOf returns the inclusive bound of a measure. The contract test
//     checks every bound, the catalog labels them and the violation
//     messages of lengths and counts are keyed by them from these columns.
//   - Subsets: the provider subsets (Anthropic's strict mode, Gemini's
//     OpenAPI 3.0 subset) that take an assertion or a composition
//     applicator as it is written (Takes); runtime/provider drops the
//     others, or sends the tool not strict, from this column.
//   - Enforced: how toolgate's generated code enforces it: Direct, by the
//     plain decoder of a value; Composed, by the composition path (see
//     gen/COMPOSITION.md); or NotEnforced.
//
// Adding a keyword means adding its row here, its emitter in gen and its
// runtime check; what walks subschemas with Walk, or sorts keywords by a
// column (the meta-schema precheck, did-you-mean, provider projections,
// the contract test's bound check, the catalog's labels), follows the
// table. A few walks stay deliberately narrower and
// say why where they are: the provider projections' (walkChildren), and
// gen's list of the keywords whose subschemas santhosh-tekuri/jsonschema
// compiles with a fresh $ref stack (stackResetting).
//
// # Walking subschemas
//
// Walk calls a function on each subschema that a schema holds directly,
// with its JSON pointer and its keyword's row, at every applicator
// location of the table. Callers recurse by calling Walk again, and pick
// the locations they need by the row (k.Applies == schema.SameValue, …).
//
// # The effective schema
//
// Effective returns the schema that toolgate enforces for a canonical
// parameters schema: every object a value may be is closed at every depth
// (Closed, closure.go), an object below the root that declares no members
// is a free-form map (DeclaresNoMembers, freeform.go), and extension
// members ("x-…") are removed. EffectiveResult and ClosedResult do the same
// for a tool's result. It is embedded in generated code, projected for each
// provider (runtime/provider) and tested against (runtime/contract).
//
// The package depends only on runtime/jsonval.
package schema
