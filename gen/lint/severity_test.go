package lint

import (
	"reflect"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

// TestMinSeverity: a run that skips the rules below MinSeverity reports
// what a run of every rule reports at or above it, with the same
// suppression counts.
func TestMinSeverity(t *testing.T) {
	tools, err := gen.Load("testdata/lintme.json")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Disable: []Suppression{{Rule: RuleEnumSpelling, Reason: "test"}, {Rule: RuleDescContent, Reason: "test"}}}
	all, err := Run(gen.Analyze(tools, gen.Options{}), Options{Config: cfg, MinSeverity: Hint})
	if err != nil {
		t.Fatal(err)
	}
	for _, min := range []Severity{Warning, Error} {
		got, err := Run(gen.Analyze(tools, gen.Options{}), Options{Config: cfg, MinSeverity: min})
		if err != nil {
			t.Fatal(err)
		}
		var want []Finding
		for _, f := range all.Findings {
			if f.Severity >= min {
				want = append(want, f)
			}
		}
		if !reflect.DeepEqual(got.Findings, want) {
			t.Errorf("MinSeverity %s: findings\n%v\nwant\n%v", min, got.Findings, want)
		}
		for rule, n := range all.Suppressed {
			if severity(rule) >= min && got.Suppressed[rule] != n {
				t.Errorf("MinSeverity %s: %d %s suppressed, want %d", min, got.Suppressed[rule], rule, n)
			}
		}
		if len(want) == 0 {
			t.Errorf("MinSeverity %s: no findings to compare", min)
		}
	}
}
