package gen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

func TestOneOfOverlaps(t *testing.T) {
	for _, tc := range []struct {
		name, params string
		want         []string // "first,second" pairs
		example      string   // when set, what every example starts with
	}{
		{"number and integer", `{"type":"object","properties":{"n":{"oneOf":[{"type":"number"},{"type":"integer"}]}}}`, []string{"0,1"}, ""},
		{"required subset, open objects", `{"type":"object","properties":{"o":{"oneOf":[
			{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},
			{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a","b"]}]}}}`, []string{"0,1"}, ""},
		{"no discriminator, three branches", `{"type":"object","properties":{"o":{"oneOf":[
			{"type":"string"},{"type":"string","maxLength":3},{"type":"boolean"}]}}}`, []string{"0,1"}, ""},
		{"tagged union", `{"type":"object","properties":{"o":{"oneOf":[
			{"type":"object","properties":{"k":{"const":"a"}},"required":["k"]},
			{"type":"object","properties":{"k":{"const":"b"}},"required":["k"]}]}}}`, nil, ""},
		{"disjoint types", `{"type":"object","properties":{"o":{"oneOf":[{"type":"string"},{"type":"object"}]}}}`, nil, ""},
		{"through a definition", `{"type":"object","properties":{"o":{"oneOf":[{"$ref":"#/$defs/n"},{"type":"integer","minimum":0}]}},"$defs":{"n":{"type":"number"}}}`, []string{"0,1"}, ""},
		// The sibling type refuses null, which both branches accept alone.
		{"sibling type, closed", `{"type":"object","properties":{"o":{"type":"object","oneOf":[{"required":["a"]},{"required":["b"]}]}}}`, nil, ""},
		{"sibling properties", `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"oneOf":[{"required":["a"]},{"required":["b"]}]}}}`, []string{"0,1"}, "{"},
		{"sibling minimum", `{"type":"object","properties":{"n":{"minimum":5,"oneOf":[{"type":"number"},{"type":"integer"}]}}}`, []string{"0,1"}, ""},
		{"sibling maximum excludes the overlap", `{"type":"object","properties":{"n":{"type":"string","oneOf":[{"minLength":1},{"maxLength":0}]}}}`, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "t.json")
			if err := os.WriteFile(path, fmt.Appendf(nil, `{"name":"t","description":"","parameters":%s,"x-toolgate":{"providers":["mcp"]}}`, tc.params), 0o644); err != nil {
				t.Fatal(err)
			}
			tools, err := gen.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range gen.OneOfOverlaps(tools[0], gen.Options{}) {
				got = append(got, fmt.Sprintf("%d,%d", o.First, o.Second))
				msg := o.Error()
				if !strings.Contains(msg, fmt.Sprintf("branches #%d and #%d both accept ", o.First, o.Second)) || !strings.Contains(msg, o.Example) || o.Example == "" {
					t.Errorf("message %q does not name both branches and the example %q", msg, o.Example)
				}
				if !strings.HasPrefix(o.Example, tc.example) {
					t.Errorf("example %s, want one starting with %s", o.Example, tc.example)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("overlaps %v, want %v", got, tc.want)
			}
		})
	}
}

// TestOneOfOverlapsManyBranches: among 300 branches, whose pairs are more
// than the search's budget of validations can try, two neighbours that
// overlap are still found (neighbours are searched first), and the
// disjoint others are not reported.
func TestOneOfOverlapsManyBranches(t *testing.T) {
	const n = 300
	var branches []string
	for i := range n - 2 {
		branches = append(branches, fmt.Sprintf(`{"type":"object","properties":{"f%d":{"type":"integer"}},"required":["f%d"]}`, i, i))
	}
	same := `{"type":"object","properties":{"g":{"type":"integer"}},"required":["g"]}`
	branches = append(branches, same, same)
	dir := t.TempDir()
	path := filepath.Join(dir, "t.json")
	tool := fmt.Sprintf(`{"name":"t","description":"","parameters":{"type":"object","properties":{"o":{"oneOf":[%s]}}},"x-toolgate":{"providers":["mcp"]}}`, strings.Join(branches, ","))
	if err := os.WriteFile(path, []byte(tool), 0o644); err != nil {
		t.Fatal(err)
	}
	tools, err := gen.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range gen.OneOfOverlaps(tools[0], gen.Options{}) {
		got = append(got, fmt.Sprintf("%d,%d", o.First, o.Second))
	}
	if want := fmt.Sprintf("[%d,%d]", n-2, n-1); fmt.Sprint(got) != want {
		t.Errorf("overlaps %v, want %s", got, want)
	}
}
