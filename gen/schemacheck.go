package gen

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// schemaCheck is what checking one schema of a tool against its dialect's
// meta-schema found: every place the meta-schema refuses (not only the
// first), and what the model builder may still read.
type schemaCheck struct {
	// errs are the meta-schema's problems, one per place in the schema.
	errs ErrorList
	// compiler checks defaults against schema; nil when the builder cannot
	// run.
	compiler func() (*jsonschema.Compiler, error)
	// schema is the schema the compiler accepted: the one checked, less
	// what errs refuse (takeOut).
	schema *jsonval.Value
	// pruned are the pointers (in the tool file) of what was taken out.
	pruned []string
}

// maxPruneRounds bounds the compilations of a schema the meta-schema
// refuses: each round takes out at least one value, and the problems of
// the first are nearly always all of them.
const maxPruneRounds = 4

// checkSchema checks the schema s of the tool's member key (parameters,
// inputSchema or outputSchema) as santhosh-tekuri/jsonschema compiles it
// under url. A schema the meta-schema refuses is reported at every place it
// refuses, and then compiled again without what is at those places
// (takeOut), so that the model builder, which needs a schema the compiler accepts (it
// reads each keyword's value as the meta-schema types it, and resolves
// $refs as the compiler does), still runs and reports the keywords it
// refuses in the same run. Any other compile error (a $ref that does not
// resolve), or a schema still refused after maxPruneRounds, stops there:
// compiler is nil.
func checkSchema(t *Tool, key string, s *jsonval.Value, url string, draft7 bool) schemaCheck {
	c := schemaCheck{schema: s}
	base := t.Pointer + "/" + key
	var seen map[string]bool // the places reported, once the schema is refused
	for round := 0; ; round++ {
		compiler, err := checkAt(url, c.schema, draft7)
		if err == nil {
			c.compiler = compiler
			return c
		}
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			c.errs = append(c.errs, schemaErrorAt(t, key, c.schema, url, err))
			return c
		}
		if round == 0 {
			c.schema, seen = copyValue(s), map[string]bool{}
		}
		var places []string
		for _, leaf := range metaLeaves(ve) {
			if !seen[leaf.InstanceLocation] {
				seen[leaf.InstanceLocation] = true
				c.errs = append(c.errs, leafError(t, key, c.schema, leaf))
			}
			places = append(places, leaf.InstanceLocation)
		}
		if round == maxPruneRounds-1 {
			return c
		}
		removed := false
		for _, p := range places {
			if at, ok := takeOut(c.schema, p, draft7); ok {
				c.pruned = append(c.pruned, base+at)
				removed = true
			}
		}
		if !removed {
			// The root itself is refused (not a schema): nothing is left to
			// build.
			return c
		}
	}
}

// schemaErrorAt turns a compile error of santhosh-tekuri/jsonschema, for
// the schema s of the tool's member key compiled under url, into a
// generation error: a meta-schema error at its first deepest cause.
func schemaErrorAt(t *Tool, key string, s *jsonval.Value, url string, err error) error {
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return leafError(t, key, s, metaLeaves(ve)[0])
	}
	var se *jsonschema.SchemaError
	if errors.As(err, &se) && se.Err != nil {
		err = se.Err
	}
	return &Error{File: t.File, Pointer: t.Pointer + "/" + key, Message: "invalid schema: " + strings.ReplaceAll(err.Error(), url, "")}
}

// copyValue is a deep copy of v, which removeMember may change.
func copyValue(v *jsonval.Value) *jsonval.Value {
	c, err := jsonval.Parse(v.Marshal())
	if err != nil {
		panic("gen: a parsed value does not parse again: " + err.Error())
	}
	return c
}

// metaLeaves are the deepest causes of a meta-schema error, the first for
// each place (instance location) in cause order: the alternatives of an
// anyOf at one place ("one of the types", "an array") are one problem.
func metaLeaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	var out []*jsonschema.ValidationError
	seen := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			if !seen[e.InstanceLocation] {
				seen[e.InstanceLocation] = true
				out = append(out, e)
			}
			return
		}
		if strings.HasSuffix(e.KeywordLocation, "/anyOf") || strings.HasSuffix(e.KeywordLocation, "/oneOf") {
			// The value is one of several shapes, and matches none: the
			// alternative that got deepest into it is the one meant ("type":
			// ["string", "nul"] is a list with a bad item, not a bad name).
			walk(slices.MaxFunc(e.Causes, func(a, b *jsonschema.ValidationError) int { return cmp.Compare(depth(a), depth(b)) }))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// depth is how deep into the schema the deepest cause of e is.
func depth(e *jsonschema.ValidationError) int {
	d := strings.Count(e.InstanceLocation, "/")
	for _, c := range e.Causes {
		d = max(d, depth(c))
	}
	return d
}

// leafError is the generation error of one deepest cause of a meta-schema
// error, in schema s of the tool's member key, at the keyword of its place.
func leafError(t *Tool, key string, s *jsonval.Value, ve *jsonschema.ValidationError) *Error {
	e := &Error{File: t.File, Pointer: t.Pointer + "/" + key + ve.InstanceLocation, Message: "invalid schema: " + ve.Message}
	// The keyword is the member the place is in: required for an item of
	// its array.
	_, e.Keyword, _ = deepestMember(s, ve.InstanceLocation)
	v := jsonval.Resolve(s, ve.InstanceLocation)
	switch {
	case v == nil || v.Kind != jsonval.String:
	case e.Keyword == "pattern":
		if _, rerr := regexp.Compile(v.Str); rerr != nil {
			e.Message = fmt.Sprintf("Go's regexp cannot compile %q: %v", v.Str, rerr)
		}
	case e.Keyword == "type" && !simpleTypes[v.Str]:
		names := make([]string, len(typeNames))
		for i, tn := range typeNames {
			names[i] = tn.name
		}
		e.Message = fmt.Sprintf("unknown type %q%s (a type is array, boolean, integer, null, number, object or string)", v.Str, didYouMean(v.Str, names))
	}
	return e
}

// takeOut takes the value at ptr out of s: a value in the place of a
// schema becomes true (any value), so that every other pointer, and every
// $ref to it, still holds; any other value goes with the member
// deepestMember finds for it (removeMember). at is the pointer of what was
// taken out; ok is false when nothing was (ptr is the root, or is not in
// s).
func takeOut(s *jsonval.Value, ptr string, draft7 bool) (at string, ok bool) {
	if ptr != "" && isSchemaPlace(s, ptr, draft7) {
		if v := jsonval.Resolve(s, ptr); v != nil {
			*v = jsonval.Value{Kind: jsonval.Bool, Bool: true}
			return ptr, true
		}
	}
	return removeMember(s, ptr)
}

// isSchemaPlace reports whether the value at ptr in the schema s stands
// where the dialect's meta-schema wants a schema: the value of a keyword
// such as items or not, a member of properties or $defs, an item of allOf.
func isSchemaPlace(s *jsonval.Value, ptr string, draft7 bool) bool {
	kw := keywords2020
	if draft7 {
		kw = keywords7
	}
	type role uint8
	const (
		atOther role = iota
		atSchema
		atSchemaMap
		atSchemaList
	)
	r, cur := atSchema, s
	for _, tok := range strings.Split(ptr, "/")[1:] {
		tok = unescapePointer(tok)
		var next *jsonval.Value
		switch cur.Kind {
		case jsonval.Object:
			next = cur.Get(tok)
		case jsonval.Array:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(cur.Items) {
				next = cur.Items[i]
			}
		}
		if next == nil {
			return false
		}
		switch {
		case r == atSchemaMap || r == atSchemaList:
			r = atSchema
		case r != atSchema:
		case kw[tok] == schema.SchemaValue:
			r = atSchema
		case kw[tok] == schema.SchemaMapValue || kw[tok] == schema.PatternMapValue:
			r = atSchemaMap
		case kw[tok] == schema.SchemasValue:
			r = atSchemaList
		case kw[tok] == schema.SchemaOrListValue && next.Kind == jsonval.Array:
			r = atSchemaList
		case kw[tok] == schema.SchemaOrListValue:
			r = atSchema
		default:
			r = atOther
		}
		cur = next
	}
	return r == atSchema
}

// removeMember takes out of s the member deepestMember finds for ptr. at
// is its pointer; ok is false when there is none (ptr is the root, or is
// not in s).
func removeMember(s *jsonval.Value, ptr string) (at string, ok bool) {
	obj, key, at := deepestMember(s, ptr)
	if obj == nil {
		return "", false
	}
	obj.Members = slices.DeleteFunc(obj.Members, func(m jsonval.Member) bool { return m.Key == key })
	return at, true
}

// deepestMember finds, on the way from s to the value at ptr, the deepest
// object member: the value itself when it is an object's member, else the
// member holding the array it is in (an array's item is taken out with the
// keyword that holds the array, so that no later item changes pointer).
// obj is nil when there is none.
func deepestMember(s *jsonval.Value, ptr string) (obj *jsonval.Value, key, at string) {
	cur, curAt := s, ""
	for _, tok := range strings.Split(ptr, "/")[1:] {
		tok = unescapePointer(tok)
		var next *jsonval.Value
		switch cur.Kind {
		case jsonval.Object:
			if next = cur.Get(tok); next != nil {
				obj, key, at = cur, tok, curAt+"/"+escapePointer(tok)
			}
		case jsonval.Array:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(cur.Items) {
				next = cur.Items[i]
			}
		}
		if next == nil {
			break
		}
		cur, curAt = next, curAt+"/"+escapePointer(tok)
	}
	return obj, key, at
}

// coveredBy reports whether e is about a member pruned took out (or what
// was inside it), or about the keyword of such a member, so that what the
// builder says of the schema without it does not repeat the meta-schema's
// problem.
func coveredBy(e *Error, pruned []string) bool {
	for _, p := range pruned {
		if e.Pointer == p || strings.HasPrefix(e.Pointer, p+"/") || e.Keyword != "" && e.Pointer+"/"+escapePointer(e.Keyword) == p {
			return true
		}
	}
	return false
}
