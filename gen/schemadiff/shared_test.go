package schemadiff

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

// TestGoldenShared changes a definitions file that two of three tools use
// (testdata/shared: defs/money.json loses a currency): the change is
// reported on each tool that uses it, at the member that refers to it,
// and on no other.
func TestGoldenShared(t *testing.T) {
	old, err := gen.Load("testdata/shared/old")
	if err != nil {
		t.Fatal(err)
	}
	new, err := gen.Load("testdata/shared/new")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Compare(gen.Analyze(old, gen.Options{}), gen.Analyze(new, gen.Options{}), Config{})
	if err != nil {
		t.Fatal(err)
	}
	changed := map[string][]Change{}
	for _, td := range r.Tools {
		changed[td.Name] = append(changed[td.Name], td.Changes...)
	}
	for _, tc := range []struct {
		tool string
		at   string // where the change is; "" for none
	}{
		{"create_order", "/properties/total/properties/currency/enum"},
		{"issue_refund", "/properties/amount/properties/currency/enum"},
		{"schedule_delivery", ""},
	} {
		cs := changed[tc.tool]
		if tc.at == "" {
			if len(cs) > 0 {
				t.Errorf("%s uses no changed definition, but has changes %v", tc.tool, cs)
			}
			continue
		}
		if !slices.ContainsFunc(cs, func(c Change) bool {
			return c.Pointer == tc.at && c.Kind == "enum-value-removed" && c.Worst() == Breaking
		}) {
			t.Errorf("%s: no breaking enum-value-removed at %s in %v", tc.tool, tc.at, cs)
		}
	}
	var b bytes.Buffer
	if err := WriteHuman(&b, r); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, filepath.Join("testdata", "shared", "diff.txt.golden"), b.Bytes())
}
