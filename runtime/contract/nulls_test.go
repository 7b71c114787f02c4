package contract

import (
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// TestNullsToAbsent: OpenAI strict's null means absent for a member that
// is optional and not nullable where it is declared — at the top level,
// deeper, in items and in the branches of anyOf, oneOf and allOf — and
// stays null for a required or nullable member.
func TestNullsToAbsent(t *testing.T) {
	const schema = `{"type":"object","properties":{
		"a":{"type":"string"},
		"req":{"type":"string"},
		"n":{"anyOf":[{"type":"string"},{"type":"null"}]},
		"target":{"anyOf":[
			{"type":"object","properties":{"id":{"type":"string"},"note":{"type":"string"}},"required":["id"]},
			{"type":"object","properties":{"email":{"type":"string"},"label":{"type":["string","null"]}},"required":["email"]}]},
		"all":{"allOf":[{"$ref":"#/$defs/base"},{"properties":{"size":{"type":"integer"}}}]},
		"list":{"type":"array","items":{"oneOf":[{"type":"object","properties":{"x":{"type":"integer"}}},{"type":"string"}]}}},
		"required":["req"],
		"$defs":{"base":{"type":"object","properties":{"id":{"type":"string"},"sub":{"type":"object","properties":{"deep":{"type":"string"}}}}}}}`
	eff, err := jsonval.Parse([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, in, want string }{
		{"top level", `{"a":null,"req":null,"n":null}`, `{"req":null,"n":null}`},
		{"a branch of anyOf", `{"target":{"id":"x","note":null}}`, `{"target":{"id":"x"}}`},
		{"nullable in its branch", `{"target":{"email":"x","label":null}}`, `{"target":{"email":"x","label":null}}`},
		{"through allOf and a reference, deeper", `{"all":{"id":null,"size":null,"sub":{"deep":null}}}`, `{"all":{"sub":{}}}`},
		{"items of oneOf", `{"list":[{"x":null},"s"]}`, `{"list":[{},"s"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(nullsToAbsent([]byte(tt.in), eff)); got != tt.want {
				t.Errorf("nullsToAbsent(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

// TestNullsToAbsentRecursiveUnion: a union whose two branches both declare
// the same recursive member is followed once per value, not once per
// branch at every level (2^40 walks for this instance, before), and the
// null at the bottom is still mapped.
func TestNullsToAbsentRecursiveUnion(t *testing.T) {
	eff, err := jsonval.Parse([]byte(`{"$ref":"#/$defs/block","$defs":{"block":{"anyOf":[
		{"type":"object","properties":{"para":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/block"}}}},
		{"type":"object","properties":{"list":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/block"}}}}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	in, want := `{"para":null}`, `{}`
	for range 40 {
		in, want = `{"children":[`+in+`]}`, `{"children":[`+want+`]}`
	}
	if got := string(nullsToAbsent([]byte(in), eff)); got != want {
		t.Errorf("nullsToAbsent of 40 levels = %s, want %s", got, want)
	}
}
