package contract

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// checkDifferential compares the decoder with santhosh-tekuri/jsonschema on
// the boundary matrix, per dialect, and checks that refused instances run
// no executor.
func checkDifferential(t *testing.T, tool Tool) {
	instances, err := Instances([]byte(tool.Schema), maxInstances)
	if err != nil {
		t.Fatalf("tool %s: deriving instances: %v", tool.Name, err)
	}
	errs, logs := differentialErrors(tool, instances, func(name, schema string) (*jsonschema.Schema, error) {
		return compileSchema(name, schema)
	})
	for _, l := range logs {
		t.Log(l)
	}
	for _, e := range errs {
		t.Error(e)
	}
}

// dialects maps each provider to the gate dialect of the calls of a model
// that was sent its definition.
var dialects = map[provider.Provider]gate.Dialect{
	provider.OpenAIChat:      gate.OpenAIChat,
	provider.OpenAIResponses: gate.OpenAIResponses,
	provider.Anthropic:       gate.Anthropic,
	provider.Gemini:          gate.Gemini,
	provider.GeminiLegacy:    gate.Gemini,
	provider.MCP:             gate.MCP,
}

// differentialErrors is checkDifferential without the testing.T: it returns
// the failures and the log lines.
func differentialErrors(tool Tool, instances []Instance, compile func(name, schema string) (*jsonschema.Schema, error)) (errs, logs []string) {
	fail := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	eff, err := jsonval.Parse([]byte(tool.Schema))
	if err != nil {
		return []string{fmt.Sprintf("tool %s: invalid embedded schema: %v", tool.Name, err)}, nil
	}
	oracle, err := compile(tool.Name+"-effective", tool.Schema)
	if err != nil {
		return []string{err.Error()}, nil
	}
	executed := 0
	bound := tool.bind(func() { executed++ })
	reg, err := gate.NewRegistry([]*gate.Tool{bound})
	if err != nil {
		return []string{err.Error()}, nil
	}
	// A principal who may see the tool, so that the gate reaches the decoder.
	caller := gate.Caller{Principal: gate.Principal{ID: "contract-test", Roles: bound.Roles}}
	// dispatch runs one instance through the gate in a dialect and checks
	// that it ran exactly when decoded (the dialect's decoder's verdict).
	dispatch := func(where string, in Instance, dialect gate.Dialect, decoded error) {
		before := executed
		_, derr := reg.Dispatch(context.Background(), caller, gate.Call{Name: tool.Name, Args: in.JSON, Complete: true, Dialect: dialect})
		switch {
		case derr != nil && executed != before:
			fail("tool %s, %s, instance %s: refused (%v) but the executor ran", tool.Name, where, in.Name, derr)
		case derr == nil && decoded != nil:
			fail("tool %s, %s, instance %s: the gate ran a call its decoder refuses (%v)", tool.Name, where, in.Name, decoded)
		case decoded == nil && (derr != nil || executed != before+1):
			fail("tool %s, %s, instance %s: the decoder accepts it but the gate did not run it exactly once (%v)", tool.Name, where, in.Name, derr)
		}
	}
	accepted := 0
	for _, in := range instances {
		want := validate(oracle, in.JSON)
		if want {
			accepted++
		}
		got := tool.decode(in.JSON)
		if !agree(eff, in.JSON, got, want) {
			fail("tool %s, instance %s %s: decoder says %v, santhosh-tekuri/jsonschema says valid=%v", tool.Name, in.Name, in.JSON, errOrOK(got), want)
		} else if got != nil && want {
			logs = append(logs, fmt.Sprintf("tool %s, instance %s %s: refused where santhosh-tekuri/jsonschema accepts, by design: the Go value would break the schema (%v)", tool.Name, in.Name, in.JSON, got))
		}
		dispatch("plain call", in, gate.Plain, got)
	}
	for _, def := range tool.Definitions {
		dialect, known := dialects[def.Provider]
		if !known {
			fail("tool %s: a definition for unknown provider %q", tool.Name, def.Provider)
			continue
		}
		// The decoder the gate uses for the dialect.
		decode, nullAsAbsent := tool.decode, false
		if (dialect == gate.OpenAIChat || dialect == gate.OpenAIResponses) && tool.decodeNullAsAbsent != nil {
			decode, nullAsAbsent = tool.decodeNullAsAbsent, true
		}
		if def.NullAsAbsent && !nullAsAbsent {
			fail("tool %s, provider %s: the definition makes optional members nullable (null means absent) but the spec has no DecodeNullAsAbsent", tool.Name, def.Provider)
			continue
		}
		ps, err := providerSchema(def)
		if err != nil {
			fail("%v", err)
			continue
		}
		ins := dialectInstances(instances, def, ps)
		for _, in := range ins {
			dispatch("provider "+string(def.Provider), in, dialect, decode(in.JSON))
		}
		if def.Provider == provider.GeminiLegacy || def.Provider == provider.MCP {
			// The legacy OpenAPI subset is not JSON Schema, so there is no
			// oracle for it; MCP carries the effective schema itself.
			continue
		}
		pOracle, err := compile(tool.Name+"-"+string(def.Provider), string(ps.Marshal()))
		if err != nil {
			fail("%v", err)
			continue
		}
		var providerAccepts, localRefusals int
		for _, in := range ins {
			if !validate(pOracle, in.JSON) {
				continue
			}
			providerAccepts++
			canonicalJSON := in.JSON
			if def.NullAsAbsent {
				canonicalJSON = nullsToAbsent(in.JSON, eff)
			}
			want := validate(oracle, canonicalJSON)
			got := decode(in.JSON)
			if got != nil && want && agree(eff, canonicalJSON, got, want) {
				localRefusals++
				continue
			}
			if (got == nil) != want {
				fail("tool %s, provider %s, instance %s %s: the provider's schema accepts it; the gate says %v, the effective schema says valid=%v", tool.Name, def.Provider, in.Name, in.JSON, errOrOK(got), want)
				continue
			}
			if got != nil {
				localRefusals++
				if !brokenRulesLocal(got, def) {
					fail("tool %s, provider %s, instance %s %s: the provider's schema accepts it and the gate refuses it (%v) for a rule not listed as enforced locally", tool.Name, def.Provider, in.Name, in.JSON, got)
				}
			}
		}
		logs = append(logs, fmt.Sprintf("tool %s, provider %s: the provider's schema accepts %d instances; the gate refuses %d of them for rules enforced locally", tool.Name, def.Provider, providerAccepts, localRefusals))
	}
	logs = append(logs, fmt.Sprintf("tool %s: %d instances, %d valid by the effective schema; %d executions", tool.Name, len(instances), accepted, executed))
	return errs, logs
}

// dialectInstances adds, for OpenAI strict, the instances in which an
// optional member is null (what a model on that dialect sends for
// "absent"): for every valid instance and every member the provider's
// schema lets be null, the instance with that member null, each distinct
// instance once.
func dialectInstances(base []Instance, def provider.Definition, ps *jsonval.Value) []Instance {
	if !def.NullAsAbsent {
		return base
	}
	out := slices.Clone(base)
	seen := map[string]bool{}
	for _, in := range base {
		seen[string(in.JSON)] = true
	}
	props := ps.Get("properties")
	for _, in := range base {
		if !in.Valid {
			continue
		}
		v, err := jsonval.Parse(in.JSON)
		if err != nil || v.Kind != jsonval.Object || props == nil {
			continue
		}
		for _, m := range props.Members {
			if !acceptsNull(ps, m.Value) {
				continue
			}
			c := v.Clone()
			c.Set(m.Key, &jsonval.Value{Kind: jsonval.Null})
			data := c.Marshal()
			if seen[string(data)] {
				continue
			}
			seen[string(data)] = true
			out = append(out, Instance{Name: in.Name + " with " + m.Key + " null", JSON: data})
		}
	}
	return out
}

// nullsToAbsent applies OpenAI strict's documented mapping to an instance,
// at every depth and in the branches of anyOf, oneOf and allOf: null in a
// member that the effective schema makes optional and not nullable means
// the member is absent.
func nullsToAbsent(data []byte, eff *jsonval.Value) []byte {
	v, err := jsonval.Parse(data)
	if err != nil {
		return data
	}
	mapNulls(v, []*jsonval.Value{eff}, eff)
	return v.Marshal()
}

// mapNulls maps the nulls of v, a value that each of schemas describes.
// The schemas of a member (or of the items) are gathered from every schema
// that declares it and followed once, each schema once, so that branches
// that share a recursive member cost no more than one.
func mapNulls(v *jsonval.Value, schemas []*jsonval.Value, root *jsonval.Value) {
	var all []*jsonval.Value
	for _, s := range schemas {
		for _, o := range objectSchemas(s, root, nil) {
			if !slices.Contains(all, o) {
				all = append(all, o)
			}
		}
	}
	switch v.Kind {
	case jsonval.Object:
		for _, m := range slices.Clone(v.Members) {
			props := declaring(all, m.Key)
			if m.Value.Kind == jsonval.Null && slices.ContainsFunc(props, func(p declared) bool { return p.optional && !acceptsNull(root, p.schema) }) {
				v.Delete(m.Key)
				continue
			}
			var below []*jsonval.Value
			for _, p := range props {
				below = append(below, p.schema)
			}
			if len(below) > 0 {
				mapNulls(m.Value, below, root)
			}
		}
	case jsonval.Array:
		var items []*jsonval.Value
		for _, s := range all {
			if it := s.Get("items"); it != nil && it.Kind == jsonval.Object {
				items = append(items, it)
			}
		}
		if len(items) > 0 {
			for _, it := range v.Items {
				mapNulls(it, items, root)
			}
		}
	}
}

// objectSchemas returns schema, resolved, and the branches of its anyOf,
// oneOf and allOf, at any depth: the schemas that may declare the members
// of one value.
func objectSchemas(schema, root *jsonval.Value, seen []string) []*jsonval.Value {
	schema, seen, ok := deref(root, schema, seen)
	if !ok {
		return nil
	}
	out := []*jsonval.Value{schema}
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		if list := schema.Get(kw); list != nil {
			for _, b := range list.Items {
				out = append(out, objectSchemas(b, root, seen)...)
			}
		}
	}
	return out
}

// declared is a member's schema in one of the schemas of a value.
type declared struct {
	schema   *jsonval.Value
	optional bool
}

// declaring returns the schemas that declare member name among schemas.
func declaring(schemas []*jsonval.Value, name string) []declared {
	var out []declared
	for _, s := range schemas {
		if p := s.Get("properties").Get(name); p != nil {
			out = append(out, declared{p, !slices.Contains(stringSet(s.Get("required")), name)})
		}
	}
	return out
}

// brokenRulesLocal reports whether every violation of a refusal is of a
// rule the definition lists as enforced locally: the violation's schema
// path is the rule's pointer and keyword (for a rule in a definition, both
// name the definition's own path, /$defs/address/properties/name/minLength).
func brokenRulesLocal(err error, def provider.Definition) bool {
	var e *toolerr.Error
	if !errors.As(err, &e) || e.Code != toolerr.InvalidArguments {
		return false
	}
	for _, v := range e.Violations() {
		if !slices.ContainsFunc(def.Local, func(l provider.Local) bool {
			at := l.Pointer + "/" + jsonval.EscapeToken(l.Keyword)
			// A branch keyword fails because a rule inside a branch does:
			// anyOf [{format ipv4}, {format ipv6}] is sent as anyOf [{}, {}].
			return v.Keyword == l.Keyword && v.SchemaPath == at ||
				branchKeywords[v.Keyword] && strings.HasPrefix(at, v.SchemaPath+"/")
		}) {
			return false
		}
	}
	return true
}

// branchKeywords are the keywords whose violation is the verdict of
// subschemas: they break because a rule inside them does.
var branchKeywords = map[string]bool{
	"allOf": true, "anyOf": true, "oneOf": true, "not": true, "if": true, "then": true, "else": true,
	"dependentSchemas": true, "contains": true, "propertyNames": true, "patternProperties": true,
	"unevaluatedProperties": true, "unevaluatedItems": true, "$ref": true,
}
