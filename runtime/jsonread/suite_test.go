package jsonread

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/internal/suiteskip"
)

// suiteDir is JSONTestSuite's test_parsing folder, shared next to the module.
const suiteDir = "../../../shared/testdata/jsontestsuite"

// implementationDefined holds the decision for every i_ file: true means
// accept. See the package documentation for the reasons.
var implementationDefined = map[string]bool{
	"i_number_double_huge_neg_exp.json":                   true,
	"i_number_huge_exp.json":                              true,
	"i_number_neg_int_huge_exp.json":                      true,
	"i_number_pos_double_huge_exp.json":                   true,
	"i_number_real_neg_overflow.json":                     true,
	"i_number_real_pos_overflow.json":                     true,
	"i_number_real_underflow.json":                        true,
	"i_number_too_big_neg_int.json":                       true,
	"i_number_too_big_pos_int.json":                       true,
	"i_number_very_big_negative_int.json":                 true,
	"i_object_key_lone_2nd_surrogate.json":                false, // lone surrogate
	"i_string_1st_surrogate_but_2nd_missing.json":         false,
	"i_string_1st_valid_surrogate_2nd_invalid.json":       false,
	"i_string_UTF-16LE_with_BOM.json":                     false, // not UTF-8
	"i_string_UTF-8_invalid_sequence.json":                false,
	"i_string_UTF8_surrogate_U+D800.json":                 false, // encoded surrogate is invalid UTF-8
	"i_string_incomplete_surrogate_and_escape_valid.json": false,
	"i_string_incomplete_surrogate_pair.json":             false,
	"i_string_incomplete_surrogates_escape_valid.json":    false,
	"i_string_invalid_lonely_surrogate.json":              false,
	"i_string_invalid_surrogate.json":                     false,
	"i_string_invalid_utf-8.json":                         false,
	"i_string_inverted_surrogates_U+1D11E.json":           false,
	"i_string_iso_latin_1.json":                           false,
	"i_string_lone_second_surrogate.json":                 false,
	"i_string_lone_utf8_continuation_byte.json":           false,
	"i_string_not_in_unicode_range.json":                  false,
	"i_string_overlong_sequence_2_bytes.json":             false,
	"i_string_overlong_sequence_6_bytes.json":             false,
	"i_string_overlong_sequence_6_bytes_null.json":        false,
	"i_string_truncated-utf-8.json":                       false,
	"i_string_utf16BE_no_BOM.json":                        false,
	"i_string_utf16LE_no_BOM.json":                        false,
	"i_structure_500_nested_arrays.json":                  false, // depth limit
	"i_structure_UTF-8_BOM_empty_object.json":             false, // BOM
}

// rejectedByPolicy are y_ files that strict JSON rejects: repeated names.
var rejectedByPolicy = map[string]bool{
	"y_object_duplicated_key.json":           true,
	"y_object_duplicated_key_and_value.json": true,
}

func TestJSONTestSuite(t *testing.T) {
	suiteskip.Missing(t, "JSONTestSuite", suiteDir)
	entries, err := os.ReadDir(suiteDir)
	if err != nil {
		t.Fatalf("JSONTestSuite folder %s: %v", suiteDir, err)
	}
	counts := map[string]int{}
	seenI := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(suiteDir, name))
		if err != nil {
			t.Fatal(err)
		}
		verr := Valid(data, Limits{})
		var accept bool
		switch name[:2] {
		case "y_":
			accept = !rejectedByPolicy[name]
		case "n_":
			accept = false
		case "i_":
			decision, ok := implementationDefined[name]
			if !ok {
				t.Errorf("%s: implementation-defined file without a decision; add it to implementationDefined and the package doc", name)
				continue
			}
			seenI[name] = true
			accept = decision
		default:
			continue
		}
		switch {
		case accept && verr != nil:
			t.Errorf("%s: rejected, want accepted: %v", name, verr)
		case !accept && verr == nil:
			t.Errorf("%s: accepted, want rejected", name)
		}
		verdict := "rejected"
		if verr == nil {
			verdict = "accepted"
		}
		counts[name[:1]+" "+verdict]++
	}
	for name := range implementationDefined {
		if !seenI[name] {
			t.Errorf("decision for %s, which is not in the suite", name)
		}
	}
	if counts["y accepted"] == 0 || counts["n rejected"] == 0 {
		t.Fatalf("suite folder %s holds no y_/n_ files", suiteDir)
	}
	t.Logf("y: %d accepted, %d rejected; n: %d rejected; i: %d accepted, %d rejected",
		counts["y accepted"], counts["y rejected"], counts["n rejected"], counts["i accepted"], counts["i rejected"])
}
