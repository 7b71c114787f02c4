package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fourMistakes is one tool file with four different mistakes, each of a
// stage that used to hide the next: an x-toolgate member misspelt, a type
// misspelt (the meta-schema refuses it), a keyword misspelt (the model
// refuses it) and bounds that leave no value (a certain lint rule).
const fourMistakes = `{
  "name": "refund_order",
  "description": "Refund an order.",
  "x-toolgate": {"timout": "10s"},
  "parameters": {
    "type": "object",
    "properties": {
      "amount": {"type": "integr", "description": "cents"},
      "count": {"type": "integer", "minimum": 5, "maximum": 1, "description": "how many"}
    },
    "requried": ["amount"]
  }
}
`

// notJSON is a second file, broken differently: its problem is reported
// in the same run, before the other file's.
const notJSON = "{\n  \"name\": \"a\",\n  \"parameters\": {]\n}\n"

// The problems of both files, as generate, check and export report them:
// every one, each at file:line:column, in file and position order.
var fourMistakesReport = []string{
	`schemas/a.json:3:18: invalid JSON: invalid character ']' looking for beginning of object member name`,
	`schemas/t.json:4:18: unknown x-toolgate member "timout"; did you mean "timeout"? (want goName, version, roles, sensitive, destructive, timeout, providers, approval, approvers, selfApproval) (at /x-toolgate/timout)`,
	`schemas/t.json:8:18: type: unknown type "integr"; did you mean "integer"? (a type is array, boolean, integer, null, number, object or string) (at /parameters/properties/amount/type)`,
	`schemas/t.json:9:36: error bounds-inverted: minimum 5 and maximum 1 leave no value (at /parameters/properties/count/minimum)`,
	`schemas/t.json:11:5: requried: unknown keyword "requried"; did you mean "required"? (at /parameters/requried)`,
}

func TestEveryProblemInOneRun(t *testing.T) {
	files := map[string]string{"schemas/t.json": fourMistakes, "schemas/a.json": notJSON}
	// Without the load errors, the generator's errors and the lint findings
	// still come together.
	loads := map[string]string{"schemas/t.json": strings.Replace(fourMistakes, "timout", "timeout", 1)}
	// With only the lint error, generate refuses as before, the finding
	// placed and pointed at alike.
	onlyLint := map[string]string{"schemas/t.json": strings.NewReplacer("timout", "timeout", "integr", "integer", "requried", "required").Replace(fourMistakes)}
	tests := []struct {
		name       string
		files      map[string]string
		args       []string
		wantStderr []string
		wantStdout []string
	}{
		{"generate", files, []string{"generate"}, append(fourMistakesReport, "toolgate generate: 5 problem(s) in the tool definitions, 1 of them lint error(s) (disable a rule with a reason: toolgate lint --help)"), nil},
		{"check", files, []string{"check"}, append(fourMistakesReport, "toolgate check: 5 problem(s) in the tool definitions, 1 of them lint error(s) (disable a rule with a reason: toolgate lint --help)"), nil},
		{"export", files, []string{"export", "--provider", "mcp"}, append(fourMistakesReport, "toolgate export: 5 problem(s) in the tool definitions, 1 of them lint error(s) (disable a rule with a reason: toolgate lint --help)"), nil},
		// lint prints its findings (bounds-inverted among them) on stdout
		// and the generator's errors on stderr, each list sorted.
		{"generate, the definitions load", loads, []string{"generate"}, append(fourMistakesReport[2:5:5], "toolgate generate: 3 problem(s) in the tool definitions, 1 of them lint error(s) (disable a rule with a reason: toolgate lint --help)"), nil},
		{"export, the definitions load", loads, []string{"export", "--provider", "anthropic"}, append(fourMistakesReport[2:5:5], "toolgate export: 3 problem(s) in the tool definitions, 1 of them lint error(s) (disable a rule with a reason: toolgate lint --help)"), nil},
		{"generate, only a lint error", onlyLint, []string{"generate"}, []string{fourMistakesReport[3], "toolgate generate: 1 lint error(s); fix them, or disable a rule with a reason (toolgate lint --help)"}, nil},
		{"lint", files, []string{"lint", "--min-severity", "error"},
			[]string{fourMistakesReport[0], fourMistakesReport[1], fourMistakesReport[2], fourMistakesReport[4], "toolgate lint: 4 problem(s) in the tool definitions"},
			[]string{"schemas/t.json:9:36: error bounds-inverted: minimum 5 and maximum 1 leave no value [refund_order]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, tt.files)
			code, out, errOut := runIn(t, dir, tt.args...)
			if code != exitInvalid {
				t.Errorf("exit %d, want %d", code, exitInvalid)
			}
			if got, want := errOut, strings.Join(tt.wantStderr, "\n")+"\n"; got != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", got, want)
			}
			if tt.wantStdout != nil {
				if got, want := strings.SplitN(out, "\n", 2)[0], tt.wantStdout[0]; got != want {
					t.Errorf("stdout starts:\n%s\nwant:\n%s", got, want)
				}
			} else if out != "" {
				t.Errorf("stdout: %s", out)
			}
			if _, err := os.Stat(filepath.Join(dir, "generated")); !os.IsNotExist(err) {
				t.Errorf("the output folder was written (stat: %v)", err)
			}
		})
	}
}
