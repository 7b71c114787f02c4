package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/callrecord"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// record is a call record of refund_order (refundV1 in diff_test.go).
func record(code, violations, args string) string {
	return `{"tool": "refund_order", "version": "v1", "code": "` + code + `", "violations": [` + violations + `], "replayable": true, "args": ` + args + `}`
}

// unreplayable is a record the masking could not make replayable.
const unreplayable = `{"tool": "refund_order", "version": "v1", "code": "ok", "violations": [], "replayable": false, "reason": "no stand-in for a value at \"/reason\" is decided as the value is"}`

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
		{"as recorded", withCalls(map[string]string{"schemas/r.json": refundV1}), []string{"--calls", "calls"}, exitOK, "3 call(s): 3 as recorded, 0 changed, 0 not replayable", ""},
		{"changed", withCalls(map[string]string{"schemas/r.json": refundV2}), []string{"--calls", "calls"}, exitDrift, "FAIL  accepted-big.json: recorded ok, now invalid_arguments (maximum) (recorded against v1, now sha256:", ""},
		{"widened", withCalls(map[string]string{"schemas/r.json": refundV3}), []string{"--calls", "calls"}, exitDrift, "FAIL  refused-max.json: recorded invalid_arguments (maximum), now ok", ""},
		{"not replayable", withCalls(map[string]string{"schemas/r.json": refundV1, "calls/x.json": unreplayable}), []string{"--calls", "calls"}, exitDrift,
			`UNREPLAYABLE  x.json: recorded ok; not replayable: "no stand-in`, ""},
		{"not replayable, counted", withCalls(map[string]string{"schemas/r.json": refundV1, "calls/x.json": unreplayable}), []string{"--calls", "calls"}, exitDrift,
			"4 call(s): 3 as recorded, 0 changed, 1 not replayable", ""},
		{"a record of an earlier toolgate", map[string]string{"schemas/r.json": refundV1, "calls/x.json": strings.Replace(calls["calls/accepted-big.json"], `"replayable"`, `"exact"`, 1)}, []string{"--calls", "calls"}, exitInvalid, "",
			"written by an earlier toolgate"},
		{"no --calls", map[string]string{"schemas/r.json": refundV1}, nil, exitUsage, "", "--calls is required"},
		{"bad record", map[string]string{"schemas/r.json": refundV1, "calls/x.json": `{"tool": "r"}`}, []string{"--calls", "calls"}, exitInvalid, "", "missing"},
		{"missing folder", map[string]string{"schemas/r.json": refundV1}, []string{"--calls", "nowhere"}, exitUsage, "", "nowhere"},
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
	for _, want := range []string{"2 breaking (2 allowed)", "breaking   accepted-big.json: ok → invalid_arguments (maximum)", "breaking   accepted-dup.json: ok → invalid_arguments (enum)", "3 recorded call(s) replayed: 2 accepted → refused (breaking for queued calls), 0 refused → accepted (widening), 0 not replayable, 1 unchanged"} {
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

// orderV1 is a tool whose order IDs have literal parts (ORD-) that the
// masking must keep; orderV2 removes an enum value and lowers the maximum.
const orderV1 = `{"name": "refund_order", "description": "Refund.", "parameters": {"type": "object", "properties": {
  "orderId": {"type": "string", "pattern": "^ORD-[0-9]{6}$"},
  "amount": {"type": "integer", "minimum": 1, "maximum": 100000},
  "reason": {"type": "string", "enum": ["duplicate", "fraudulent", "requested_by_customer"]},
  "contact": {"type": "string", "format": "email"}},
  "required": ["orderId", "amount", "reason"]}}`

var orderV2 = strings.NewReplacer(`"maximum": 100000`, `"maximum": 50000`, `"duplicate", `, ``).Replace(orderV1)

// TestRecordedCallsCatchRegressions records calls through a
// callrecord.Recorder (the outcomes the gate would audit), then replays
// them: against the schema they were recorded under every one is decided
// as recorded, and the change to orderV2 fails `toolgate test --calls` and
// is reported by `diff --calls` call by call, not as unchanged.
func TestRecordedCallsCatchRegressions(t *testing.T) {
	dir := workspace(t, map[string]string{"old/r.json": orderV1, "new/r.json": orderV2, "calls/.keep": ""})
	tools, err := gen.Load(filepath.Join(dir, "old"))
	if err != nil {
		t.Fatal(err)
	}
	eff, version, err := gen.Schema(tools[0], gen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := callrecord.New([]*gate.Tool{{Name: "refund_order", Schema: string(eff.Marshal()), Version: version}}, callrecord.Options{Dir: filepath.Join(dir, "calls"), Accepted: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		args       string
		violations []gate.ViolationRef
	}{
		{`{"orderId": "ORD-123456", "amount": 1250, "reason": "duplicate", "contact": "ann@example.org"}`, nil},
		{`{"orderId": "ORD-654321", "amount": 90000, "reason": "fraudulent"}`, nil},
		{`{"orderId": "ORD-777777", "amount": 40000, "reason": "requested_by_customer"}`, nil},
		{`{"orderId": "ORD-12", "amount": 5, "reason": "fraudulent"}`, []gate.ViolationRef{{Keyword: "pattern", InstancePath: "/orderId"}}},
	} {
		id := fmt.Sprint("c", i)
		caller := gate.Caller{Scope: "s"}
		rec.Remember(caller, gate.Call{ID: id, Name: "refund_order", Args: []byte(c.args), Complete: true})
		e := gate.Event{Scope: "s", CallID: id, Tool: "refund_order", Version: version, Code: "ok", Executed: true}
		if c.violations != nil {
			e.Code, e.Executed, e.Violations = toolerr.InvalidArguments, false, c.violations
		}
		rec.Audit(context.Background(), e)
	}
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "calls", "*.json"))
	if len(files) != 4 {
		t.Fatalf("%d records written, want 4", len(files))
	}
	code, out, errOut := runIn(t, dir, "test", "--calls", "calls", "--schemas", "old")
	if code != exitOK || !strings.Contains(out, "4 call(s): 4 as recorded, 0 changed, 0 not replayable") {
		t.Errorf("against the schema they were recorded under: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runIn(t, dir, "test", "--calls", "calls", "--schemas", "new")
	if code != exitDrift || !strings.Contains(out, "4 call(s): 2 as recorded, 2 changed, 0 not replayable") ||
		!strings.Contains(out, "recorded ok, now invalid_arguments (enum)") || !strings.Contains(out, "recorded ok, now invalid_arguments (maximum)") {
		t.Errorf("against the changed schema: exit %d, want %d\n%s%s", code, exitDrift, out, errOut)
	}
	code, out, errOut = runIn(t, dir, "diff", "--calls", "calls", "old", "new")
	if code != exitDrift || !strings.Contains(out, "4 recorded call(s) replayed: 2 accepted → refused (breaking for queued calls), 0 refused → accepted (widening), 0 not replayable, 2 unchanged") ||
		!strings.Contains(out, ": ok → invalid_arguments (enum)") || !strings.Contains(out, ": ok → invalid_arguments (maximum)") {
		t.Errorf("diff --calls: exit %d, want %d\n%s%s", code, exitDrift, out, errOut)
	}
	// A record that is not replayable is reported by diff --calls too.
	if err := os.WriteFile(filepath.Join(dir, "calls", "x.json"), []byte(unreplayable), 0o644); err != nil {
		t.Fatal(err)
	}
	// The schemas did not change, so diff's exit is still success.
	code, out, errOut = runIn(t, dir, "diff", "--calls", "calls", "old", "old")
	if code != exitOK || !strings.Contains(out, `not replayable x.json: recorded ok; "no stand-in`) || !strings.Contains(out, "5 recorded call(s) replayed: 0 accepted → refused (breaking for queued calls), 0 refused → accepted (widening), 1 not replayable, 4 unchanged") {
		t.Errorf("diff --calls with a record that is not replayable: exit %d, want %d\n%s%s", code, exitOK, out, errOut)
	}
}
