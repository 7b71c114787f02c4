package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStrictOneOf: an ambiguous oneOf is a warning naming both branches
// and a value both accept; --strict-oneof makes it an error (exit 3, no
// file written).
func TestStrictOneOf(t *testing.T) {
	dir := t.TempDir()
	schemas := filepath.Join(dir, "schemas")
	if err := os.MkdirAll(schemas, 0o755); err != nil {
		t.Fatal(err)
	}
	tool := `{"name":"ov","description":"d","parameters":{"type":"object","properties":{"n":{"oneOf":[{"type":"number"},{"type":"integer"}]}}},"x-toolgate":{"providers":["mcp"]}}`
	if err := os.WriteFile(filepath.Join(schemas, "ov.json"), []byte(tool), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, strict := range []bool{false, true} {
		out := filepath.Join(dir, "out", map[bool]string{false: "warn", true: "strict"}[strict])
		args := []string{"generate", "--schemas", schemas, "--out", out, "--package", "ov"}
		if strict {
			args = append(args, "--strict-oneof")
		}
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		msg := "oneOf: branches #0 and #1 both accept 1"
		if !strings.Contains(stderr.String(), msg) {
			t.Errorf("strict=%v: stderr %q does not say %q", strict, stderr.String(), msg)
		}
		_, statErr := os.Stat(filepath.Join(out, "ov_tool.go"))
		switch {
		case !strict && (code != exitOK || statErr != nil || !strings.Contains(stderr.String(), ": warning oneOf: ")):
			t.Errorf("without --strict-oneof: exit %d, %v, stderr %q; want a warning and the code written", code, statErr, stderr.String())
		case strict && (code != exitInvalid || statErr == nil):
			t.Errorf("with --strict-oneof: exit %d, file written %v; want exit %d and nothing written", code, statErr == nil, exitInvalid)
		}
	}
}
