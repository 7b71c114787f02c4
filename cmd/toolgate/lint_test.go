package main

import (
	"encoding/json"
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
		{"trusted-identity only in the tool file", map[string]string{"schemas/a.json": adminTool, "toolgate-lint.json": `{"disable": [{"rule": "trusted-identity", "tool": "cancel_order", "reason": "admins only"}]}`}, nil, exitInvalid, "", "only in the tool file"},
		{"bad config", map[string]string{"schemas/a.json": cleanTool, "toolgate-lint.json": `{"disable": [{"rule": "trusted-identity", "tool": "x"}]}`}, nil, exitInvalid, "", "needs a reason"},
		{"missing explicit config", map[string]string{"schemas/a.json": cleanTool}, []string{"--lint-config", "nope.json"}, exitFailure, "", "nope.json"},
		{"warnings pass", map[string]string{"schemas/a.json": strings.Replace(cleanTool, `"The order."`, `""`, 1)}, nil, exitOK, "warning param-desc", ""},
		{"warnings fail on request", map[string]string{"schemas/a.json": strings.Replace(cleanTool, `"The order."`, `""`, 1)}, []string{"--fail-on", "warning", "--min-severity", "warning"}, exitDrift, "warning param-desc", ""},
		{"errors only shown", map[string]string{"schemas/a.json": strings.Replace(cleanTool, `"The order."`, `""`, 1)}, []string{"--min-severity", "error"}, exitOK, "0 error(s), 0 warning(s), 0 hint(s)", ""},
		{"bad fail-on", map[string]string{"schemas/a.json": cleanTool}, []string{"--fail-on", "hint"}, exitUsage, "", "--fail-on"},
		{"bad format", map[string]string{"schemas/a.json": cleanTool}, []string{"--format", "xml"}, exitUsage, "", "--format"},
		{"bad provider", map[string]string{"schemas/a.json": cleanTool}, []string{"--providers", "nobody"}, exitUsage, "", "nobody"},
		{"invalid tool beside a linted one", map[string]string{"schemas/a.json": adminTool, "schemas/b.json": `{"name": "x y"}`}, nil, exitInvalid, "error trusted-identity", "does not match"},
		{"missing folder", map[string]string{}, []string{"--schemas", "nowhere"}, exitFailure, "", "nowhere"},
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

func TestGenerateRunsErrorRules(t *testing.T) {
	dir := workspace(t, map[string]string{"schemas/a.json": adminTool, "generated/doc.go": "// Package generated holds the tools.\npackage generated\n"})
	for _, cmd := range []string{"generate", "check"} {
		code, out, errOut := runIn(t, dir, cmd)
		if code != exitInvalid || !strings.Contains(errOut, "error trusted-identity") || strings.Contains(out, "wrote") {
			t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", cmd, code, exitInvalid, out, errOut)
		}
	}
	// Warnings do not stop generate; a disabled error does not either.
	dir = workspace(t, map[string]string{"schemas/a.json": strings.Replace(adminTool, `"x-toolgate"`, `"x-toolgate-lint": {"disable": [{"rule": "trusted-identity", "reason": "the console sets it from the session"}]}, "x-toolgate"`, 1), "generated/doc.go": "// Package generated holds the tools.\npackage generated\n"})
	if code, _, errOut := runIn(t, dir, "generate"); code != exitOK {
		t.Errorf("generate with the rule disabled: exit %d\n%s", code, errOut)
	}
}
