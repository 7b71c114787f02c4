package vet_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/toolgate/toolgate/gen/vet"
)

// TestAnalyzer runs every check on its test data: each "// want" comment is
// a diagnostic that must be reported there, and every line without one must
// report nothing (the near misses).
func TestAnalyzer(t *testing.T) {
	for _, pkg := range []string{"decode", "executor", "cron", "principal", "identity"} {
		t.Run(pkg, func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), vet.Analyzer, pkg)
		})
	}
}
