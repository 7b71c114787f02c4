package gen_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
)

// TestResultBehaviour generates testdata/result/probe.json, whose
// outputSchema uses every keyword toolgate enforces, and probe_list.json,
// whose result is an array, into a module of its
// own and runs testdata/result/probe_test.go.txt there: through a real
// registry, a result that breaks each keyword is withheld as
// invalid_result with no value in what the model reads, and valid results
// round-trip through encode and decode unchanged.
func TestResultBehaviour(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a generated package; skipped with -short")
	}
	mod := gobuild.Module(t, "results")
	schemas := map[string][]byte{}
	for _, name := range []string{"probe.json", "probe_list.json"} {
		src, err := os.ReadFile(filepath.Join("testdata", "result", name))
		if err != nil {
			t.Fatal(err)
		}
		schemas[name] = src
	}
	test, err := os.ReadFile(filepath.Join("testdata", "result", "probe_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	gobuild.WriteFiles(t, mod, "schemas", schemas)
	tools, err := gen.Load(filepath.Join(mod, "schemas"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := gen.Generate(tools, gen.Options{Package: "probe", OutDir: filepath.Join(mod, "probe")})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{"probe_test.go": test}
	for _, f := range files {
		out[f.Name] = f.Data
	}
	gobuild.WriteFiles(t, mod, "probe", out)
	got, err := gobuild.Go(t, mod, "test", "-count=1", "-v", "-run", "TestResult|TestValidResult|TestArrayResult|TestToolContracts", "./probe")
	t.Logf("%s", got)
	if err != nil {
		t.Fatalf("the generated package's result tests fail: %v", err)
	}
}
