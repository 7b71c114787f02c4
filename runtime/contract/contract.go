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
//  2. the embedded provider definitions are exactly the projection of the
//     embedded effective schema (recomputed with package provider), and the
//     tool is refused for exactly the other providers;
//  3. structure survives each projection: the same property names at every
//     level, the same required sets (OpenAI strict lists every member; the
//     added ones accept null), the same types, the same enum values in the
//     same order, and every closed object closed (or, where a provider
//     cannot say so, listed as enforced locally);
//  4. on a boundary matrix of instances derived from the schema (see
//     Instances), the generated decoder agrees with
//     santhosh-tekuri/jsonschema on the effective schema; per dialect, an
//     instance the provider's schema accepts is accepted by the gate exactly
//     when the effective schema accepts it (OpenAI strict: after mapping
//     null to absent for the members the projection made nullable), and
//     every instance a provider's schema accepts but the gate refuses breaks
//     a rule listed as enforced locally;
//  5. every refused instance, dispatched through a gate, runs no executor.
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

	decode             func([]byte) error
	decodeNullAsAbsent func([]byte) error
	bind               func(execute func()) *gate.Tool
}

// For describes a generated tool from its spec and generated constants.
func For[A any](spec gate.Spec[A], source, sourceSHA256, mcp string, openObjects bool, defs []provider.Definition) Tool {
	t := Tool{
		Name: spec.Name, Description: spec.Description, Schema: spec.Schema,
		Source: source, SourceSHA256: sourceSHA256, OpenObjects: openObjects, MCP: mcp, Definitions: defs,
		decode: func(b []byte) error { _, err := spec.Decode(b); return err },
		bind: func(execute func()) *gate.Tool {
			return gate.Bind(spec, gate.Binding[A]{
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

// Run checks the contract of every tool.
func Run(t *testing.T, tools ...Tool) {
	t.Helper()
	for _, tool := range tools {
		t.Run(tool.Name, func(t *testing.T) {
			t.Run("source", func(t *testing.T) { checkSource(t, tool) })
			t.Run("projection", func(t *testing.T) { checkProjection(t, tool) })
			t.Run("structure", func(t *testing.T) { checkStructure(t, tool) })
			t.Run("differential", func(t *testing.T) { checkDifferential(t, tool) })
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
	pt := provider.Tool{Name: tool.Name, Description: tool.Description, Schema: tool.Schema, MCP: tool.MCP}
	embedded := map[provider.Provider]provider.Definition{}
	for _, d := range tool.Definitions {
		embedded[d.Provider] = d
	}
	for _, p := range provider.All {
		def, err := provider.Project(p, pt)
		got, ok := embedded[p]
		switch {
		case err != nil && ok:
			t.Errorf("tool %s, provider %s: a definition is embedded but the projection refuses the tool: %v", tool.Name, p, err)
		case err != nil:
		case !ok:
			t.Errorf("tool %s, provider %s: no definition is embedded but the projection gives one", tool.Name, p)
		case def.JSON != got.JSON:
			ptr, d := difference(mustParse(t, got.JSON), mustParse(t, def.JSON), "")
			t.Errorf("tool %s, provider %s: the embedded definition is not the projection of the embedded schema: at %s: %s", tool.Name, p, orRoot(ptr), d)
		case !slices.Equal(def.Local, got.Local) || def.NullAsAbsent != got.NullAsAbsent:
			t.Errorf("tool %s, provider %s: the embedded enforced-locally list or null mapping differs from the projection's", tool.Name, p)
		}
	}
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
		target := strings.TrimPrefix(v.Get("$ref").Str, "#")
		if slices.Contains(seen, target) {
			return nil, seen, false
		}
		seen = append(seen, target)
		v = jsonval.Resolve(root, target)
	}
	return v, seen, v != nil
}

// unwrapNull returns the non-null branch of {"anyOf": [X, {"type": "null"}]}.
func unwrapNull(v *jsonval.Value) *jsonval.Value {
	if a := v.Get("anyOf"); a != nil && len(a.Items) == 2 {
		return a.Items[0]
	}
	return v
}

func (s *shape) compare(e, p *jsonval.Value, ptr string, seen []string) {
	var ok bool
	// The effective pointer of a referenced schema is where it is defined.
	if r := e.Get("$ref"); r != nil {
		ptr = strings.TrimPrefix(r.Str, "#")
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
		if !s.def.NullAsAbsent && !isNullableSchema(unwrapProp(e, r)) {
			s.fail(ptr, "optional member %s became required", r)
			continue
		}
		pm := p.Get("properties").Get(r)
		if !acceptsNull(pm) {
			s.fail(ptr, "optional member %s became required without accepting null", r)
		}
	}
}

func unwrapProp(e *jsonval.Value, name string) *jsonval.Value { return e.Get("properties").Get(name) }

func isNullableSchema(v *jsonval.Value) bool { return slices.Contains(provider.TypeNames(v), "null") }

func acceptsNull(v *jsonval.Value) bool {
	if slices.Contains(provider.TypeNames(v), "null") {
		return true
	}
	if a := v.Get("anyOf"); a != nil {
		for _, alt := range a.Items {
			if slices.Contains(provider.TypeNames(alt), "null") {
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
	oracle := compile(t, tool.Name+"-effective", tool.Schema)
	executed := 0
	bound := tool.bind(func() { executed++ })
	reg, err := gate.NewRegistry([]*gate.Tool{bound})
	if err != nil {
		t.Fatal(err)
	}
	// A principal who may see the tool, so that the gate reaches the decoder.
	caller := gate.Caller{Principal: gate.Principal{ID: "contract-test", Roles: bound.Roles}}
	accepted := 0
	defer func() {
		t.Logf("tool %s: %d instances, %d valid by the effective schema; %d executions", tool.Name, len(instances), accepted, executed)
	}()
	for _, in := range instances {
		want := validate(oracle, in.JSON)
		if want {
			accepted++
		}
		got := tool.decode(in.JSON)
		if (got == nil) != want {
			t.Errorf("tool %s, instance %s %s: decoder says %v, santhosh-tekuri/jsonschema says valid=%v", tool.Name, in.Name, in.JSON, errOrOK(got), want)
		}
		before := executed
		_, derr := reg.Dispatch(context.Background(), caller, gate.Call{Name: tool.Name, Args: in.JSON, Complete: true})
		switch {
		case derr != nil && executed != before:
			t.Errorf("tool %s, instance %s: refused (%v) but the executor ran", tool.Name, in.Name, derr)
		case derr == nil && got != nil:
			t.Errorf("tool %s, instance %s: the gate ran a call its decoder refuses", tool.Name, in.Name)
		case got == nil && (derr != nil || executed != before+1):
			t.Errorf("tool %s, instance %s: the decoder accepts it but the gate did not run it exactly once (%v)", tool.Name, in.Name, derr)
		}
	}
	for _, def := range tool.Definitions {
		if def.Provider == provider.GeminiLegacy || def.Provider == provider.MCP {
			// The legacy OpenAPI subset is not JSON Schema, so there is no
			// oracle for it; MCP carries the effective schema itself.
			continue
		}
		ps, err := providerSchema(def)
		if err != nil {
			t.Fatal(err)
		}
		pOracle := compile(t, tool.Name+"-"+string(def.Provider), string(ps.Marshal()))
		var providerAccepts, localRefusals int
		for _, in := range dialectInstances(instances, def, ps) {
			if !validate(pOracle, in.JSON) {
				continue
			}
			providerAccepts++
			decode, canonicalJSON := tool.decode, in.JSON
			if def.NullAsAbsent {
				decode = tool.decodeNullAsAbsent
				canonicalJSON = nullsToAbsent(in.JSON, mustParse(t, tool.Schema))
			}
			want := validate(oracle, canonicalJSON)
			got := decode(in.JSON)
			if (got == nil) != want {
				t.Errorf("tool %s, provider %s, instance %s %s: the provider's schema accepts it; the gate says %v, the effective schema says valid=%v", tool.Name, def.Provider, in.Name, in.JSON, errOrOK(got), want)
				continue
			}
			if got != nil {
				localRefusals++
				if !brokenRulesLocal(got, def) {
					t.Errorf("tool %s, provider %s, instance %s %s: the provider's schema accepts it and the gate refuses it (%v) for a rule not listed as enforced locally", tool.Name, def.Provider, in.Name, in.JSON, got)
				}
			}
		}
		t.Logf("tool %s, provider %s: the provider's schema accepts %d instances; the gate refuses %d of them for rules enforced locally", tool.Name, def.Provider, providerAccepts, localRefusals)
	}
}

// dialectInstances adds, for OpenAI strict, the instances in which each
// optional member is null (what a model on that dialect sends for
// "absent").
func dialectInstances(base []Instance, def provider.Definition, ps *jsonval.Value) []Instance {
	if !def.NullAsAbsent {
		return base
	}
	out := slices.Clone(base)
	for _, in := range base {
		if !in.Valid {
			continue
		}
		v, err := jsonval.Parse(in.JSON)
		if err != nil || v.Kind != jsonval.Object {
			continue
		}
		props := ps.Get("properties")
		for _, m := range props.Members {
			if v.Has(m.Key) && !acceptsNull(m.Value) {
				continue
			}
			c := v.Clone()
			c.Set(m.Key, &jsonval.Value{Kind: jsonval.Null})
			out = append(out, Instance{Name: in.Name + " with " + m.Key + " null", JSON: c.Marshal()})
		}
		break
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
// keyword the definition lists as enforced locally.
func brokenRulesLocal(err error, def provider.Definition) bool {
	var e *toolerr.Error
	if !errors.As(err, &e) || e.Code != toolerr.InvalidArguments {
		return false
	}
	for _, v := range e.Violations {
		found := false
		for _, l := range def.Local {
			if l.Keyword == v.Keyword {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func compile(t *testing.T, name, schema string) *jsonschema.Schema {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	url := "toolgate-contract:///" + name + ".json"
	if err := c.AddResource(url, strings.NewReader(schema)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compiling %s: %v", name, err)
	}
	return s
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
