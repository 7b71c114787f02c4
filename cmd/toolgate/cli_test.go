package main

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The grammar of the workflow commands --format github prints: a level,
// optional file, line, col and title properties (values with %, :, ,, CR
// and LF escaped) and a message (%, CR and LF escaped), on one line.
var (
	ghProp       = `(?:[^%,:\r\n]|%25|%0D|%0A|%3A|%2C)*`
	ghAnnotation = regexp.MustCompile(`^::(error|warning|notice)(?: file=(` + ghProp + `)(?:,line=([1-9][0-9]*)(?:,col=([1-9][0-9]*))?)?(?:,title=(` + ghProp + `))?| title=(` + ghProp + `))?::((?:[^%\r\n]|%25|%0D|%0A)*)$`)
)

// ghLine is one parsed annotation.
type ghLine struct{ level, file, line, col, title, msg string }

// ghUnescape undoes ghEscape.
func ghUnescape(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

// parseGitHub parses every line of out as an annotation and fails on one
// that is not.
func parseGitHub(t *testing.T, out string) []ghLine {
	t.Helper()
	var lines []ghLine
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l == "" && out == "" {
			break
		}
		m := ghAnnotation.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not a workflow-command annotation: %q\nin:\n%s", l, out)
		}
		title := m[5]
		if m[6] != "" {
			title = m[6]
		}
		lines = append(lines, ghLine{m[1], ghUnescape(m[2]), m[3], m[4], ghUnescape(title), ghUnescape(m[7])})
	}
	return lines
}

// sarifLog is what SARIF 2.1.0 requires of a log, a run, its tool and a
// result, and what code scanning reads of a location.
type sarifLog struct {
	Version string `json:"version"`
	Schema  string `json:"$schema"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name    string `json:"name"`
				Version string `json:"version"`
				Rules   []struct {
					ID string `json:"id"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex *int   `json:"ruleIndex"`
			Level     string `json:"level"`
			Message   struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

// parseSARIF decodes out and checks the structure SARIF 2.1.0 requires;
// it returns the log and the decoded path of each result's artifact URI.
func parseSARIF(t *testing.T, out string) (sarifLog, []string) {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("SARIF does not decode: %v\n%s", err, out)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif") || len(log.Runs) != 1 {
		t.Fatalf("SARIF log: version %q, $schema %q, %d run(s); want 2.1.0, a SARIF schema, 1 run", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name != "toolgate" || run.Tool.Driver.Version == "" || len(run.Tool.Driver.Rules) == 0 {
		t.Errorf("driver %+v: want name toolgate, a version and the rules", run.Tool.Driver)
	}
	var paths []string
	for i, r := range run.Results {
		if r.RuleIndex == nil || *r.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[*r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %d: ruleIndex does not point at rule %q", i, r.RuleID)
		}
		if !slices.Contains([]string{"none", "note", "warning", "error"}, r.Level) || r.Message.Text == "" || len(r.Locations) != 1 {
			t.Errorf("result %d: level %q, message %q, %d location(s)", i, r.Level, r.Message.Text, len(r.Locations))
			continue
		}
		loc := r.Locations[0].PhysicalLocation
		u, err := url.Parse(loc.ArtifactLocation.URI)
		if err != nil || u.Scheme != "" || u.Fragment != "" || u.RawQuery != "" || strings.ContainsAny(loc.ArtifactLocation.URI, " \\") {
			t.Errorf("result %d: artifact URI %q is not a relative URI reference with forward slashes (%v)", i, loc.ArtifactLocation.URI, err)
			continue
		}
		if loc.Region.StartLine < 1 || loc.Region.StartColumn < 1 {
			t.Errorf("result %d: region %+v", i, loc.Region)
		}
		paths = append(paths, u.Path)
	}
	return log, paths
}

// decodeStrict decodes out into v, refusing members v does not have.
func decodeStrict(t *testing.T, out string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("JSON does not decode into %T: %v\n%s", v, err, out)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value:\n%s", out)
	}
}

// The fixtures of the CLI table.
const (
	invalidTool = `{"name": "t", "description": "", "parameters": {"type": "object", "properties": {"a": {"oneOf": []}}}}`
	// hostileName would forge a second annotation if a file property
	// were not escaped.
	hostileName = "plan #2,x:y\n::error file=forged.json::forged.json"
)

// danglingLink adds schemas/gone.json, a symlink to nothing: listing the
// folder finds it, reading it fails (exit 4).
func danglingLink(t *testing.T, dir string) {
	if err := os.Symlink(filepath.Join(dir, "nothing-here"), filepath.Join(dir, "schemas", "gone.json")); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
}

// TestCLI is the table of every command: --help on stdout with exit 0,
// --version, each exit code a command can end with, -q, and each --format,
// checked by parsing what is printed.
func TestCLI(t *testing.T) {
	valid := map[string]string{"schemas/t.json": toolFile}
	invalid := map[string]string{"schemas/t.json": invalidTool}
	empty := map[string]string{"schemas/README.md": "not a tool"}
	cleanModule := map[string]string{"go.mod": "module example.com/m\n\ngo 1.26\n", "m.go": "package m\n"}
	diffs := map[string]string{"old/r.json": refundV1, "new/r.json": refundV2}
	quietOK := func(t *testing.T, dir, out, errOut string) {
		if out != "" || errOut != "" {
			t.Errorf("-q printed on success: stdout %q, stderr %q", out, errOut)
		}
	}
	tests := []struct {
		name  string
		files map[string]string
		setup func(t *testing.T, dir string)
		args  []string
		code  int
		// stderr must contain it; "" checks nothing.
		stderr string
		// check parses and checks the output.
		check func(t *testing.T, dir, out, errOut string)
	}{
		{name: "help", args: []string{"--help"}, code: exitOK, check: usageOnStdout("toolgate turns canonical tool schemas")},
		{name: "no command", args: nil, code: exitUsage, stderr: "Usage:"},
		{name: "unknown command", args: []string{"frobnicate"}, code: exitUsage, stderr: `toolgate: unknown command "frobnicate"`},
		{name: "--version", args: []string{"--version"}, code: exitOK, check: versionOnStdout},
		{name: "version", args: []string{"version"}, code: exitOK, check: versionOnStdout},

		// generate
		{name: "generate --help", args: []string{"generate", "--help"}, code: exitOK, check: usageOnStdout("Usage: toolgate generate")},
		{name: "generate", files: valid, args: []string{"generate"}, code: exitOK, check: func(t *testing.T, dir, out, errOut string) {
			if out != "wrote generated/refund_order_tool.go\nwrote generated/toolgate.go\nwrote generated/toolgate_contract_test.go\nwrote generated/toolgate_fuzz_test.go\n" {
				t.Errorf("generate lists %q", out)
			}
		}},
		{name: "generate -q", files: valid, args: []string{"generate", "-q"}, code: exitOK, check: func(t *testing.T, dir, out, errOut string) {
			quietOK(t, dir, out, errOut)
			if _, err := os.Stat(filepath.Join(dir, "generated", "toolgate.go")); err != nil {
				t.Errorf("generate -q wrote nothing: %v", err)
			}
		}},
		{name: "generate --quiet, failing", files: invalid, args: []string{"generate", "--quiet"}, code: exitInvalid, stderr: "toolgate generate: 1 problem(s) in the tool definitions"},
		{name: "generate --format json", files: map[string]string{"schemas/a.json": adminTool}, args: []string{"generate", "--format", "json"}, code: exitOK, check: func(t *testing.T, dir, out, errOut string) {
			var doc generateJSON
			decodeStrict(t, out, &doc)
			if doc.Command != "generate" || doc.ExitCode != exitOK || !slices.Equal(doc.Written, []string{"generated/cancel_order_tool.go", "generated/toolgate.go", "generated/toolgate_contract_test.go", "generated/toolgate_fuzz_test.go"}) || len(doc.Removed) != 0 {
				t.Errorf("document %+v", doc)
			}
			if len(doc.Problems) != 1 || doc.Problems[0] != (problem{File: "schemas/a.json", Line: 2, Column: 81, Pointer: "/parameters/properties/is_admin", Keyword: "trusted-identity", Message: doc.Problems[0].Message, Severity: "warning"}) {
				t.Errorf("problems %+v; want the trusted-identity warning at schemas/a.json:2:81", doc.Problems)
			}
		}},
		{name: "generate --format json, invalid", files: invalid, args: []string{"generate", "--format", "json"}, code: exitInvalid, check: func(t *testing.T, dir, out, errOut string) {
			var doc generateJSON
			decodeStrict(t, out, &doc)
			if doc.ExitCode != exitInvalid || len(doc.Problems) != 1 || doc.Problems[0].File != "schemas/t.json" || doc.Problems[0].Severity != "error" || doc.Problems[0].Pointer == "" || doc.Problems[0].Message == "" || doc.Written == nil {
				t.Errorf("document %+v", doc)
			}
		}},
		{name: "generate --format github is check's", files: valid, args: []string{"generate", "--format", "github"}, code: exitUsage, stderr: "toolgate generate: --format must be human or json"},
		{name: "generate, bad flag", args: []string{"generate", "--nope"}, code: exitUsage, stderr: "toolgate generate: unknown flag: --nope"},
		{name: "generate, missing folder", args: []string{"generate"}, code: exitUsage, stderr: "toolgate generate: ./schemas does not exist (" + schemasHint + ")"},
		{name: "generate, empty folder", files: empty, args: []string{"generate"}, code: exitUsage, stderr: "toolgate generate: no tool files in ./schemas (" + schemasHint + ")"},
		{name: "generate, invalid", files: invalid, args: []string{"generate"}, code: exitInvalid, stderr: "schemas/t.json:1:88: oneOf: invalid schema"},
		{name: "generate, unreadable", files: valid, setup: danglingLink, args: []string{"generate"}, code: exitFailure, stderr: "toolgate generate: stat schemas/gone.json: no such file or directory"},

		// check
		{name: "check --help", args: []string{"check", "--help"}, code: exitOK, check: usageOnStdout("Usage: toolgate check")},
		{name: "check, fresh", files: valid, setup: generated, args: []string{"check"}, code: exitOK, check: func(t *testing.T, dir, out, errOut string) {
			if out != "" || errOut != "" {
				t.Errorf("check of fresh code printed %q %q", out, errOut)
			}
		}},
		{name: "check -q, stale", files: valid, args: []string{"check", "-q"}, code: exitDrift, stderr: "toolgate check: 4 generated file(s) out of date"},
		{name: "check -q, fresh", files: valid, setup: generated, args: []string{"check", "-q"}, code: exitOK, check: quietOK},
		{name: "check --format json", files: valid, setup: staleAndExtra, args: []string{"check", "--format", "json"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			var doc checkJSON
			decodeStrict(t, out, &doc)
			if doc.Command != "check" || doc.ExitCode != exitDrift || len(doc.Problems) != 0 ||
				!slices.Equal(doc.Stale, []string{"generated/refund_order_tool.go"}) || !slices.Equal(doc.Missing, []string{}) || !slices.Equal(doc.Extra, []string{"generated/old_tool.go"}) {
				t.Errorf("document %+v", doc)
			}
		}},
		{name: "check --format json, missing", files: valid, args: []string{"check", "--format", "json"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			var doc checkJSON
			decodeStrict(t, out, &doc)
			if !slices.Equal(doc.Missing, []string{"generated/refund_order_tool.go", "generated/toolgate.go", "generated/toolgate_contract_test.go", "generated/toolgate_fuzz_test.go"}) || len(doc.Stale)+len(doc.Extra) != 0 {
				t.Errorf("document %+v", doc)
			}
		}},
		{name: "check --format github", files: valid, setup: staleAndExtra, args: []string{"check", "--format", "github"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			got := parseGitHub(t, out)
			if len(got) != 2 || got[0].level != "error" || got[0].file != "generated/old_tool.go" || got[1].file != "generated/refund_order_tool.go" || !strings.Contains(got[1].msg, "stale") {
				t.Errorf("annotations %+v", got)
			}
		}},
		{name: "check --format github, warnings", files: map[string]string{"schemas/a.json": adminTool}, setup: generated, args: []string{"check", "--format", "github"}, code: exitOK, check: func(t *testing.T, dir, out, errOut string) {
			got := parseGitHub(t, out)
			if len(got) != 1 || got[0] != (ghLine{"warning", "schemas/a.json", "2", "81", "trusted-identity", got[0].msg}) {
				t.Errorf("annotations %+v", got)
			}
		}},
		{name: "check --format github, invalid", files: invalid, args: []string{"check", "--format", "github"}, code: exitInvalid, check: func(t *testing.T, dir, out, errOut string) {
			if got := parseGitHub(t, out); len(got) != 1 || got[0].level != "error" || got[0].file != "schemas/t.json" {
				t.Errorf("annotations %+v", got)
			}
		}},
		{name: "check, bad format", files: valid, args: []string{"check", "--format", "xml"}, code: exitUsage, stderr: "toolgate check: --format must be human, json or github"},
		{name: "check, missing folder", args: []string{"check", "--schemas", "nowhere"}, code: exitUsage, stderr: "toolgate check: ./nowhere does not exist (" + schemasHint + ")"},
		{name: "check, empty folder", files: empty, args: []string{"check"}, code: exitUsage, stderr: "toolgate check: no tool files in ./schemas"},
		{name: "check, invalid", files: invalid, args: []string{"check"}, code: exitInvalid, stderr: "toolgate check: 1 problem(s) in the tool definitions"},
		{name: "check, unreadable", files: valid, setup: danglingLink, args: []string{"check"}, code: exitFailure, stderr: "toolgate check: stat schemas/gone.json: no such file or directory"},

		// export
		{name: "export --help", args: []string{"export", "--help"}, code: exitOK, check: usageOnStdout("Usage: toolgate export")},
		{name: "export", files: valid, args: []string{"export", "--provider", "mcp"}, code: exitOK, check: exportsOne},
		{name: "export -q", files: map[string]string{"schemas/t.json": toolFile, "schemas/u.json": `{"name": "u.v2", "description": "", "parameters": {"type": "object"}}`}, args: []string{"export", "-q", "--provider", "anthropic"}, code: exitOK, check: func(t *testing.T, dir, out, errOut string) {
			exportsOne(t, dir, out, errOut)
			if errOut != "" {
				t.Errorf("export -q printed its notices: %q", errOut)
			}
		}},
		{name: "export, no provider", files: valid, args: []string{"export"}, code: exitUsage, stderr: "toolgate export: --provider is required"},
		{name: "export, missing folder", args: []string{"export", "--provider", "mcp"}, code: exitUsage, stderr: "toolgate export: ./schemas does not exist"},
		{name: "export, empty folder", files: empty, args: []string{"export", "--provider", "mcp"}, code: exitUsage, stderr: "toolgate export: no tool files in ./schemas"},
		{name: "export, invalid", files: invalid, args: []string{"export", "--provider", "mcp"}, code: exitInvalid, stderr: "toolgate export: 1 problem(s)"},
		{name: "export, unreadable", files: valid, setup: danglingLink, args: []string{"export", "--provider", "mcp"}, code: exitFailure, stderr: "toolgate export: stat schemas/gone.json: no such file or directory"},

		// lint
		{name: "lint --help", args: []string{"lint", "--help"}, code: exitOK, check: usageOnStdout("Usage: toolgate lint")},
		{name: "lint", files: map[string]string{"schemas/a.json": cleanTool}, args: []string{"lint"}, code: exitOK, check: func(t *testing.T, dir, out, errOut string) {
			if out != "0 error(s), 0 warning(s), 0 hint(s)\n" || errOut != "" {
				t.Errorf("stdout %q, stderr %q", out, errOut)
			}
		}},
		{name: "lint -q", files: map[string]string{"schemas/a.json": cleanTool}, args: []string{"lint", "-q"}, code: exitOK, check: quietOK},
		{name: "lint -q, failing", files: map[string]string{"schemas/a.json": adminTool}, args: []string{"lint", "-q"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			if !strings.Contains(out, "schemas/a.json:2:81: error trusted-identity:") {
				t.Errorf("lint -q did not print the finding of a failing run: %q", out)
			}
		}},
		{name: "lint --format json", files: map[string]string{"schemas/a.json": adminTool}, args: []string{"lint", "--format", "json"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			var doc struct {
				Findings []struct {
					Rule, Severity, Tool, File, Pointer, Message string
					Line, Column                                 int
				} `json:"findings"`
				Counts     map[string]int `json:"counts"`
				Suppressed map[string]int `json:"suppressed"`
			}
			decodeStrict(t, out, &doc)
			if len(doc.Findings) != 1 || doc.Findings[0].Rule != "trusted-identity" || doc.Findings[0].Line != 2 || doc.Findings[0].Column != 81 || doc.Counts["trusted-identity"] != 1 {
				t.Errorf("document %+v", doc)
			}
		}},
		{name: "lint --format sarif", files: map[string]string{"schemas/a.json": adminTool}, args: []string{"lint", "--format", "sarif"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			log, paths := parseSARIF(t, out)
			if len(log.Runs[0].Results) != 1 || log.Runs[0].Results[0].RuleID != "trusted-identity" || log.Runs[0].Results[0].Level != "error" || !slices.Equal(paths, []string{"schemas/a.json"}) {
				t.Errorf("results %+v, paths %q", log.Runs[0].Results, paths)
			}
		}},
		{name: "lint --format sarif, a name to encode", files: map[string]string{"schemas/plan #2.json": adminTool}, args: []string{"lint", "--format", "sarif"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			log, paths := parseSARIF(t, out)
			if uri := log.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI; uri != "schemas/plan%20%232.json" || !slices.Equal(paths, []string{"schemas/plan #2.json"}) {
				t.Errorf("uri %q, paths %q", uri, paths)
			}
		}},
		{name: "lint --format github", files: map[string]string{"schemas/a.json": adminTool, "schemas/b.json": strings.Replace(cleanTool, `"The order."`, `""`, 1)}, args: []string{"lint", "--format", "github"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			got := parseGitHub(t, out)
			if len(got) < 2 || got[0] != (ghLine{"error", "schemas/a.json", "2", "81", "trusted-identity", got[0].msg}) {
				t.Fatalf("annotations %+v", got)
			}
			if !slices.ContainsFunc(got, func(l ghLine) bool {
				return l.level == "warning" && l.file == "schemas/b.json" && l.title == "param-desc"
			}) {
				t.Errorf("no param-desc warning on b.json: %+v", got)
			}
		}},
		{name: "lint --format github, a hostile file name", files: map[string]string{"schemas/" + hostileName + ".json": adminTool}, args: []string{"lint", "--format", "github"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			got := parseGitHub(t, out)
			if len(got) != 1 || got[0].file != "schemas/"+hostileName+".json" || got[0].line != "2" {
				t.Errorf("annotations %+v; want one, on the file as named", got)
			}
		}},
		{name: "lint --format github, invalid JSON", files: map[string]string{"schemas/a.json": cleanTool, "schemas/b.json": `{"name": `}, args: []string{"lint", "--format", "github"}, code: exitInvalid, check: func(t *testing.T, dir, out, errOut string) {
			if got := parseGitHub(t, out); len(got) != 1 || got[0].level != "error" || got[0].file != "schemas/b.json" {
				t.Errorf("annotations %+v", got)
			}
		}},
		{name: "lint, invalid JSON", files: map[string]string{"schemas/a.json": `{"name": `}, args: []string{"lint"}, code: exitInvalid, check: func(t *testing.T, dir, out, errOut string) {
			if out != "0 error(s), 0 warning(s), 0 hint(s); 1 invalid tool definition(s)\n" || !strings.HasPrefix(errOut, "schemas/a.json") || !strings.HasSuffix(errOut, "toolgate lint: 1 problem(s) in the tool definitions\n") {
				t.Errorf("stdout %q, stderr %q", out, errOut)
			}
		}},
		{name: "lint, bad format", files: valid, args: []string{"lint", "--format", "xml"}, code: exitUsage, stderr: "toolgate lint: --format must be human, json, sarif or github"},
		{name: "lint, missing folder", args: []string{"lint"}, code: exitUsage, stderr: "toolgate lint: ./schemas does not exist (" + schemasHint + ")"},
		{name: "lint, empty folder", files: empty, args: []string{"lint"}, code: exitUsage, stderr: "toolgate lint: no tool files in ./schemas (" + schemasHint + ")"},
		{name: "lint, unreadable", files: valid, setup: danglingLink, args: []string{"lint"}, code: exitFailure, stderr: "toolgate lint: stat schemas/gone.json: no such file or directory"},

		// diff
		{name: "diff --help", args: []string{"diff", "--help"}, code: exitOK, check: usageOnStdout("Usage: toolgate diff")},
		{name: "diff, compatible", files: map[string]string{"old/r.json": refundV1, "new/r.json": refundV1}, args: []string{"diff", "old", "new"}, code: exitOK, check: func(t *testing.T, dir, out, errOut string) {
			if out != "0 breaking (0 allowed), 0 widening, 0 compatible\n" {
				t.Errorf("stdout %q", out)
			}
		}},
		{name: "diff -q", files: map[string]string{"old/r.json": refundV1, "new/r.json": refundV3}, args: []string{"diff", "-q", "old", "new"}, code: exitOK, check: quietOK},
		{name: "diff -q, breaking", files: diffs, args: []string{"diff", "-q", "old", "new"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			if !strings.Contains(out, "2 breaking (0 allowed)") {
				t.Errorf("diff -q did not print the report of a failing run: %q", out)
			}
		}},
		{name: "diff --format json", files: diffs, args: []string{"diff", "--format", "json", "old", "new"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			var doc map[string]json.RawMessage
			decodeStrict(t, out, &doc)
			if _, ok := doc["tools"]; !ok {
				t.Errorf("no tools in %s", out)
			}
		}},
		{name: "diff --format markdown", files: diffs, args: []string{"diff", "--format", "markdown", "old", "new"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			if !strings.HasPrefix(out, "### toolgate diff: 2 breaking") {
				t.Errorf("markdown %q", out)
			}
		}},
		{name: "diff --format github", files: diffs, args: []string{"diff", "--format", "github", "old", "new"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			got := parseGitHub(t, out)
			if len(got) != 2 {
				t.Fatalf("annotations %+v, want 2", got)
			}
			for _, l := range got {
				if l.level != "error" || l.file != "new/r.json" || !strings.HasPrefix(l.msg, "refund_order: breaking "+l.title) {
					t.Errorf("annotation %+v", l)
				}
			}
		}},
		{name: "diff --format github, allowed", files: map[string]string{"old/r.json": refundV1, "new/r.json": refundV2, "toolgate-diff.json": `{"allow": [{"tool": "refund_order", "change": "bound-narrowed", "reason": "capped, by contract"}]}`}, args: []string{"diff", "--format", "github", "old", "new"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			got := parseGitHub(t, out)
			if !slices.ContainsFunc(got, func(l ghLine) bool {
				return l.level == "warning" && l.title == "bound-narrowed" && strings.HasSuffix(l.msg, "; allowed: capped, by contract")
			}) {
				t.Errorf("annotations %+v; want the allowed change as a warning with its reason", got)
			}
		}},
		{name: "diff, one path", files: diffs, args: []string{"diff", "old"}, code: exitUsage, stderr: "toolgate diff: give OLD and NEW"},
		{name: "diff, missing folder", files: diffs, args: []string{"diff", "old", "nowhere"}, code: exitUsage, stderr: "toolgate diff: ./nowhere does not exist (OLD and NEW name folders"},
		{name: "diff, empty folder is no tools", files: map[string]string{"old/r.json": refundV1, "new/README.md": ""}, args: []string{"diff", "old", "new"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			if !strings.Contains(out, "refund_order (removed, was sha256:") {
				t.Errorf("stdout %q", out)
			}
		}},
		{name: "diff, invalid", files: map[string]string{"old/r.json": refundV1, "new/r.json": `{"name": "r"}`}, args: []string{"diff", "old", "new"}, code: exitInvalid, stderr: "toolgate diff: 1 problem(s)"},
		{name: "diff, unreadable", files: map[string]string{"old/r.json": refundV1, "schemas/r.json": refundV1}, setup: danglingLink, args: []string{"diff", "old", "schemas"}, code: exitFailure, stderr: "toolgate diff: stat schemas/gone.json: no such file or directory"},

		// test
		{name: "test --help", args: []string{"test", "--help"}, code: exitOK, check: usageOnStdout("Usage: toolgate test")},
		{name: "test", files: withCalls(map[string]string{"schemas/r.json": refundV1}), args: []string{"test", "--calls", "calls"}, code: exitOK, check: func(t *testing.T, dir, out, errOut string) {
			if !strings.HasSuffix(out, "3 call(s): 3 as recorded, 0 changed, 0 not replayable\n") {
				t.Errorf("stdout %q", out)
			}
		}},
		{name: "test -q", files: withCalls(map[string]string{"schemas/r.json": refundV1}), args: []string{"test", "-q", "--calls", "calls"}, code: exitOK, check: quietOK},
		{name: "test -q, changed", files: withCalls(map[string]string{"schemas/r.json": refundV2}), args: []string{"test", "-q", "--calls", "calls"}, code: exitDrift, check: func(t *testing.T, dir, out, errOut string) {
			if !strings.Contains(out, "FAIL  accepted-big.json") {
				t.Errorf("test -q did not print the failing run: %q", out)
			}
		}},
		{name: "test, no calls", files: valid, args: []string{"test"}, code: exitUsage, stderr: "toolgate test: --calls is required"},
		{name: "test, missing calls", files: valid, args: []string{"test", "--calls", "nowhere"}, code: exitUsage, stderr: "toolgate test: ./nowhere does not exist (" + callsHint + ")"},
		{name: "test, missing folder", files: calls, args: []string{"test", "--calls", "calls"}, code: exitUsage, stderr: "toolgate test: ./schemas does not exist (" + schemasHint + ")"},
		{name: "test, empty folder", files: withCalls(empty), args: []string{"test", "--calls", "calls"}, code: exitUsage, stderr: "toolgate test: no tool files in ./schemas"},
		{name: "test, invalid", files: withCalls(invalid), args: []string{"test", "--calls", "calls"}, code: exitInvalid, stderr: "toolgate test: 1 problem(s)"},
		{name: "test, unreadable", files: withCalls(valid), setup: danglingLink, args: []string{"test", "--calls", "calls"}, code: exitFailure, stderr: "toolgate test: stat schemas/gone.json: no such file or directory"},

		// vet (its findings, exit 1, are vet_test.go's)
		{name: "vet --help", args: []string{"vet", "--help"}, code: exitOK, check: usageOnStdout("Usage: toolgate vet")},
		{name: "vet -q", files: cleanModule, args: []string{"vet", "-q", "./..."}, code: exitOK, check: quietOK},
		{name: "vet, unknown flag", args: []string{"vet", "--nope"}, code: exitUsage, stderr: "toolgate vet: unknown flag: --nope"},
		{name: "vet, no module", files: valid, args: []string{"vet", "./..."}, code: exitFailure, stderr: "toolgate vet: "},
	}
	// Every command is run to every exit code it can end with (generate
	// and export find no drift, version and help only succeed; vet's
	// findings are vet_test.go's), with
	// --help and with -q.
	want := map[string][]int{
		"generate": {exitOK, exitUsage, exitInvalid, exitFailure},
		"check":    {exitOK, exitDrift, exitUsage, exitInvalid, exitFailure},
		"export":   {exitOK, exitUsage, exitInvalid, exitFailure},
		"lint":     {exitOK, exitDrift, exitUsage, exitInvalid, exitFailure},
		"diff":     {exitOK, exitDrift, exitUsage, exitInvalid, exitFailure},
		"test":     {exitOK, exitDrift, exitUsage, exitInvalid, exitFailure},
		"vet":      {exitOK, exitUsage, exitFailure},
	}
	for cmd, codes := range want {
		var seen []int
		help, quiet := false, false
		for _, tt := range tests {
			if len(tt.args) > 0 && tt.args[0] == cmd {
				if !slices.Contains(seen, tt.code) {
					seen = append(seen, tt.code)
				}
				help = help || slices.Contains(tt.args, "--help")
				quiet = quiet || slices.Contains(tt.args, "-q")
			}
		}
		slices.Sort(seen)
		if !slices.Equal(seen, codes) || !help || !quiet {
			t.Errorf("%s: the table has exit codes %v (want %v), --help %v, -q %v", cmd, seen, codes, help, quiet)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, tt.files)
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			code, out, errOut := runIn(t, dir, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
			if !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, errOut)
			}
			if tt.code != exitOK {
				messagesNameTheCommand(t, tt.args, errOut)
			}
			if tt.check != nil {
				tt.check(t, dir, out, errOut)
			}
		})
	}
}

// messagesNameTheCommand checks that every line on stderr that is not a
// problem in a tool file (file:line:column or file#pointer) starts with
// "toolgate COMMAND" (or "toolgate: " for no command of that name), up to
// the usage that may follow the messages (after a blank line or a line
// starting "Usage:").
func messagesNameTheCommand(t *testing.T, args []string, errOut string) {
	t.Helper()
	if len(args) == 0 {
		return // the usage alone
	}
	prefix := "toolgate " + args[0]
	place := regexp.MustCompile(`^\S*\.json(:\d+:\d+|#/|: )`)
	for _, l := range strings.Split(errOut, "\n") {
		if l == "" || strings.HasPrefix(l, "Usage:") {
			return
		}
		if !strings.HasPrefix(l, prefix) && !strings.HasPrefix(l, "toolgate: ") && !place.MatchString(l) {
			t.Errorf("message %q does not start with %q", l, prefix)
		}
	}
}

func usageOnStdout(prefix string) func(t *testing.T, dir, out, errOut string) {
	return func(t *testing.T, dir, out, errOut string) {
		if !strings.HasPrefix(out, prefix) || errOut != "" {
			t.Errorf("stdout %.80q, stderr %q; want the usage on stdout only", out, errOut)
		}
	}
}

func versionOnStdout(t *testing.T, dir, out, errOut string) {
	if !regexp.MustCompile(`^toolgate \S+.*\ngenerated code: runtime version [0-9]+\n$`).MatchString(out) || errOut != "" {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
}

// exportsOne checks that stdout is a JSON array of refund_order's
// definition alone.
func exportsOne(t *testing.T, dir, out, errOut string) {
	var defs []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &defs); err != nil || len(defs) != 1 || !bytes.Contains(defs[0]["name"], []byte("refund_order")) {
		t.Errorf("export printed %v: %s", err, out)
	}
}

// generated runs generate in dir.
func generated(t *testing.T, dir string) {
	if code, _, errOut := runIn(t, dir, "generate"); code != exitOK {
		t.Fatalf("generate: %s", errOut)
	}
}

// staleAndExtra generates, then edits a generated file and adds one no
// tool produces.
func staleAndExtra(t *testing.T, dir string) {
	generated(t, dir)
	p := filepath.Join(dir, "generated", "refund_order_tool.go")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "generated"), "refund_order_tool.go", string(data)+"// edited\n")
	writeFile(t, filepath.Join(dir, "generated"), "old_tool.go", "// Code generated by toolgate. DO NOT EDIT.\n\npackage generated\n")
}
