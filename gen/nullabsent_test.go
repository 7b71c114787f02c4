package gen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen/internal/gobuild"
)

// TestNullAsAbsentInBranches: OpenAI strict sends the optional members of
// the branches of anyOf as null (its projection makes them required and
// nullable there too). DecodeNullAsAbsent takes such a null as absent in
// a branch as at the top level — a value kept as bytes is handed on, and
// re-encodes, without the member — while Decode refuses it, and a null the
// branch allows as a value stays.
func TestNullAsAbsentInBranches(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a generated package; skipped with -short")
	}
	const params = `{"type":"object","properties":{
		"target":{"anyOf":[
			{"type":"object","properties":{"id":{"type":"string"},"note":{"type":"string"},"sub":{"type":"object","properties":{"deep":{"type":"integer"}},"additionalProperties":false}},"required":["id"],"additionalProperties":false},
			{"type":"object","properties":{"email":{"type":"string"},"label":{"type":["string","null"]}},"required":["email"],"additionalProperties":false}]},
		"pet":{"anyOf":[
			{"type":"object","properties":{"kind":{"const":"cat"},"lives":{"type":"integer"}},"required":["kind"],"additionalProperties":false},
			{"type":"object","properties":{"kind":{"const":"dog"},"bark":{"type":"boolean"}},"required":["kind"],"additionalProperties":false}]}},
		"required":["target","pet"],"additionalProperties":false}`
	tests := []struct {
		in        string
		plain     bool   // Decode accepts it
		nullAbsnt string // what DecodeNullAsAbsent's value encodes to; "" when it refuses
	}{
		{`{"target":{"id":"a","note":null},"pet":{"kind":"dog"}}`, false, `{"target":{"id":"a"},"pet":{"kind":"dog"}}`},
		{`{"target":{"id":"a","note":null,"sub":{"deep":null}},"pet":{"kind":"dog"}}`, false, `{"target":{"id":"a","sub":{}},"pet":{"kind":"dog"}}`},
		{`{"target":{"note":null,"id":"a"},"pet":null}`, false, ""},
		{`{"target":{"email":"e","label":null},"pet":{"kind":"dog"}}`, true, `{"target":{"email":"e","label":null},"pet":{"kind":"dog"}}`},
		{`{"target":{"id":null},"pet":{"kind":"dog"}}`, false, ""},
		{`{"target":{"id":"a"},"pet":{"kind":"cat","lives":null}}`, false, `{"target":{"id":"a"},"pet":{"kind":"cat"}}`},
	}
	mod := gobuild.Module(t, "nullabsent")
	gobuild.WriteFiles(t, mod, "tools", generateFolder(t, mod, map[string][]byte{"pick.json": fmt.Appendf(nil, `{"name":"pick","description":"","parameters":%s}`, params)}))
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"fmt\"\n\n\t\"nullabsent/tools\"\n)\n\nfunc main() {\n")
	for _, tt := range tests {
		fmt.Fprintf(&main, "\t{\n\t\t_, err := tools.DecodePickArgs([]byte(%q))\n\t\tv, nerr := tools.DecodePickArgsNullAsAbsent([]byte(%q))\n\t\tenc, _ := v.MarshalJSON()\n\t\tfmt.Printf(\"%%v %%v %%s\\n\", err == nil, nerr == nil, enc)\n\t}\n", tt.in, tt.in)
	}
	main.WriteString("}\n")
	gobuild.WriteFiles(t, mod, "cmd", map[string][]byte{"main.go": []byte(main.String())})
	got, err := gobuild.Go(t, mod, "run", "./cmd")
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, got)
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) != len(tests) {
		t.Fatalf("got %d lines for %d instances:\n%s", len(lines), len(tests), got)
	}
	for i, tt := range tests {
		want := fmt.Sprintf("%v %v %s", tt.plain, tt.nullAbsnt != "", tt.nullAbsnt)
		if tt.nullAbsnt == "" {
			want = fmt.Sprintf("%v false ", tt.plain)
		}
		if !strings.HasPrefix(lines[i]+" ", want) || tt.nullAbsnt != "" && lines[i] != want {
			t.Errorf("%s: Decode, DecodeNullAsAbsent, its value encoded: %s; want %s", tt.in, lines[i], want)
		}
	}
}
