package callrecord_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/callrecord"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// TestRecorderKeepsNoSecret records, through a Recorder, calls holding a
// secret in each kind of position and asserts that the secret's bytes
// appear nowhere in the written file, that a replayable record is decided
// as the call was, and that one that is not has no arguments.
func TestRecorderKeepsNoSecret(t *testing.T) {
	const secret = "4929817263545"
	tests := []struct {
		name       string
		sensitive  []string // the tool's Sensitive (x-toolgate sensitive)
		options    []string // Options.Sensitive
		args       string
		violations []gate.ViolationRef
		replayable bool
	}{
		{"writeOnly member", nil, nil, `{"pin": "` + secret[:4] + `"}`, nil, true},
		{"writeOnly member refused", nil, nil, `{"pin": "` + secret + `"}`, []gate.ViolationRef{{Keyword: "pattern", InstancePath: "/pin"}}, true},
		{"writeOnly number", nil, nil, `{"cvv": ` + secret[:3] + `}`, nil, true},
		{"sensitive member", maskSensitive, nil, `{"card": "` + secret + `"}`, nil, true},
		{"sensitive member refused", maskSensitive, nil, `{"card": "` + secret + `x"}`, []gate.ViolationRef{{Keyword: "pattern", InstancePath: "/card"}}, true},
		{"sensitive member named by the options", nil, []string{"/note"}, `{"note": "` + secret + `"}`, nil, true},
		{"sensitive tool", []string{""}, nil, `{"note": "` + secret + `", "n": ` + secret[:1] + `, "orderId": "ORD-` + secret[:6] + `"}`, nil, true},
		{"sensitive map keyed by the secret", maskSensitive, nil, `{"vault": {"` + secret + `": 1}}`, []gate.ViolationRef{{Keyword: "type", InstancePath: "/vault/" + secret}}, false},
		{"pattern, not sensitive", nil, nil, `{"orderId": "ORD-` + secret[:6] + `"}`, nil, true},
		{"format, not sensitive", nil, nil, `{"email": "u` + secret + `@example.org", "day": "2026-12-01"}`, nil, true},
		{"enum value refused, not sensitive", nil, nil, `{"reason": "` + secret + `"}`, []gate.ViolationRef{{Keyword: "enum", InstancePath: "/reason"}}, true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			rec, err := callrecord.New([]*gate.Tool{{Name: "t", Schema: maskSchema, Version: "v1", Sensitive: tt.sensitive}},
				callrecord.Options{Dir: dir, Accepted: true, Sensitive: map[string][]string{"t": tt.options}})
			if err != nil {
				t.Fatal(err)
			}
			id := fmt.Sprint("c", i)
			rec.Remember(gate.Caller{Scope: "s"}, gate.Call{ID: id, Name: "t", Args: []byte(tt.args), Complete: true})
			e := gate.Event{Scope: "s", CallID: id, Tool: "t", Version: "v1", Code: "ok", Executed: true}
			if tt.violations != nil {
				e.Code, e.Executed, e.Violations = toolerr.InvalidArguments, false, tt.violations
			}
			rec.Audit(context.Background(), e)
			files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			if len(files) != 1 || rec.Err() != nil {
				t.Fatalf("%d records, %v", len(files), rec.Err())
			}
			data, _ := os.ReadFile(files[0])
			for _, part := range []string{secret, secret[:6], secret[:4], secret[:3] + ","} {
				if strings.Contains(string(data), part) {
					t.Errorf("the record holds %q:\n%s", part, data)
				}
			}
			r, err := callrecord.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if r.Replayable != tt.replayable || !r.Replayable && (r.Args != nil || r.Reason == "") {
				t.Fatalf("replayable %v (want %v), args %v, reason %q:\n%s", r.Replayable, tt.replayable, r.Args, r.Reason, data)
			}
			if !r.Replayable {
				return
			}
			check, _ := callrecord.NewChecker("t", maskSchema, true)
			d, err := check.Decide(r.Args)
			if err != nil || d.Valid != (tt.violations == nil) {
				t.Errorf("the masked call is decided %+v (%v), recorded %s", d, err, r.Code)
			}
			for _, v := range tt.violations {
				if !strings.Contains(strings.Join(d.Keywords(), " "), v.Keyword) {
					t.Errorf("the masked call no longer fails %s: %+v", v.Keyword, d)
				}
			}
		})
	}
}
