package contract

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// The tests below use a hand-written tool, so that they do not depend on
// the generator: n is a required integer, m an optional string.

const nmSchema = `{"type":"object","properties":{"n":{"type":"integer"},"m":{"type":"string"}},"required":["n"],"additionalProperties":false}`

type nmArgs struct {
	N int64
	M *string
}

// decodeNM is the tool's strict decoder; with nullAsAbsent, "m": null means
// m is absent.
func decodeNM(nullAsAbsent bool) func([]byte) (nmArgs, error) {
	return func(data []byte) (nmArgs, error) {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(data, &raw); err != nil || raw == nil {
			return nmArgs{}, &toolerr.Error{Code: toolerr.InvalidJSON, Tool: "nm", Reason: "not an object"}
		}
		var a nmArgs
		var vs []toolerr.Violation
		bad := func(kw, ptr, sp string) {
			vs = append(vs, toolerr.Violation{Keyword: kw, InstancePath: ptr, SchemaPath: sp, Message: ptr + " " + kw})
		}
		for k, v := range raw {
			switch k {
			case "n":
				if json.Unmarshal(v, &a.N) != nil || string(v) == "null" {
					bad("type", "/n", "/properties/n/type")
				}
			case "m":
				if string(v) == "null" {
					if !nullAsAbsent {
						bad("type", "/m", "/properties/m/type")
					}
					continue
				}
				var s string
				if json.Unmarshal(v, &s) != nil {
					bad("type", "/m", "/properties/m/type")
				}
				a.M = &s
			default:
				bad("additionalProperties", "/"+k, "/additionalProperties")
			}
		}
		if _, ok := raw["n"]; !ok {
			bad("required", "", "/required")
		}
		if len(vs) > 0 {
			return nmArgs{}, (&toolerr.Error{Code: toolerr.InvalidArguments, Tool: "nm"}).SetViolations(vs)
		}
		return a, nil
	}
}

func project(t *testing.T, schema string, ps ...provider.Provider) []provider.Definition {
	t.Helper()
	var defs []provider.Definition
	for _, p := range ps {
		def, err := provider.Project(p, provider.Tool{Name: "nm", Schema: schema})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		defs = append(defs, def)
	}
	return defs
}

// nmTool describes the tool for the contract: the gate's spec has
// specDefs and, when nullDecoder is set, DecodeNullAsAbsent; the
// contract's tool has defs, exported to providers.
func nmTool(schema string, specDefs, defs []provider.Definition, providers []provider.Provider, nullDecoder bool) Tool {
	spec := gate.Spec[nmArgs]{Name: "nm", Schema: schema, Decode: decodeNM(false), Definitions: specDefs}
	if nullDecoder {
		spec.DecodeNullAsAbsent = decodeNM(true)
	}
	return For(spec, "nm.json", "", "", false, defs, providers)
}

// TestProjectionExactlyExportedProviders: a definition is expected for
// exactly the providers the tool is exported to, each of which must
// project it.
func TestProjectionExactlyExportedProviders(t *testing.T) {
	// A tuple: OpenAI strict and the Gemini legacy subset refuse it.
	const tuple = `{"type":"object","properties":{"pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}},"required":["pair"],"additionalProperties":false}`
	P := func(ps ...provider.Provider) []provider.Provider { return ps }
	tampered := project(t, tuple, provider.Anthropic)
	tampered[0].JSON = strings.Replace(tampered[0].JSON, `"integer"`, `"number"`, 1)
	tests := []struct {
		name      string
		defs      []provider.Definition
		providers []provider.Provider
		want      []string // substrings, one per error
	}{
		{"exactly the exported ones", project(t, tuple, provider.Anthropic, provider.MCP), P(provider.Anthropic, provider.MCP), nil},
		{"a definition for a provider not exported to", project(t, tuple, provider.Anthropic, provider.MCP, provider.Gemini), P(provider.Anthropic, provider.MCP),
			[]string{"provider gemini: a definition is embedded but the tool is not exported to gemini"}},
		{"an exported provider without a definition", project(t, tuple, provider.Anthropic), P(provider.Anthropic, provider.Gemini),
			[]string{"provider gemini: the tool is exported to gemini but no definition is embedded"}},
		{"an exported provider that refuses the tool", project(t, tuple, provider.MCP), P(provider.OpenAIChat, provider.MCP),
			[]string{"provider openai-chat: the tool is exported to openai-chat but the projection refuses it"}},
		{"a definition that is not the projection", tampered, P(provider.Anthropic),
			[]string{"provider anthropic: the embedded definition is not the projection"}},
		{"an unknown provider", project(t, tuple, provider.MCP), P(provider.MCP, "bedrock"),
			[]string{`exported to "bedrock", which is not a provider`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := nmTool(tuple, tt.defs, tt.defs, tt.providers, false)
			errs := projectionErrors(tool)
			if len(errs) != len(tt.want) {
				t.Fatalf("errors %q, want %d", errs, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(errs[i], w) {
					t.Errorf("error %q does not contain %q", errs[i], w)
				}
			}
		})
	}
}

// TestBrokenRulesLocalMatchesSchemaPath: a refusal is explained by the
// local rules only when each violation's schema path is a local rule's
// pointer and keyword, not merely its keyword.
func TestBrokenRulesLocalMatchesSchemaPath(t *testing.T) {
	def := provider.Definition{Provider: provider.OpenAIChat, Local: []provider.Local{
		{Pointer: "/$defs/address/properties/name", Keyword: "minLength", Value: "1"},
		{Pointer: "", Keyword: "additionalProperties", Value: "false"},
	}}
	refusal := func(vs ...toolerr.Violation) error {
		return (&toolerr.Error{Code: toolerr.InvalidArguments}).SetViolations(vs)
	}
	v := func(kw, sp string) toolerr.Violation { return toolerr.Violation{Keyword: kw, SchemaPath: sp} }
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"the local rule in a definition", refusal(v("minLength", "/$defs/address/properties/name/minLength")), true},
		{"the root rule", refusal(v("additionalProperties", "/additionalProperties")), true},
		{"both", refusal(v("additionalProperties", "/additionalProperties"), v("minLength", "/$defs/address/properties/name/minLength")), true},
		{"same keyword elsewhere", refusal(v("minLength", "/properties/note/minLength")), false},
		{"same keyword, nested closure", refusal(v("additionalProperties", "/properties/a/additionalProperties")), false},
		{"one local, one not", refusal(v("minLength", "/$defs/address/properties/name/minLength"), v("minLength", "/$defs/address/properties/city/minLength")), false},
		{"not an argument refusal", &toolerr.Error{Code: toolerr.InvalidJSON}, false},
		{"not a toolerr", errors.New("boom"), false},
	}
	for _, tt := range tests {
		if got := brokenRulesLocal(tt.err, def); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestDialectInstancesFromEveryValidInstance: the null variants come from
// every valid instance, once per distinct text, for every member the
// provider's schema lets be null (through a reference too).
func TestDialectInstancesFromEveryValidInstance(t *testing.T) {
	schema := `{"type":"object","properties":{"n":{"type":"integer"},"m":{"type":"string"},"r":{"$ref":"#/$defs/maybe"}},"required":["n"],"additionalProperties":false,"$defs":{"maybe":{"type":["string","null"]}}}`
	def := project(t, schema, provider.OpenAIChat)[0]
	ps, err := providerSchema(def)
	if err != nil {
		t.Fatal(err)
	}
	base := []Instance{
		{Name: "one", JSON: []byte(`{"n":1}`), Valid: true},
		{Name: "two", JSON: []byte(`{"n":2,"m":"x"}`), Valid: true},
		{Name: "one again", JSON: []byte(`{"n":1}`), Valid: true},
		{Name: "bad", JSON: []byte(`{"n":"x"}`), Valid: false},
	}
	var got []string
	for _, in := range dialectInstances(base, def, ps)[len(base):] {
		got = append(got, string(in.JSON))
	}
	want := []string{`{"n":1,"m":null}`, `{"n":1,"r":null}`, `{"n":2,"m":null}`, `{"n":2,"m":"x","r":null}`}
	if !slices.Equal(got, want) {
		t.Errorf("null variants %q, want %q", got, want)
	}
}

// TestDifferentialDispatchesInEachDialect: the gate part of the
// differential check dispatches in the dialect of every definition, so a
// gate that would not resolve the tool in a dialect, or would decode null
// differently, is caught.
func TestDifferentialDispatchesInEachDialect(t *testing.T) {
	instances := []Instance{
		{Name: "n", JSON: []byte(`{"n":1}`), Valid: true},
		{Name: "n and m", JSON: []byte(`{"n":1,"m":"x"}`), Valid: true},
		{Name: "m null", JSON: []byte(`{"n":1,"m":null}`)},
		{Name: "no n", JSON: []byte(`{}`)},
		{Name: "extra", JSON: []byte(`{"n":1,"z":1}`)},
	}
	all := []provider.Provider{provider.OpenAIChat, provider.Anthropic, provider.MCP}
	defs := project(t, nmSchema, all...)
	tests := []struct {
		name        string
		specDefs    []provider.Definition // what the gate's spec holds
		nullDecoder bool
		want        []string
	}{
		{"consistent", defs, true, nil},
		{"the gate does not resolve the tool for anthropic", project(t, nmSchema, provider.OpenAIChat, provider.MCP), true,
			[]string{"provider anthropic, instance n: the decoder accepts it but the gate did not run it exactly once"}},
		{"null-as-absent definition without the null decoder", defs, false,
			[]string{"provider openai-chat: the definition makes optional members nullable (null means absent) but the spec has no DecodeNullAsAbsent"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := nmTool(nmSchema, tt.specDefs, defs, all, tt.nullDecoder)
			errs, _ := differentialErrors(tool, instances, compileSchema)
			if len(tt.want) == 0 && len(errs) > 0 {
				t.Fatalf("errors %q", errs)
			}
			for _, w := range tt.want {
				if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, w) }) {
					t.Errorf("no error containing %q in %q", w, errs)
				}
			}
		})
	}
}
