package contract

import (
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/provider"
)

// TestStructureOptionalMembersOpenAI: OpenAI strict lists every member as
// required; the structure check accepts an optional member listed so when
// it accepts null there — made nullable (null means absent) or nullable
// already in the effective schema, as Zod's .nullable().optional() writes
// it (null means null) — and fails one listed as required that the
// provider's schema does not let be null.
func TestStructureOptionalMembersOpenAI(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		// breakProvider, when set, replaces the provider's schema.
		breakProvider string
		want          string // "" when the check passes
	}{
		{
			name:   "already nullable through anyOf, no member made nullable",
			schema: `{"type":"object","properties":{"q":{"type":"string"},"limit":{"anyOf":[{"type":"number"},{"type":"null"}]}},"required":["q"],"additionalProperties":false}`,
		},
		{
			name:   "already nullable by its type",
			schema: `{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":["number","null"]}},"required":["q"],"additionalProperties":false}`,
		},
		{
			name:   "nullable through a reference",
			schema: `{"type":"object","properties":{"q":{"type":"string"},"limit":{"$ref":"#/$defs/n"}},"required":["q"],"additionalProperties":false,"$defs":{"n":{"anyOf":[{"type":"number"},{"type":"null"}]}}}`,
		},
		{
			name:   "made nullable beside one already nullable",
			schema: `{"type":"object","properties":{"q":{"type":"string"},"limit":{"anyOf":[{"type":"number"},{"type":"null"}]}},"additionalProperties":false}`,
		},
		{
			name:          "required in the provider's schema without accepting null",
			schema:        `{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"number"}},"required":["q"],"additionalProperties":false}`,
			breakProvider: `{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"number"}},"required":["q","limit"],"additionalProperties":false}`,
			want:          "optional member limit became required",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def, err := provider.Project(provider.OpenAIChat, provider.Tool{Name: "nm", Schema: tt.schema})
			if err != nil {
				t.Fatal(err)
			}
			if tt.breakProvider != "" {
				def.JSON = strings.Replace(def.JSON, def.JSON[strings.Index(def.JSON, `"parameters":`)+len(`"parameters":`):strings.LastIndex(def.JSON, `,"strict"`)], tt.breakProvider, 1)
				def.NullAsAbsent = false
			}
			eff := mustParse(t, tt.schema)
			ps, err := providerSchema(def)
			if err != nil {
				t.Fatal(err)
			}
			s := &shape{tool: "nm", def: def, root: eff, proot: ps}
			s.compare(eff, ps, "", nil)
			got := strings.Join(s.errs, "\n")
			switch {
			case tt.want == "" && got != "":
				t.Errorf("structure check fails:\n%s\nprovider's schema %s", got, ps.Marshal())
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("structure check says %q, want %q", got, tt.want)
			}
		})
	}
}
