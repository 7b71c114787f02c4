package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/synth"
)

// TestRunSameOnAnyWorkerCount: the findings, suppressions and invalid
// tools of a run over many files do not depend on the number of workers
// that check the tools.
func TestRunSameOnAnyWorkerCount(t *testing.T) {
	dir := t.TempDir()
	if err := synth.Write(dir, 12, 60); err != nil {
		t.Fatal(err)
	}
	lintme, err := os.ReadFile(filepath.Join("testdata", "lintme.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		// The same bad tool, renamed, among the synthetic ones.
		body := strings.Replace(string(lintme), `"name": "handle_order"`, fmt.Sprintf(`"name": "handle_order_%d"`, i), 1)
		if body == string(lintme) {
			t.Fatal(`testdata/lintme.json no longer names "handle_order"`)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("tool_%05d_lintme.json", 15*i+4)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tools, err := gen.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var first *Result
	for run, procs := range []int{1, 4, 2, 4} {
		prev := runtime.GOMAXPROCS(procs)
		res, err := Run(gen.Analyze(tools, gen.Options{}), Options{})
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		if run == 0 {
			first = res
			continue
		}
		if !reflect.DeepEqual(res, first) {
			t.Errorf("GOMAXPROCS %d: the result differs from the run on one worker", procs)
		}
	}
	files := map[string]bool{}
	for _, f := range first.Findings {
		if f.Severity == Error {
			files[filepath.Base(f.File)] = true
		}
	}
	if len(files) != 4 {
		t.Errorf("errors found in %v, want the four copies of lintme.json", files)
	}
}
