package format

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolgate/toolgate/runtime/internal/suiteskip"
)

// suiteRoot is the JSON Schema Test Suite copy shared by the project,
// relative to this package's directory.
const suiteRoot = "../../../shared/corpora/jsts"

// suiteRequired are the optional/format files that must be present and run
// when the suite is: the kept files whose format this package implements.
// Any other file found under optional/format runs too if its format is
// supported.
var suiteRequired = []string{
	"draft2020-12/optional/format/date-time.json",
	"draft2020-12/optional/format/date.json",
	"draft2020-12/optional/format/email.json",
	"draft2020-12/optional/format/uuid.json",
	"draft7/optional/format/date-time.json",
	"draft7/optional/format/date.json",
	"draft7/optional/format/email.json",
}

// suiteDeviations lists the suite tests this package deliberately decides
// differently from the suite, keyed "file: case: test" (descriptions as in
// the file), with the reason. A test that deviates without being listed
// fails, and so does a listed test that no longer deviates. It is empty:
// every test passes.
var suiteDeviations = map[string]string{}

type suiteCase struct {
	Description string `json:"description"`
	Schema      struct {
		Format string `json:"format"`
	} `json:"schema"`
	Tests []struct {
		Description string `json:"description"`
		Data        any    `json:"data"`
		Valid       bool   `json:"valid"`
	} `json:"tests"`
}

func TestSuite(t *testing.T) {
	suiteskip.Missing(t, "JSON Schema Test Suite formats", suiteRoot)
	var files []string
	for _, dir := range []string{"draft2020-12", "draft7"} {
		found, err := filepath.Glob(filepath.Join(suiteRoot, dir, "optional", "format", "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			rel, err := filepath.Rel(suiteRoot, f)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, filepath.ToSlash(rel))
		}
	}
	for _, want := range suiteRequired {
		if !slices.Contains(files, want) {
			t.Errorf("suite file %s is missing under %s", want, suiteRoot)
		}
	}
	seen := map[string]bool{}
	for _, file := range files {
		raw, err := os.ReadFile(filepath.Join(suiteRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		var cases []suiteCase
		if err := json.Unmarshal(raw, &cases); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		passed, total := 0, 0
		for _, c := range cases {
			check, ok := Lookup(c.Schema.Format)
			if !ok {
				t.Logf("%s: %q: format %q is not implemented; skipped", file, c.Description, c.Schema.Format)
				continue
			}
			for _, tc := range c.Tests {
				total++
				key := file + ": " + c.Description + ": " + tc.Description
				seen[key] = true
				got := true // formats ignore values that are not strings
				if s, isString := tc.Data.(string); isString {
					got = check(s)
				}
				reason, listed := suiteDeviations[key]
				switch {
				case got == tc.Valid && listed:
					t.Errorf("%s: listed as a deviation (%s) but passes; remove it from suiteDeviations", key, reason)
				case got == tc.Valid:
					passed++
				case listed:
					t.Logf("%s: deviates as listed: %s", key, reason)
				default:
					t.Errorf("%s: data %q: got valid=%v, suite expects %v", key, tc.Data, got, tc.Valid)
				}
			}
		}
		t.Logf("%s: %d/%d passed", file, passed, total)
	}
	for key := range suiteDeviations {
		if !seen[key] {
			t.Errorf("suiteDeviations entry %q matches no suite test", key)
		}
	}
}
