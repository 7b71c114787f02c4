package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

const refundV1 = `{"name": "refund_order", "description": "Refund.", "parameters": {"type": "object", "properties": {"amount_pence": {"type": "integer", "maximum": 100000}, "reason": {"type": "string", "enum": ["duplicate", "fraudulent"]}}, "required": ["amount_pence"]}}`

// refundV2 lowers the maximum and drops an enum value.
var refundV2 = strings.NewReplacer(`"maximum": 100000`, `"maximum": 50000`, `["duplicate", "fraudulent"]`, `["fraudulent"]`).Replace(refundV1)

// refundV3 only widens: a higher maximum.
var refundV3 = strings.Replace(refundV1, `"maximum": 100000`, `"maximum": 200000`, 1)

func TestDiffCommand(t *testing.T) {
	allow := `{"allow": [{"tool": "refund_order", "change": "bound-narrowed", "reason": "the payment provider caps refunds at 500"}, {"tool": "refund_order", "change": "enum-value-removed", "at": "/properties/reason/enum", "reason": "duplicates are voided, not refunded"}]}`
	tests := []struct {
		name   string
		files  map[string]string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"breaking", map[string]string{"old/r.json": refundV1, "new/r.json": refundV2}, []string{"old", "new"}, exitDrift, "breaking   enum-value-removed at /properties/reason/enum", ""},
		{"widening only", map[string]string{"old/r.json": refundV1, "new/r.json": refundV3}, []string{"old", "new"}, exitOK, "widening   bound-widened at /properties/amount_pence/maximum", ""},
		{"allowed", map[string]string{"old/r.json": refundV1, "new/r.json": refundV2, "toolgate-diff.json": allow}, []string{"old", "new"}, exitOK, "2 breaking (2 allowed)", ""},
		{"markdown", map[string]string{"old/r.json": refundV1, "new/r.json": refundV2}, []string{"--format", "markdown", "old", "new"}, exitDrift, "| **enum-value-removed** | `/properties/reason/enum` |", ""},
		{"json", map[string]string{"old/r.json": refundV1, "new/r.json": refundV2}, []string{"--format", "json", "old", "new"}, exitDrift, `"kind": "bound-narrowed"`, ""},
		{"allowance without reason", map[string]string{"old/r.json": refundV1, "new/r.json": refundV2, "toolgate-diff.json": `{"allow": [{"tool": "refund_order", "change": "bound-narrowed"}]}`}, []string{"old", "new"}, exitInvalid, "", "needs a reason"},
		{"one folder", map[string]string{"old/r.json": refundV1}, []string{"old"}, exitUsage, "", "OLD and NEW"},
		{"invalid tool", map[string]string{"old/r.json": refundV1, "new/r.json": `{"name": "r"}`}, []string{"old", "new"}, exitInvalid, "", "no parameters"},
		{"missing folder", map[string]string{"old/r.json": refundV1}, []string{"old", "nowhere"}, exitUsage, "", "nowhere"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runIn(t, workspace(t, tt.files), append([]string{"diff"}, tt.args...)...)
			if code != tt.code || !strings.Contains(out, tt.stdout) || !strings.Contains(errOut, tt.stderr) {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
		})
	}
}

func TestDiffBase(t *testing.T) {
	needGit(t)
	dir := workspace(t, map[string]string{"schemas/refund_order.json": refundV1})
	commitAll(t, dir)
	// --base HEAD compares the working tree with the commit.
	code, out, errOut := runIn(t, dir, "diff", "--base", "HEAD")
	if code != exitOK || !strings.Contains(out, "0 breaking (0 allowed), 0 widening, 0 compatible") {
		t.Errorf("unchanged: exit %d\n%s%s", code, out, errOut)
	}
	writeFile(t, dir, "schemas/refund_order.json", refundV2)
	code, out, errOut = runIn(t, dir, "diff", "--base", "HEAD")
	if code != exitDrift || !strings.Contains(out, "bound-narrowed at /properties/amount_pence/maximum") || !strings.Contains(out, `enum-value-removed at /properties/reason/enum: "duplicate"`) {
		t.Errorf("changed: exit %d\n%s%s", code, out, errOut)
	}
	// A tool added since the revision is widening.
	writeFile(t, dir, "schemas/extra.json", strings.Replace(refundV1, "refund_order", "get_refund", 1))
	if code, out, _ := runIn(t, dir, "diff", "--base", "HEAD", "--schemas", "schemas"); !strings.Contains(out, "tool-added") || code != exitDrift {
		t.Errorf("added tool: exit %d\n%s", code, out)
	}
	if code, _, errOut := runIn(t, dir, "diff", "--base", "no-such-rev"); code != exitFailure || !strings.Contains(errOut, "not a commit") {
		t.Errorf("bad revision: exit %d\n%s", code, errOut)
	}
}

// needGit skips t when git is not installed.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// commitAll makes dir a git repository whose one commit, v1, holds every
// file in it.
func commitAll(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-qm", "v1"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}
