package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const cleanTool = `{"name": "cancel_order", "description": "Cancel an open order. Use when the customer asks to cancel; not for shipped orders. Returns the cancelled order.",
 "parameters": {"type": "object", "additionalProperties": false, "properties": {"order_id": {"type": "string", "maxLength": 20, "description": "The order."}}, "required": ["order_id"]},
 "x-toolgate": {"providers": ["mcp"]}}`

// adminTool has a trusted-identity error at line 2.
const adminTool = `{"name": "cancel_order", "description": "Cancel an open order. Use when the customer asks to cancel; not for shipped orders. Returns the cancelled order.",
 "parameters": {"type": "object", "additionalProperties": false, "properties": {"is_admin": {"type": "boolean", "description": "Whether an admin asks."}}, "required": ["is_admin"]},
 "x-toolgate": {"providers": ["mcp"]}}`

func TestLintExitCodesAndFormats(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"clean", map[string]string{"schemas/a.json": cleanTool}, nil, exitOK, "0 error(s), 0 warning(s), 0 hint(s)", ""},
		{"error", map[string]string{"schemas/a.json": adminTool}, nil, exitDrift, "schemas/a.json:2:81: error trusted-identity:", ""},
		{"disabled by config", map[string]string{"schemas/a.json": strings.Replace(cleanTool, `"The order."`, `""`, 1), "toolgate-lint.json": `{"disable": [{"rule": "param-desc", "tool": "cancel_order", "reason": "the name says it"}]}`}, nil, exitOK, "param-desc             1 disabled with a reason", ""},
		{"trusted-identity in a config needs a file", map[string]string{"schemas/a.json": adminTool, "toolgate-lint.json": `{"disable": [{"rule": "trusted-identity", "tool": "cancel_order", "reason": "admins only"}]}`}, nil, exitInvalid, "", "needs a file (a path or a glob)"},
		{"trusted-identity disabled for a glob", map[string]string{"schemas/a.json": adminTool, "toolgate-lint.json": `{"disable": [{"rule": "trusted-identity", "file": "schemas/*.json", "reason": "a vendor's tools: the gateway sets the caller"}]}`}, nil, exitOK, "trusted-identity       1 disabled with a reason", ""},
		{"bad config", map[string]string{"schemas/a.json": cleanTool, "toolgate-lint.json": `{"disable": [{"rule": "trusted-identity", "tool": "x"}]}`}, nil, exitInvalid, "", "needs a reason"},
		{"missing explicit config", map[string]string{"schemas/a.json": cleanTool}, []string{"--lint-config", "nope.json"}, exitFailure, "", "nope.json"},
		{"warnings pass", map[string]string{"schemas/a.json": strings.Replace(cleanTool, `"The order."`, `""`, 1)}, nil, exitOK, "warning param-desc", ""},
		{"warnings fail on request", map[string]string{"schemas/a.json": strings.Replace(cleanTool, `"The order."`, `""`, 1)}, []string{"--fail-on", "warning", "--min-severity", "warning"}, exitDrift, "warning param-desc", ""},
		{"errors only shown", map[string]string{"schemas/a.json": strings.Replace(cleanTool, `"The order."`, `""`, 1)}, []string{"--min-severity", "error"}, exitOK, "0 error(s), 0 warning(s), 0 hint(s)", ""},
		{"bad fail-on", map[string]string{"schemas/a.json": cleanTool}, []string{"--fail-on", "hint"}, exitUsage, "", "--fail-on"},
		{"bad format", map[string]string{"schemas/a.json": cleanTool}, []string{"--format", "xml"}, exitUsage, "", "--format"},
		{"bad provider", map[string]string{"schemas/a.json": cleanTool}, []string{"--providers", "nobody"}, exitUsage, "", "nobody"},
		{"invalid tool beside a linted one", map[string]string{"schemas/a.json": adminTool, "schemas/b.json": `{"name": "x y"}`}, nil, exitInvalid, "error trusted-identity", "does not match"},
		{"missing folder", map[string]string{}, []string{"--schemas", "nowhere"}, exitUsage, "", "nowhere"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, tt.files)
			code, out, errOut := runIn(t, dir, append([]string{"lint"}, tt.args...)...)
			if code != tt.code || !strings.Contains(out, tt.stdout) || !strings.Contains(errOut, tt.stderr) {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
		})
	}
	dir := workspace(t, map[string]string{"schemas/a.json": adminTool})
	for _, format := range []string{"json", "sarif"} {
		code, out, _ := runIn(t, dir, "lint", "--format", format)
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitDrift {
			t.Fatalf("%s: exit %d, %v\n%s", format, code, err, out)
		}
		if !strings.Contains(out, `"trusted-identity"`) || !strings.Contains(out, `"schemas/a.json"`) {
			t.Errorf("%s output lacks the finding:\n%s", format, out)
		}
	}
}

// TestGenerateRefusesOnlyCertainRules: generate and check refuse a tool
// only for a certain finding (bounds no value satisfies); a heuristic
// finding (trusted-identity) or a generator warning (an invalid default, an
// unknown format, a root without its type) is printed as a warning with
// file:line:column and pointer, the code is written, and lint --fail-on
// warning fails on them.
func TestGenerateRefusesOnlyCertainRules(t *testing.T) {
	doc := "generated/doc.go"
	pkg := "// Package generated holds the tools.\npackage generated\n"
	defaultTool := strings.Replace(cleanTool, `"The order."}`, `"The order."}, "notify": {"type": "boolean", "default": "dontcare", "description": "Whether to tell the customer; true by default."}`, 1)
	formatTool := strings.Replace(cleanTool, `"maxLength": 20,`, `"maxLength": 20, "format": "json",`, 1)
	rootTool := strings.Replace(cleanTool, `{"type": "object", "additionalProperties": false,`, `{"additionalProperties": false,`, 1)
	boundsTool := strings.Replace(cleanTool, `"maxLength": 20,`, `"minLength": 30, "maxLength": 20,`, 1)
	tests := []struct {
		name string
		tool string
		// warning is the line generate prints, "" for a refused tool.
		warning string
		// lintCode is lint's exit code with no flags.
		lintCode int
		// absent is what the generated tool file must not hold.
		absent string
	}{
		{"heuristic trusted-identity", adminTool, "schemas/a.json:2:81: warning trusted-identity: \"is_admin\" claims authority for the caller", exitDrift, ""},
		{"invalid default", defaultTool, "schemas/a.json:2:189: warning default-invalid: the default \"dontcare\" does not satisfy its own schema", exitDrift, "NotifyOrDefault"},
		{"unknown format", formatTool, "schemas/a.json:2:129: warning format-unknown: format \"json\" is not one toolgate asserts", exitOK, ".Format("},
		{"root without a type", rootTool, "schemas/a.json:2:2: warning root-type-implied: the schema declares properties but no type", exitOK, ""},
		{"inverted bounds", boundsTool, "", exitDrift, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workspace(t, map[string]string{"schemas/a.json": tt.tool, doc: pkg})
			code, out, errOut := runIn(t, dir, "generate")
			if tt.warning == "" {
				if code != exitInvalid || strings.Contains(out, "wrote") || strings.Contains(errOut, "warning") {
					t.Errorf("generate: exit %d, want %d and nothing written\nstdout: %s\nstderr: %s", code, exitInvalid, out, errOut)
				}
				return
			}
			if code != exitOK || !strings.Contains(out, "wrote") || !strings.HasPrefix(errOut, tt.warning) || !strings.Contains(errOut, " (at /parameters") {
				t.Fatalf("generate: exit %d, want 0 and the warning %q\nstdout: %s\nstderr: %s", code, tt.warning, out, errOut)
			}
			src, err := os.ReadFile(filepath.Join(dir, "generated", "cancel_order_tool.go"))
			if err != nil || (tt.absent != "" && strings.Contains(string(src), tt.absent)) {
				t.Errorf("the generated tool file holds %q (%v)", tt.absent, err)
			}
			if code, _, checkErr := runIn(t, dir, "check"); code != exitOK || checkErr != strings.ReplaceAll(errOut, "toolgate generate:", "toolgate check:") {
				t.Errorf("check: exit %d, stderr %q; want 0 and the same warnings as generate", code, checkErr)
			}
			if code, out, _ := runIn(t, dir, "lint"); code != tt.lintCode {
				t.Errorf("lint: exit %d, want %d\n%s", code, tt.lintCode, out)
			}
			if code, out, _ := runIn(t, dir, "lint", "--fail-on", "warning"); code != exitDrift {
				t.Errorf("lint --fail-on warning: exit %d, want %d\n%s", code, exitDrift, out)
			}
		})
	}
	// A heuristic disabled with a reason is not printed at all.
	dir := workspace(t, map[string]string{"schemas/a.json": strings.Replace(adminTool, `"x-toolgate"`, `"x-toolgate-lint": {"disable": [{"rule": "trusted-identity", "reason": "the console sets it from the session"}]}, "x-toolgate"`, 1), doc: pkg})
	if code, _, errOut := runIn(t, dir, "generate"); code != exitOK || errOut != "" {
		t.Errorf("generate with the rule disabled: exit %d, stderr %q; want 0 and nothing", code, errOut)
	}
}
