package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// record is a call record of refund_order (refundV1 in diff_test.go).
func record(code, violations, args string) string {
	return `{"tool": "refund_order", "version": "v1", "code": "` + code + `", "violations": [` + violations + `], "exact": true, "args": ` + args + `}`
}

var calls = map[string]string{
	"calls/accepted-big.json": record("ok", "", `{"amount_pence": 90000, "reason": "fraudulent"}`),
	"calls/accepted-dup.json": record("ok", "", `{"amount_pence": 10, "reason": "duplicate"}`),
	"calls/refused-max.json":  record("invalid_arguments", `{"keyword": "maximum", "instancePath": "/amount_pence"}`, `{"amount_pence": 150000}`),
}

func withCalls(files map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range calls {
		out[k] = v
	}
	for k, v := range files {
		out[k] = v
	}
	return out
}

func TestTestCalls(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"as recorded", withCalls(map[string]string{"schemas/r.json": refundV1}), []string{"--calls", "calls"}, exitOK, "3 call(s): 3 as recorded, 0 changed, 0 inexact", ""},
		{"changed", withCalls(map[string]string{"schemas/r.json": refundV2}), []string{"--calls", "calls"}, exitDrift, "FAIL  accepted-big.json: recorded ok, now invalid_arguments (maximum) (recorded against v1, now sha256:", ""},
		{"widened", withCalls(map[string]string{"schemas/r.json": refundV3}), []string{"--calls", "calls"}, exitDrift, "FAIL  refused-max.json: recorded invalid_arguments (maximum), now ok", ""},
		{"inexact", map[string]string{"schemas/r.json": refundV2, "calls/x.json": strings.Replace(calls["calls/accepted-big.json"], `"exact": true`, `"exact": false`, 1)}, []string{"--calls", "calls"}, exitOK, "skip  x.json", ""},
		{"no --calls", map[string]string{"schemas/r.json": refundV1}, nil, exitUsage, "", "--calls is required"},
		{"bad record", map[string]string{"schemas/r.json": refundV1, "calls/x.json": `{"tool": "r"}`}, []string{"--calls", "calls"}, exitInvalid, "", "missing"},
		{"missing folder", map[string]string{"schemas/r.json": refundV1}, []string{"--calls", "nowhere"}, exitFailure, "", "nowhere"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runIn(t, workspace(t, tt.files), append([]string{"test"}, tt.args...)...)
			if code != tt.code || !strings.Contains(out, tt.stdout) || !strings.Contains(errOut, tt.stderr) {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
		})
	}
}

func TestDiffCalls(t *testing.T) {
	dir := workspace(t, withCalls(map[string]string{"old/r.json": refundV1, "new/r.json": refundV2, "wide/r.json": refundV3,
		"toolgate-diff.json": `{"allow": [{"tool": "refund_order", "change": "bound-narrowed", "reason": "r"}, {"tool": "refund_order", "change": "enum-value-removed", "reason": "r"}]}`}))
	// The schema changes are allowed; the queued calls they break are not.
	code, out, errOut := runIn(t, dir, "diff", "--calls", "calls", "old", "new")
	for _, want := range []string{"2 breaking (2 allowed)", "breaking   accepted-big.json: ok → invalid_arguments (maximum)", "breaking   accepted-dup.json: ok → invalid_arguments (enum)", "3 recorded call(s) replayed: 2 accepted → refused (breaking for queued calls), 0 refused → accepted (widening), 1 unchanged"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff --calls output lacks %q:\n%s", want, out)
		}
	}
	if code != exitDrift {
		t.Errorf("exit %d, want %d\n%s", code, exitDrift, errOut)
	}
	code, out, _ = runIn(t, dir, "diff", "--calls", "calls", "--format", "markdown", "old", "wide")
	if code != exitOK || !strings.Contains(out, "| widening | `refused-max.json` | invalid_arguments (maximum) | ok |") {
		t.Errorf("widening: exit %d\n%s", code, out)
	}
	code, out, _ = runIn(t, dir, "diff", "--calls", "calls", "--format", "json", "old", "new")
	var doc struct {
		Breaking, Allowed int
		Calls             struct {
			Replayed, Breaking int
			Changes            []struct{ Class, File, Old, New string }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitDrift || doc.Breaking != 2 || doc.Allowed != 2 || doc.Calls.Replayed != 3 || doc.Calls.Breaking != 2 || len(doc.Calls.Changes) != 2 || doc.Calls.Changes[0].New != "invalid_arguments (maximum)" {
		t.Errorf("--calls json: exit %d, %v, %+v\n%s", code, err, doc, out)
	}
}
