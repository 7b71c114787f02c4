// Package contract proves, in a generated package's own tests, that the
// schema each model provider is sent matches the schema the gate enforces.
// toolgate generates a contract test that calls Run with every tool of the
// package; it imports this package and not the generator, so a service's
// test build never pulls in the generator.
//
// For every tool, Run checks that:
//
//  1. the canonical file on disk still hashes to what the code was
//     generated from — and when it does not, says which tool, which
//     provider and where the schema now differs;
//  2. a definition is embedded for exactly the providers the tool is
//     exported to (each of them projects it without refusal), and each is
//     exactly the projection of the embedded effective schema (recomputed
//     with package provider);
//  3. structure survives each projection: the same property names at every
//     level, the same required sets (OpenAI strict lists every member; the
//     added ones accept null), the same types, the same enum values in the
//     same order, and every closed object closed (or, where a provider
//     cannot say so, listed as enforced locally);
//  4. on a boundary matrix of instances derived from the schema (see
//     Instances), the generated decoder agrees with
//     santhosh-tekuri/jsonschema on the effective schema, except where it
//     refuses a number whose Go value would break the schema while the
//     exact value keeps it (see RepresentationOnly); per dialect, an
//     instance the provider's schema accepts is accepted by the gate exactly
//     when the effective schema accepts it (OpenAI strict: after mapping
//     null to absent for the members the projection made nullable), and
//     every instance a provider's schema accepts but the gate refuses breaks
//     a rule listed as enforced locally (the violation's schema path is the
//     local rule's pointer and keyword);
//  5. every instance, dispatched through a gate — plainly and in the dialect
//     of each definition, so that the dialect's decoder and filtering are
//     the gate's own — runs the executor exactly once when the dialect's
//     decoder accepts it, and a refused one runs no executor.
//
// toolgate also generates a fuzz target per tool that calls Fuzz, which makes
// the same checks on any input the fuzzing engine finds.
package contract

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// maxInstances bounds the boundary matrix of one tool.
const maxInstances = 400

// Tool is one generated tool, as the contract test sees it.
type Tool struct {
	Name        string
	Description string
	// Schema is the embedded effective schema.
	Schema string
	// Source is the canonical file, relative to the package directory, and
	// SourceSHA256 the hash of its bytes at generation.
	Source       string
	SourceSHA256 string
	// OpenObjects is the generation option (plain JSON Schema semantics).
	OpenObjects bool
	// MCP is the tool's other MCP members, as a JSON object, or "".
	MCP string
	// Definitions are the embedded provider definitions.
	Definitions []provider.Definition
	// Providers are the providers the tool is exported to: exactly these
	// have a definition.
	Providers []provider.Provider

	decode             func([]byte) error
	result             *result // see WithResult
	decodeNullAsAbsent func([]byte) error
	bind               func(execute func()) *gate.Tool
}

// For describes a generated tool from its spec and generated constants;
// providers are the providers the tool is exported to.
func For[A any](spec gate.Spec[A], source, sourceSHA256, mcp string, openObjects bool, defs []provider.Definition, providers []provider.Provider) Tool {
	t := Tool{
		Name: spec.Name, Description: spec.Description, Schema: spec.Schema,
		Source: source, SourceSHA256: sourceSHA256, OpenObjects: openObjects, MCP: mcp, Definitions: defs,
		Providers: slices.Clone(providers),
		decode:    func(b []byte) error { _, err := spec.Decode(b); return err },
		bind: func(execute func()) *gate.Tool {
			return gate.Bind(withoutApproval(spec), gate.Binding[A]{
				Policy:  gate.AllowAll[A],
				Execute: func(context.Context, A) (any, error) { execute(); return nil, nil },
			})
		},
	}
	if spec.DecodeNullAsAbsent != nil {
		t.decodeNullAsAbsent = func(b []byte) error { _, err := spec.DecodeNullAsAbsent(b); return err }
	}
	return t
}

// withoutApproval returns spec with no approval: the contract judges the
// decoder, and a call that waits for approval would run nothing (the gate's
// approvals are tested in package gate).
func withoutApproval[A any](spec gate.Spec[A]) gate.Spec[A] {
	spec.Approval, spec.Approvers, spec.SelfApproval = gate.ApprovalNone, nil, false
	return spec
}

// Run checks the contract of every tool.
func Run(t *testing.T, tools ...Tool) {
	t.Helper()
	for _, tool := range tools {
		t.Run(tool.Name, func(t *testing.T) {
			t.Run("source", func(t *testing.T) { checkSource(t, tool) })
			t.Run("projection", func(t *testing.T) { checkProjection(t, tool) })
			t.Run("structure", func(t *testing.T) { checkStructure(t, tool) })
			t.Run("differential", func(t *testing.T) { checkDifferential(t, tool) })
			if tool.result != nil {
				checkResult(t, tool)
			}
		})
	}
}

// checkSource compares the canonical file with what the code was generated
// from, and explains a difference per provider.
func checkSource(t *testing.T, tool Tool) {
	data, err := os.ReadFile(tool.Source)
	if err != nil {
		t.Fatalf("tool %s: cannot read its canonical file: %v", tool.Name, err)
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) == tool.SourceSHA256 {
		return
	}
	msg := []string{fmt.Sprintf("tool %s: %s changed since the code was generated; run go generate", tool.Name, tool.Source)}
	desc, params, err := canonical(data, tool.Name)
	if err != nil {
		t.Fatalf("%s\n%v", msg[0], err)
	}
	now := provider.Effective(params, tool.OpenObjects)
	if ptr, d := difference(mustParse(t, tool.Schema), now, ""); ptr != "" || d != "" {
		msg = append(msg, fmt.Sprintf("effective schema: at %s: %s", orRoot(ptr), d))
	}
	nowTool := provider.Tool{Name: tool.Name, Description: desc, Schema: string(now.Marshal()), MCP: tool.MCP}
	for _, def := range tool.Definitions {
		fresh, err := provider.Project(def.Provider, nowTool)
		if err != nil {
			msg = append(msg, fmt.Sprintf("provider %s: the tool would now be refused: %v", def.Provider, err))
			continue
		}
		if ptr, d := difference(mustParse(t, def.JSON), mustParse(t, fresh.JSON), ""); ptr != "" || d != "" {
			msg = append(msg, fmt.Sprintf("provider %s: the definition sent differs at %s: %s", def.Provider, orRoot(ptr), d))
		}
	}
	t.Error(strings.Join(msg, "\n\t"))
}

// canonical finds the named tool in a tool file (one tool, {"tools": [...]}
// or an array) and returns its description and parameters schema.
func canonical(data []byte, name string) (string, *jsonval.Value, error) {
	doc, err := jsonval.Parse(data)
	if err != nil {
		return "", nil, err
	}
	candidates := []*jsonval.Value{doc}
	switch {
	case doc.Kind == jsonval.Array:
		candidates = doc.Items
	case doc.Get("tools") != nil && doc.Get("name") == nil:
		candidates = doc.Get("tools").Items
	}
	for _, c := range candidates {
		if n := c.Get("name"); n == nil || n.Str != name {
			continue
		}
		params := c.Get("parameters")
		if params == nil {
			params = c.Get("inputSchema")
		}
		if params == nil {
			return "", nil, fmt.Errorf("tool %s has no parameters any more", name)
		}
		desc := ""
		if d := c.Get("description"); d != nil {
			desc = d.Str
		}
		return desc, params, nil
	}
	return "", nil, fmt.Errorf("the file no longer defines tool %s", name)
}

// checkProjection recomputes every provider's definition from the embedded
// effective schema.
func checkProjection(t *testing.T, tool Tool) {
	for _, e := range projectionErrors(tool) {
		t.Error(e)
	}
}

// projectionErrors checks that a definition is embedded for exactly the
// providers the tool is exported to, each the projection of the embedded
// effective schema.
func projectionErrors(tool Tool) []string {
	var errs []string
	pt := provider.Tool{Name: tool.Name, Description: tool.Description, Schema: tool.Schema, MCP: tool.MCP}
	embedded := map[provider.Provider]provider.Definition{}
	for _, d := range tool.Definitions {
		if _, dup := embedded[d.Provider]; dup {
			errs = append(errs, fmt.Sprintf("tool %s, provider %s: two definitions are embedded", tool.Name, d.Provider))
		}
		embedded[d.Provider] = d
		if !slices.Contains(provider.All, d.Provider) {
			errs = append(errs, fmt.Sprintf("tool %s: a definition is embedded for %q, which is not a provider", tool.Name, d.Provider))
		}
	}
	for _, p := range provider.All {
		got, ok := embedded[p]
		if !slices.Contains(tool.Providers, p) {
			if ok {
				errs = append(errs, fmt.Sprintf("tool %s, provider %s: a definition is embedded but the tool is not exported to %s", tool.Name, p, p))
			}
			continue
		}
		def, err := provider.Project(p, pt)
		switch {
		case err != nil:
			errs = append(errs, fmt.Sprintf("tool %s, provider %s: the tool is exported to %s but the projection refuses it: %v", tool.Name, p, p, err))
		case !ok:
			errs = append(errs, fmt.Sprintf("tool %s, provider %s: the tool is exported to %s but no definition is embedded", tool.Name, p, p))
		case def.JSON != got.JSON:
			ptr, d := "", "the JSON differs"
			a, errA := jsonval.Parse([]byte(got.JSON))
			b, errB := jsonval.Parse([]byte(def.JSON))
			if errA == nil && errB == nil {
				ptr, d = difference(a, b, "")
			}
			errs = append(errs, fmt.Sprintf("tool %s, provider %s: the embedded definition is not the projection of the embedded schema: at %s: %s", tool.Name, p, orRoot(ptr), d))
		case !slices.Equal(def.Local, got.Local) || def.NullAsAbsent != got.NullAsAbsent:
			errs = append(errs, fmt.Sprintf("tool %s, provider %s: the embedded enforced-locally list or null mapping differs from the projection's", tool.Name, p))
		}
	}
	for _, p := range tool.Providers {
		if !slices.Contains(provider.All, p) {
			errs = append(errs, fmt.Sprintf("tool %s: it is exported to %q, which is not a provider", tool.Name, p))
		}
	}
	return errs
}

// providerSchema extracts the schema from a provider's tool definition.
func providerSchema(def provider.Definition) (*jsonval.Value, error) {
	v, err := jsonval.Parse([]byte(def.JSON))
	if err != nil {
		return nil, err
	}
	var s *jsonval.Value
	switch def.Provider {
	case provider.OpenAIChat:
		s = v.Get("function").Get("parameters")
	case provider.OpenAIResponses, provider.GeminiLegacy:
		s = v.Get("parameters")
	case provider.Anthropic:
		s = v.Get("input_schema")
	case provider.Gemini:
		s = v.Get("parametersJsonSchema")
	case provider.MCP:
		s = v.Get("inputSchema")
	}
	if s == nil {
		return nil, fmt.Errorf("no schema in the %s definition", def.Provider)
	}
	return s, nil
}

// checkStructure compares the shape of each provider's schema with the
// effective schema.
func checkStructure(t *testing.T, tool Tool) {
	eff := mustParse(t, tool.Schema)
	for _, def := range tool.Definitions {
		ps, err := providerSchema(def)
		if err != nil {
			t.Fatal(err)
		}
		s := &shape{tool: tool.Name, def: def, root: eff, proot: ps}
		s.compare(eff, ps, "", nil)
		for _, e := range s.errs {
			t.Error(e)
		}
	}
}

type shape struct {
	tool        string
	def         provider.Definition
	root, proot *jsonval.Value
	errs        []string
}

func (s *shape) fail(ptr, format string, args ...any) {
	s.errs = append(s.errs, fmt.Sprintf("tool %s, provider %s, at %s: %s", s.tool, s.def.Provider, orRoot(ptr), fmt.Sprintf(format, args...)))
}

func (s *shape) local(ptr, kw string) bool {
	for _, l := range s.def.Local {
		if l.Pointer == ptr && l.Keyword == kw {
			return true
		}
	}
	return false
}

// deref follows a local $ref (seen guards recursion).
func deref(root, v *jsonval.Value, seen []string) (*jsonval.Value, []string, bool) {
	for v != nil && v.Get("$ref") != nil {
		t, target, ok := jsonval.ResolveRef(root, v.Get("$ref").Str)
		if !ok || slices.Contains(seen, target) {
			return nil, seen, false
		}
		seen = append(seen, target)
		v = t
	}
	return v, seen, v != nil
}

// unwrapNull returns the non-null branch of {"anyOf": [X, {"type": "null"}]}
// (how OpenAI strict is sent an optional member), and v itself for any
// other schema, another anyOf of two branches included.
func unwrapNull(v *jsonval.Value) *jsonval.Value {
	a := v.Get("anyOf")
	if a == nil || len(a.Items) != 2 {
		return v
	}
	if n := a.Items[1]; len(n.Members) == 1 && slices.Equal(provider.TypeNames(n), []string{"null"}) {
		return a.Items[0]
	}
	return v
}

func (s *shape) compare(e, p *jsonval.Value, ptr string, seen []string) {
	var ok bool
	// The effective pointer of a referenced schema is where it is defined.
	if r := e.Get("$ref"); r != nil {
		if _, target, ok := jsonval.ResolveRef(s.root, r.Str); ok {
			ptr = target
		}
	}
	e, seen, ok = deref(s.root, e, seen)
	if !ok {
		return
	}
	p, _, ok = deref(s.proot, unwrapNull(p), nil)
	if !ok {
		s.fail(ptr, "the provider's schema does not resolve")
		return
	}
	et, pt := provider.TypeNames(e), provider.TypeNames(p)
	if s.def.Provider == provider.GeminiLegacy {
		pt = legacyTypes(p)
	}
	if len(et) > 0 && !sameTypes(et, pt) {
		s.fail(ptr, "type %v became %v", et, pt)
	}
	if ev := e.Get("enum"); ev != nil && !s.local(ptr, "enum") {
		pv := p.Get("enum")
		if pv == nil || !sameEnum(ev, pv) {
			s.fail(ptr, "enum values %s became %s", ev.Marshal(), marshalOrNone(pv))
		}
	}
	if eprops := e.Get("properties"); eprops != nil {
		pprops := p.Get("properties")
		if pprops == nil {
			s.fail(ptr, "the properties are gone")
			return
		}
		var en, pn []string
		for _, m := range eprops.Members {
			en = append(en, m.Key)
		}
		for _, m := range pprops.Members {
			pn = append(pn, m.Key)
		}
		if !slices.Equal(en, pn) {
			s.fail(ptr, "property names %v became %v", en, pn)
			return
		}
		s.compareRequired(e, p, ptr)
		for _, m := range eprops.Members {
			s.compare(m.Value, pprops.Get(m.Key), ptr+"/properties/"+jsonval.EscapeToken(m.Key), seen)
		}
	}
	if a := e.Get("additionalProperties"); a != nil && a.Kind == jsonval.Bool && !a.Bool {
		pa := p.Get("additionalProperties")
		if (pa == nil || pa.Kind != jsonval.Bool || pa.Bool) && !s.local(ptr, "additionalProperties") {
			s.fail(ptr, "the object is closed in the effective schema but not in the provider's, and not listed as enforced locally")
		}
	}
	if it := e.Get("items"); it != nil && it.Kind == jsonval.Object {
		if pit := p.Get("items"); pit != nil {
			s.compare(it, pit, ptr+"/items", seen)
		} else {
			s.fail(ptr, "the items schema is gone")
		}
	}
}

func (s *shape) compareRequired(e, p *jsonval.Value, ptr string) {
	er, pr := stringSet(e.Get("required")), stringSet(p.Get("required"))
	for _, r := range er {
		if !slices.Contains(pr, r) {
			s.fail(ptr, "required member %s is not required in the provider's schema", r)
		}
	}
	for _, r := range pr {
		if slices.Contains(er, r) {
			continue
		}
		// Only OpenAI strict lists optional members as required, and then
		// they must accept null (which means "absent").
		if em, _, _ := deref(s.root, unwrapProp(e, r), nil); !s.def.NullAsAbsent && !isNullableSchema(em) {
			s.fail(ptr, "optional member %s became required", r)
			continue
		}
		pm := p.Get("properties").Get(r)
		if !acceptsNull(s.proot, pm) {
			s.fail(ptr, "optional member %s became required without accepting null", r)
		}
	}
}

func unwrapProp(e *jsonval.Value, name string) *jsonval.Value { return e.Get("properties").Get(name) }

func isNullableSchema(v *jsonval.Value) bool {
	if slices.Contains(provider.TypeNames(v), "null") {
		return true
	}
	if e := v.Get("enum"); e != nil && v.Get("type") == nil {
		return slices.ContainsFunc(e.Items, func(it *jsonval.Value) bool { return it.Kind == jsonval.Null })
	}
	return false
}

// acceptsNull reports whether a provider's schema v (in the provider's
// schema root) accepts null: by its type or enum, through a reference, or
// in a branch of anyOf.
func acceptsNull(root, v *jsonval.Value) bool {
	v, _, ok := deref(root, v, nil)
	if !ok {
		return false
	}
	if isNullableSchema(v) {
		return true
	}
	if a := v.Get("anyOf"); a != nil {
		for _, alt := range a.Items {
			if alt, _, ok := deref(root, alt, nil); ok && isNullableSchema(alt) {
				return true
			}
		}
	}
	return false
}

func legacyTypes(v *jsonval.Value) []string {
	var out []string
	if t := v.Get("type"); t != nil {
		out = append(out, strings.ToLower(t.Str))
	}
	if n := v.Get("nullable"); n != nil && n.Bool {
		out = append(out, "null")
	}
	return out
}

// sameTypes: the provider may add null (OpenAI strict optional members);
// nothing else may change.
func sameTypes(e, p []string) bool {
	p = slices.DeleteFunc(slices.Clone(p), func(t string) bool { return t == "null" && !slices.Contains(e, "null") })
	if len(e) == 0 {
		return true
	}
	return slices.Equal(e, p)
}

// sameEnum: the same values in the same order; OpenAI strict may append
// null.
func sameEnum(e, p *jsonval.Value) bool {
	items := p.Items
	if n := len(items); n == len(e.Items)+1 && items[n-1].Kind == jsonval.Null {
		items = items[:n-1]
	}
	return bytes.Equal((&jsonval.Value{Kind: jsonval.Array, Items: items}).Marshal(), e.Marshal())
}

func stringSet(v *jsonval.Value) []string {
	if v == nil {
		return nil
	}
	var out []string
	for _, it := range v.Items {
		out = append(out, it.Str)
	}
	return out
}

func marshalOrNone(v *jsonval.Value) string {
	if v == nil {
		return "nothing"
	}
	return string(v.Marshal())
}

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
// at every depth: null in a member that the effective schema makes optional
// and not nullable means the member is absent.
func nullsToAbsent(data []byte, eff *jsonval.Value) []byte {
	v, err := jsonval.Parse(data)
	if err != nil {
		return data
	}
	mapNulls(v, eff, eff)
	return v.Marshal()
}

func mapNulls(v, schema, root *jsonval.Value) {
	schema, _, ok := deref(root, schema, nil)
	if !ok {
		return
	}
	switch v.Kind {
	case jsonval.Object:
		props := schema.Get("properties")
		required := stringSet(schema.Get("required"))
		for _, m := range slices.Clone(v.Members) {
			prop := props.Get(m.Key)
			if prop == nil {
				continue
			}
			resolved, _, _ := deref(root, prop, nil)
			if m.Value.Kind == jsonval.Null && !slices.Contains(required, m.Key) && resolved != nil && !isNullableSchema(resolved) {
				v.Delete(m.Key)
				continue
			}
			mapNulls(m.Value, prop, root)
		}
	case jsonval.Array:
		if items := schema.Get("items"); items != nil && items.Kind == jsonval.Object {
			for _, it := range v.Items {
				mapNulls(it, items, root)
			}
		}
	}
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
	for _, v := range e.Violations {
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

func compileSchema(name, schema string) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	url := "toolgate-contract:///" + name + ".json"
	if err := c.AddResource(url, strings.NewReader(schema)); err != nil {
		return nil, fmt.Errorf("compiling %s: %w", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", name, err)
	}
	return s, nil
}

func validate(s *jsonschema.Schema, data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return false
	}
	return s.Validate(v) == nil
}

func mustParse(t *testing.T, s string) *jsonval.Value {
	v, err := jsonval.Parse([]byte(s))
	if err != nil {
		t.Fatalf("invalid embedded JSON: %v", err)
	}
	return v
}

func errOrOK(err error) string {
	if err == nil {
		return "valid"
	}
	return err.Error()
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}

// difference returns the pointer and a description of the first place
// where a and b differ, or "", "" when they are equal.
func difference(a, b *jsonval.Value, ptr string) (string, string) {
	if a.Kind != b.Kind {
		return ptr, fmt.Sprintf("was %s, now %s", a.Marshal(), b.Marshal())
	}
	switch a.Kind {
	case jsonval.Object:
		for _, m := range a.Members {
			other := b.Get(m.Key)
			if other == nil {
				return ptr + "/" + jsonval.EscapeToken(m.Key), "removed (was " + string(m.Value.Marshal()) + ")"
			}
			if p, d := difference(m.Value, other, ptr+"/"+jsonval.EscapeToken(m.Key)); d != "" {
				return p, d
			}
		}
		for _, m := range b.Members {
			if a.Get(m.Key) == nil {
				return ptr + "/" + jsonval.EscapeToken(m.Key), "added: " + string(m.Value.Marshal())
			}
		}
		return "", ""
	case jsonval.Array:
		for i := 0; i < len(a.Items) && i < len(b.Items); i++ {
			if p, d := difference(a.Items[i], b.Items[i], fmt.Sprintf("%s/%d", ptr, i)); d != "" {
				return p, d
			}
		}
		if len(a.Items) != len(b.Items) {
			return ptr, fmt.Sprintf("was %s, now %s", a.Marshal(), b.Marshal())
		}
		return "", ""
	}
	if !bytes.Equal(a.Marshal(), b.Marshal()) {
		return ptr, fmt.Sprintf("was %s, now %s", a.Marshal(), b.Marshal())
	}
	return "", ""
}
