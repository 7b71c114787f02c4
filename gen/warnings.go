package gen

import "fmt"

// The kinds of generation warning: what the generator accepts although the
// tool file is not quite right, and does differently from what the file
// seems to ask. Each is also a lint rule of the same ID, for teams that
// want it to fail CI (toolgate lint --fail-on).
const (
	// WarnDefaultInvalid: a default its own schema rejects. It is never
	// applied (no …OrDefault accessor is generated for it); the decoder
	// never fills in defaults anyway.
	WarnDefaultInvalid = "default-invalid"
	// WarnFormatUnknown: a format toolgate does not know. It is an
	// annotation, as JSON Schema 2020-12 has it: not enforced.
	WarnFormatUnknown = "format-unknown"
	// WarnRootType: a root schema with properties but no "type": "object",
	// read as an object, as MCP clients read it.
	WarnRootType = "root-type-implied"
	// WarnNeverValid: an optional member no value satisfies (BFCL's
	// {"type": "boolean", "enum": ["True", "False", "dontcare"]}: enum
	// values of another type). The member can only be left out; its
	// field's doc says so. Required, it is a generation error: the object
	// would accept nothing.
	WarnNeverValid = "never-valid"
)

// Warning is something the generator accepts with a caveat: the tool is
// generated, and the warning says what it does instead of what the file
// seems to ask.
type Warning struct {
	// Kind is one of the Warn… constants.
	Kind string
	// File and Pointer locate the JSON the warning is about.
	File, Pointer string
	Tool          string
	Message       string
}

// String renders "file#pointer: kind: message", escaped as an Error is.
func (w Warning) String() string {
	return (&Error{File: w.File, Pointer: w.Pointer, Keyword: w.Kind, Message: w.Message}).Error()
}

// warn records a warning about the schema at ptr.
func (b *builder) warn(kind, ptr, format string, args ...any) {
	b.warns = append(b.warns, Warning{Kind: kind, File: b.tool.File, Pointer: b.tool.Pointer + "/" + b.key() + ptr, Tool: b.tool.Name, Message: fmt.Sprintf(format, args...)})
}

// Warnings returns the generation warnings of t analysed under opts (what
// Generate hands to Options.Warn for it), or the error that refuses it.
func Warnings(t *Tool, opts Options) ([]Warning, error) {
	return Analyze([]*Tool{t}, opts).Warnings(t)
}

// Warnings is the function Warnings for t, one of the Set's tools, read
// from the Set's analysis.
func (s *Set) Warnings(t *Tool) ([]Warning, error) {
	tm, err := s.exportModel(t)
	if err != nil {
		return nil, located(err)
	}
	return tm.warnings, nil
}
