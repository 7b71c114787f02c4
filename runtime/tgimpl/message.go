package tgimpl

import (
	"encoding/binary"
	"strconv"
	"strings"
	"unsafe"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Rendering. The records of a refusal become toolerr.Violations when the
// error's violations are first read: each pointer and message is written
// from the record's kind, its argument and its copies, exactly as it reads
// when rendered on the spot (TestLazyMatchesEager checks every kind).

// A kind is a keyword and the template of its message.
type kind uint8

// The kinds.
const (
	kType kind = iota
	kRequired
	kAdditional
	kAdditionalNone
	kClosed
	kClosedNone
	kFalse
	kEnum
	kConst
	kMinimum
	kExclusiveMinimum
	kMaximum
	kExclusiveMaximum
	kMultipleOf
	kPattern
	kFormat
	kMinLength
	kMaxLength
	kMinItems
	kMaxItems
	kUniqueItems
	kInteger
	kIntRange
	kFloat
	kFloatMinimum
	kFloatExclusiveMinimum
	kFloatMaximum
	kFloatExclusiveMaximum
	kAllOf
	kAnyOf
	kOneOf
	kNot
	kThen
	kElse
	kMinProperties
	kMaxProperties
	kDependentRequired
	kDependentSchemas
	kPropertyNames
	kPatternProperties
	kContains
	kMinContains
	kMaxContains
	kRef
	kUnevaluated
	kUnevaluatedItems
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

// templates are the kinds' templates.
var templates = [nKinds]template{
	kType:                  {keyword: "type", form: typed},
	kRequired:              {keyword: "required", form: required},
	kAdditional:            {keyword: "additionalProperties", rule: " is not a known field; the fields are "},
	kAdditionalNone:        {keyword: "additionalProperties", rule: " is not a known field; this object takes none"},
	kClosed:                {keyword: "unevaluatedProperties", rule: " is not a known field; the fields are "},
	kClosedNone:            {keyword: "unevaluatedProperties", rule: " is not a known field; this object takes none"},
	kFalse:                 {keyword: "false", rule: " is not allowed"},
	kEnum:                  {keyword: "enum", rule: " must be one of "},
	kConst:                 {keyword: "const", rule: " must be "},
	kMinimum:               {keyword: "minimum", rule: " must be at least "},
	kExclusiveMinimum:      {keyword: "exclusiveMinimum", rule: " must be greater than "},
	kMaximum:               {keyword: "maximum", rule: " must be at most "},
	kExclusiveMaximum:      {keyword: "exclusiveMaximum", rule: " must be less than "},
	kMultipleOf:            {keyword: "multipleOf", rule: " must be a multiple of "},
	kPattern:               {keyword: "pattern", rule: " must match the pattern "},
	kFormat:                {keyword: "format", rule: " must be a valid "},
	kMinLength:             {keyword: "minLength", form: counted, rule: " must be at least ", unit: "character", after: " long; received ", nUnit: "character"},
	kMaxLength:             {keyword: "maxLength", form: counted, rule: " must be at most ", unit: "character", after: " long; received ", nUnit: "character"},
	kMinItems:              {keyword: "minItems", form: counted, rule: " must have at least ", unit: "item", after: "; received "},
	kMaxItems:              {keyword: "maxItems", form: counted, rule: " must have at most ", unit: "item", after: "; received "},
	kUniqueItems:           {keyword: "uniqueItems", form: unique},
	kInteger:               {keyword: "type", rule: " must be an integer"},
	kIntRange:              {keyword: "type", rule: " must be an integer between -9223372036854775808 and 9223372036854775807"},
	kFloat:                 {keyword: "type", rule: " must be a number within the 64-bit floating-point range"},
	kFloatMinimum:          {keyword: "minimum", rule: " must be at least ", after: " also as a 64-bit floating-point number"},
	kFloatExclusiveMinimum: {keyword: "exclusiveMinimum", rule: " must be greater than ", after: " also as a 64-bit floating-point number"},
	kFloatMaximum:          {keyword: "maximum", rule: " must be at most ", after: " also as a 64-bit floating-point number"},
	kFloatExclusiveMaximum: {keyword: "exclusiveMaximum", rule: " must be less than ", after: " also as a 64-bit floating-point number"},
	// The compositions' messages are their argument.
	kAllOf:             {keyword: "allOf"},
	kAnyOf:             {keyword: "anyOf"},
	kOneOf:             {keyword: "oneOf"},
	kNot:               {keyword: "not"},
	kThen:              {keyword: "then"},
	kElse:              {keyword: "else"},
	kMinProperties:     {keyword: "minProperties"},
	kMaxProperties:     {keyword: "maxProperties"},
	kDependentRequired: {keyword: "dependentRequired"},
	kDependentSchemas:  {keyword: "dependentSchemas"},
	kPropertyNames:     {keyword: "propertyNames"},
	kPatternProperties: {keyword: "patternProperties"},
	kContains:          {keyword: "contains"},
	kMinContains:       {keyword: "minContains"},
	kMaxContains:       {keyword: "maxContains"},
	kRef:               {keyword: "$ref"},
	kUnevaluated:       {keyword: "unevaluatedProperties"},
	kUnevaluatedItems:  {keyword: "unevaluatedItems"},
}

// render writes the pointers and messages of the records, whose paths and
// values are in arena.
func render(records []record, arena []byte) []toolerr.Violation {
	size := 0
	for i := range records {
		rec := &records[i]
		size += 2*rec.pathLen() + rec.shownLen() + int(rec.argLen) + 64
	}
	// Every pointer and message views text, which is only ever appended
	// to: should it move as it grows, the strings already made keep
	// viewing the old block.
	text := make([]byte, 0, size)
	list := make([]toolerr.Violation, len(records))
	for i := range records {
		rec := &records[i]
		path := rec.path(arena)
		p := len(text)
		text = appendPointer(text, path)
		m := len(text)
		text = rec.appendMessage(text, path, rec.shown(arena))
		list[i] = toolerr.Violation{Keyword: templates[rec.kind()].keyword, InstancePath: viewOf(text, p, m), SchemaPath: rec.schemaPath(), Message: viewOf(text, m, len(text))}
	}
	return list
}

// viewOf returns b[from:to] as a string, without copying.
func viewOf(b []byte, from, to int) string {
	if from == to {
		return ""
	}
	return unsafe.String(&b[from], to-from)
}

// appendMessage appends the message of rec, whose path and shown value
// (or numbers) are given.
func (rec *record) appendMessage(b, path, got []byte) []byte {
	t := &templates[rec.kind()]
	start := len(b)
	b = appendSubject(b, path)
	if t.form == required {
		if len(b) > start {
			b = append(b, '.')
		}
		b = append(b, rec.argument()...)
		return append(b, " is required"...)
	}
	if len(b) == start {
		b = append(b, "the arguments"...)
	}
	switch t.form {
	case typed:
		b = append(b, " must be "...)
		b = appendArticle(b, rec.argument())
		b = append(b, "; received "...)
		return append(b, got...)
	case counted:
		bound, n1 := binary.Varint(got)
		n, _ := binary.Varint(got[n1:])
		b = append(b, t.rule...)
		b = appendPlural(b, int(bound), t.unit)
		b = append(b, t.after...)
		if t.nUnit == "" {
			return strconv.AppendInt(b, n, 10)
		}
		return appendPlural(b, int(n), t.nUnit)
	case unique:
		i, n1 := binary.Varint(got)
		j, _ := binary.Varint(got[n1:])
		b = append(b, " must not contain duplicate items; items "...)
		b = strconv.AppendInt(b, i, 10)
		b = append(b, " and "...)
		b = strconv.AppendInt(b, j, 10)
		return append(b, " are equal"...)
	}
	b = append(b, t.rule...)
	b = append(b, rec.argument()...)
	b = append(b, t.after...)
	if len(got) > 0 {
		b = append(b, "; received "...)
		b = append(b, got...)
	}
	return b
}

// segment reads the first segment of an encoded path (see appendPath):
// its tag, its index or name, and the rest of the path.
func segment(path []byte) (tag byte, index uint64, name, rest []byte) {
	tag, rest = path[0], path[1:]
	if tag >= segShort {
		n := int(tag &^ segShort)
		return segName, 0, rest[:n], rest[n:]
	}
	switch tag {
	case segIndex:
		var n int
		index, n = binary.Uvarint(rest)
		rest = rest[n:]
	case segName, segCutName:
		n := int(rest[0]) | int(rest[1])<<8
		name, rest = rest[2:2+n], rest[2+n:]
	}
	return tag, index, name, rest
}

// pointerEscaper escapes a member name as RFC 6901 requires.
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// appendPointer appends an encoded path as an RFC 6901 JSON pointer, each
// cut name followed by "…", the whole cut at maxPathText bytes.
func appendPointer(b, path []byte) []byte {
	start := len(b)
	for len(path) > 0 {
		tag, index, name, rest := segment(path)
		path = rest
		if len(b)-start >= maxPathText || tag == segMore {
			return append(b, "/…"...)
		}
		if tag == segOfName {
			continue
		}
		b = append(b, '/')
		switch tag {
		case segIndex:
			b = strconv.AppendUint(b, index, 10)
		case segHidden:
			b = append(b, hiddenName...)
		default:
			if needsEscape(name) {
				b = append(b, pointerEscaper.Replace(string(name))...)
			} else {
				b = append(b, name...)
			}
			if tag == segCutName {
				b = append(b, "…"...)
			}
		}
	}
	return b
}

// appendSubject appends an encoded path as a message names it:
// "line_items[0].sku", each name shown as bareName decides, each cut name
// followed by "…", the whole cut at maxPathText bytes; "member name
// labels.toolong" for a violation of the name itself (segOfName).
func appendSubject(b, path []byte) []byte {
	if len(path) > 0 && path[0] == segOfName {
		b = append(b, "member name "...)
		path = path[1:]
	}
	start := len(b)
	for len(path) > 0 {
		tag, index, name, rest := segment(path)
		path = rest
		if len(b)-start >= maxPathText || tag == segMore {
			return append(b, "…"...)
		}
		if tag == segIndex {
			b = append(b, '[')
			b = strconv.AppendUint(b, index, 10)
			b = append(b, ']')
			continue
		}
		if len(b) > start {
			b = append(b, '.')
		}
		switch {
		case tag == segHidden:
			b = append(b, hiddenName...)
		case bareName(name):
			b = append(b, name...)
		default:
			b = AppendVisible(b, View(name))
		}
		if tag == segCutName {
			b = append(b, "…"...)
		}
	}
	return b
}
