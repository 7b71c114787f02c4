package gen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

// Generation must be near-linear in the size of the tool files: these
// benchmarks grow one dimension of a tool (oneOf branches, $ref fan-out)
// and time load, generate and the oneOf overlap search, as toolgate
// generate runs them.

// oneOfBranchesTool is a tool whose one member is a oneOf of n closed
// objects, branch i requiring member fi: no two branches overlap, so the
// overlap search tries every pair.
func oneOfBranchesTool(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"type":"object","properties":{"f%d":{"type":"integer"}},"required":["f%d"]}`, i, i)
	}
	return `{"type":"object","properties":{"o":{"oneOf":[` + b.String() + `]}},"required":["o"]}`
}

// refFanoutTool is a tool whose definition di refers to d(i+1) twice, down
// to d(depth): a schema of linear size whose references, expanded, would
// be 2^depth copies of the last definition.
func refFanoutTool(depth int) string {
	var defs strings.Builder
	for i := range depth {
		fmt.Fprintf(&defs, `"d%d":{"type":"object","properties":{"a":{"$ref":"#/$defs/d%d"},"b":{"$ref":"#/$defs/d%d"}}},`, i, i+1, i+1)
	}
	fmt.Fprintf(&defs, `"d%d":{"type":"object","properties":{"leaf":{"type":"string"}}}`, depth)
	return `{"type":"object","properties":{"root":{"$ref":"#/$defs/d0"}},"$defs":{` + defs.String() + `}}`
}

// anyOfFanoutTool is refFanoutTool with each definition an anyOf of two
// references to the next, down to a string.
func anyOfFanoutTool(depth int) string {
	var defs strings.Builder
	for i := range depth {
		fmt.Fprintf(&defs, `"d%d":{"anyOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]},`, i, i+1, i+1)
	}
	fmt.Fprintf(&defs, `"d%d":{"type":"string"}`, depth)
	return `{"type":"object","properties":{"root":{"$ref":"#/$defs/d0"}},"$defs":{` + defs.String() + `}}`
}

// writeTool writes a tool file with those parameters and returns its
// directory.
func writeTool(tb testing.TB, params string) string {
	tb.Helper()
	dir := tb.TempDir()
	tool := `{"name":"t","description":"A tool.","parameters":` + params + `}`
	if err := os.WriteFile(filepath.Join(dir, "t.json"), []byte(tool), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// generateAndSearch loads and generates the tools of dir and searches
// their oneOf overlaps, as toolgate generate does.
func generateAndSearch(tb testing.TB, dir string) {
	tb.Helper()
	tools, err := gen.Load(dir)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := gen.Generate(tools, gen.Options{Package: "tools"}); err != nil {
		tb.Fatal(err)
	}
	for _, t := range tools {
		gen.OneOfOverlaps(t, gen.Options{})
	}
}

func BenchmarkGenerateOneOfBranches(b *testing.B) {
	for _, n := range []int{10, 50, 200, 500} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := writeTool(b, oneOfBranchesTool(n))
			for b.Loop() {
				generateAndSearch(b, dir)
			}
		})
	}
}

func BenchmarkGenerateRefFanout(b *testing.B) {
	for _, shape := range []struct {
		name string
		tool func(depth int) string
	}{{"properties", refFanoutTool}, {"anyOf", anyOfFanoutTool}} {
		for _, depth := range []int{5, 10, 15, 20, 30} {
			b.Run(fmt.Sprintf("%s/depth=%d", shape.name, depth), func(b *testing.B) {
				dir := writeTool(b, shape.tool(depth))
				for b.Loop() {
					generateAndSearch(b, dir)
				}
			})
		}
	}
}
