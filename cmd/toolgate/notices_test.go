package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProvidersLeftOutAreNotices: with no providers chosen, a tool a
// provider cannot carry goes to the others; generate and export succeed
// and print one notice per tool and provider left out, with the reason, on
// stderr only.
func TestProvidersLeftOutAreNotices(t *testing.T) {
	files := map[string]string{
		"schemas/a.json": `{"name": "math.factorial", "description": "", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}`,
		"schemas/b.json": `{"name": "annotate", "description": "", "parameters": {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": true}}}}`,
		"schemas/c.json": `{"name": "lookup", "description": "", "parameters": {"type": "object"}, "x-toolgate": {"providers": ["mcp"]}}`,
		"schemas/d.json": toolFile,
	}
	dir := workspace(t, files)
	code, out, errOut := runIn(t, dir, "generate")
	if code != exitOK {
		t.Fatalf("generate: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	want := []string{
		"toolgate generate: notice: schemas/b.json:1:89: tool annotate is not exported to openai-chat: strict mode needs additionalProperties: false on every object; this one is open (at /parameters/properties/m)",
		"toolgate generate: notice: schemas/b.json:1:89: tool annotate is not exported to openai-responses: strict mode needs additionalProperties: false on every object; this one is open (at /parameters/properties/m)",
		"toolgate generate: notice: schemas/b.json:1:113: tool annotate is not exported to gemini-legacy: open objects and maps cannot be expressed in the OpenAPI subset (at /parameters/properties/m/additionalProperties)",
		"toolgate generate: notice: schemas/a.json:1:2: tool math.factorial is not exported to openai-chat: the name does not match ^[a-zA-Z0-9_-]{1,64}$ (at /name)",
		"toolgate generate: notice: schemas/a.json:1:2: tool math.factorial is not exported to openai-responses: the name does not match ^[a-zA-Z0-9_-]{1,64}$ (at /name)",
		"toolgate generate: notice: schemas/a.json:1:2: tool math.factorial is not exported to anthropic: the name does not match ^[a-zA-Z0-9_-]{1,64}$ (at /name)",
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("generate's notices:\n%s\nwant:\n%s", errOut, strings.Join(want, "\n"))
	}
	if strings.Contains(out, "notice") {
		t.Errorf("a notice went to stdout: %s", out)
	}
	src, err := os.ReadFile(filepath.Join(dir, "generated", "annotate_tool.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "// Not exported to openai-chat, which cannot carry it faithfully: strict mode") {
		t.Errorf("the generated package does not say why annotate is not exported to openai-chat")
	}
	if code, _, errOut := runIn(t, dir, "check"); code != exitOK || errOut != "" {
		t.Errorf("check: exit %d, stderr %q; want 0 and no notice", code, errOut)
	}

	code, out, errOut = runIn(t, dir, "export", "--provider", "openai-chat")
	if code != exitOK {
		t.Fatalf("export: exit %d\nstderr: %s", code, errOut)
	}
	var defs []struct {
		Function struct{ Name string } `json:"function"`
	}
	if err := json.Unmarshal([]byte(out), &defs); err != nil {
		t.Fatalf("export's stdout is not a JSON array: %v\n%s", err, out)
	}
	if len(defs) != 1 || defs[0].Function.Name != "refund_order" {
		t.Errorf("export sent %+v, want refund_order alone", defs)
	}
	for _, w := range []string{
		"toolgate export: notice: schemas/a.json:1:2: tool math.factorial is not exported to openai-chat: the name does not match",
		"toolgate export: notice: schemas/b.json:1:89: tool annotate is not exported to openai-chat: strict mode needs",
		"toolgate export: notice: schemas/c.json:1:1: tool lookup is not exported to openai-chat: x-toolgate.providers leaves it out (at the document root)",
	} {
		if !strings.Contains(errOut, w) {
			t.Errorf("export's stderr lacks %q:\n%s", w, errOut)
		}
	}

	// Chosen providers are held to: a listed provider that cannot carry a
	// tool is an invalid definition, for generate and export alike.
	for _, args := range [][]string{
		{"generate", "--providers", "openai-chat,mcp"},
		{"export", "--provider", "openai-chat", "--providers", "openai-chat"},
	} {
		code, _, errOut := runIn(t, dir, args...)
		if code != exitInvalid || !strings.Contains(errOut, "tool math.factorial cannot be sent to openai-chat: the name does not match") || !strings.Contains(errOut, "the providers option (--providers) lists openai-chat") {
			t.Errorf("%v: exit %d, want %d naming the tool and provider:\n%s", args, code, exitInvalid, errOut)
		}
	}
}
