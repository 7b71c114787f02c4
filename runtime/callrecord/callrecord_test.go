package callrecord_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/callrecord"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

func TestMask(t *testing.T) {
	schema := `{"type": "object", "properties": {
	  "id": {"type": "string", "pattern": "^[A-Z][A-Z0-9-]{2,31}$"},
	  "kind": {"type": "string", "enum": ["Gold", "silver"]},
	  "day": {"type": "string", "format": "date"},
	  "note": {"type": "string"},
	  "pin": {"type": "integer"},
	  "n": {"type": "integer", "maximum": 5},
	  "tags": {"type": "array", "items": {"type": "string", "enum": ["x"]}},
	  "first": {"type": "string", "pattern": "^[1-9]"},
	  "exact": {"type": "string", "pattern": "^B"}
	}}`
	tests := []struct {
		name, args, want string
		sensitive        string
		exact            bool
	}{
		{"pattern classes", `{"id": "B-77x"}`, `{"id":"A-11a"}`, "", true},
		{"enum kept", `{"kind": "Gold"}`, `{"kind":"Gold"}`, "", true},
		{"not an enum value", `{"kind": "GOLD "}`, `{"kind":"AAAA "}`, "", true},
		{"valid format", `{"day": "2026-12-01"}`, `{"day":"2000-01-01"}`, "", true},
		{"invalid format made valid", `{"day": "2026-13-01"}`, `{"day":"1111-11-11"}`, "", false},
		{"invalid format stays invalid", `{"day": "26-1-1"}`, `{"day":"11-1-1"}`, "", true},
		{"free text, unicode, controls", `{"note": "Héllo wörld 42!\u0007"}`, `{"note":"Aaaaa aaaaa 11!\u0007"}`, "", true},
		{"numbers kept", `{"n": 6, "pin": 1234}`, `{"n":6,"pin":1234}`, "", true},
		{"sensitive number", `{"n": 6, "pin": 1234}`, `{"n":6,"pin":null}`, "/pin", false},
		{"sensitive enum value", `{"kind": "Gold"}`, `{"kind":"Aaaa"}`, "/kind", true},
		{"undeclared member kept by name", `{"extra": "Secret"}`, `{"extra":"Aaaaaa"}`, "", true},
		{"array items", `{"tags": ["x", "y"]}`, `{"tags":["x","a"]}`, "", true},
		{"digit class kept for [1-9]", `{"first": "9z"}`, `{"first":"1a"}`, "", true},
		{"pattern outcome changed", `{"exact": "Bob"}`, `{"exact":"Aaa"}`, "", false},
	}
	s, err := jsonval.Parse([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, err := jsonval.Parse([]byte(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			got, exact := callrecord.Mask(s, args, func(p string) bool { return p == tt.sensitive })
			if string(got.Marshal()) != tt.want || exact != tt.exact {
				t.Errorf("Mask(%s) = %s (exact %v), want %s (exact %v)", tt.args, got.Marshal(), exact, tt.want, tt.exact)
			}
		})
	}
}

// registry binds refund_order with an executor that counts its runs.
func registry(t *testing.T, rec *callrecord.Recorder, ran *atomic.Int32) *gate.Registry {
	t.Helper()
	tool := gate.Bind(generated.RefundOrderSpec, gate.Binding[generated.RefundOrderArgs]{
		Policy:  gate.AllowAll[generated.RefundOrderArgs],
		Execute: func(context.Context, generated.RefundOrderArgs) (any, error) { ran.Add(1); return "refunded", nil },
		// No call waits for approval: the recorder is about the decoder's
		// outcomes.
		NeedsApproval: func(context.Context, gate.Principal, generated.RefundOrderArgs) (bool, string) { return false, "" },
	})
	reg, err := gate.NewRegistry([]*gate.Tool{tool}, gate.WithAuditor(rec))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestRecorder(t *testing.T) {
	for _, accepted := range []bool{false, true} {
		dir := t.TempDir()
		tools := []*gate.Tool{{Name: generated.RefundOrderToolName, Schema: generated.RefundOrderSchema}}
		rec, err := callrecord.New(tools, callrecord.Options{Dir: dir, Accepted: accepted})
		if err != nil {
			t.Fatal(err)
		}
		var ran atomic.Int32
		reg := registry(t, rec, &ran)
		caller := gate.Caller{Principal: gate.Principal{ID: "u1", Roles: []string{"finance"}}, Scope: "s1"}
		refused := gate.Call{ID: "c1", Name: "refund_order", Complete: true, Args: []byte(`{"orderId": "B-77", "amountInCents": 100001, "reason": "fraudulent"}`)}
		res, _ := rec.Dispatch(context.Background(), reg, caller, refused)
		if res.Err == nil || res.Err.Code != toolerr.InvalidArguments || res.Executed || ran.Load() != 0 {
			t.Fatalf("refused call: %+v, executor ran %d times", res, ran.Load())
		}
		ok := gate.Call{ID: "c2", Name: "refund_order", Complete: true, Args: []byte(`{"orderId": "B-78", "amountInCents": 5, "reason": "duplicate"}`)}
		if res, _ := rec.Dispatch(context.Background(), reg, caller, ok); res.Err != nil {
			t.Fatalf("accepted call: %v", res.Err)
		}
		noID := refused
		noID.ID = ""
		rec.Dispatch(context.Background(), reg, caller, noID)
		if rec.Dropped() != 1 || rec.Err() != nil {
			t.Errorf("dropped %d, err %v", rec.Dropped(), rec.Err())
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		want := 1
		if accepted {
			want = 2
		}
		if len(files) != want {
			t.Fatalf("accepted=%v: %d records, want %d", accepted, len(files), want)
		}
		var sawRefusal bool
		for _, f := range files {
			data, _ := os.ReadFile(f)
			r, err := callrecord.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if r.Version != generated.RefundOrderSpec.Version || !r.Exact {
				t.Errorf("record %s: version %q exact %v", data, r.Version, r.Exact)
			}
			if r.Code == string(toolerr.InvalidArguments) {
				sawRefusal = true
				if got := string(r.Args.Marshal()); got != `{"orderId":"A-11","amountInCents":100001,"reason":"fraudulent"}` {
					t.Errorf("masked args %s", got)
				}
				if len(r.Violations) != 1 || r.Violations[0] != (callrecord.Violation{Keyword: "maximum", InstancePath: "/amountInCents"}) {
					t.Errorf("violations %+v", r.Violations)
				}
				// The masked call is refused for the same reason.
				_, err := generated.DecodeRefundOrderArgs(r.Args.Marshal())
				var te *toolerr.Error
				if !errors.As(err, &te) || len(te.Violations()) != 1 || te.Violations()[0].Keyword != "maximum" || te.Violations()[0].InstancePath != "/amountInCents" {
					t.Errorf("replaying the masked call: %v", err)
				}
			} else if r.Code != callrecord.Accepted || string(r.Args.Marshal()) != `{"orderId":"A-11","amountInCents":5,"reason":"duplicate"}` {
				t.Errorf("accepted record %s", data)
			}
		}
		if !sawRefusal {
			t.Error("no refusal recorded")
		}
	}
}

func TestParseRefusesBadRecords(t *testing.T) {
	for _, bad := range []string{
		`[]`,
		`{"tool": "a", "version": "v", "code": "ok", "violations": [], "exact": true}`,
		`{"tool": "a", "version": "v", "code": "ok", "violations": [{"keyword": 1, "instancePath": ""}], "exact": true, "args": {}}`,
		`{"tool": "a", "version": "v", "code": "ok", "violations": [], "exact": true, "args": {}, "extra": 1}`,
		`{"tool": 1, "version": "v", "code": "ok", "violations": [], "exact": true, "args": {}}`,
	} {
		if _, err := callrecord.Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s) succeeded", bad)
		}
	}
}

var update = flag.Bool("update", false, "rewrite testdata/refund_order")

// TestFixtures records four refund_order calls through the gate into
// testdata/refund_order, the fixtures `make test` replays with toolgate
// test --calls (and the README's diff --calls walkthrough uses): two
// accepted (reason duplicate; 90000 cents), two refused (100001 cents; an
// unknown reason).
func TestFixtures(t *testing.T) {
	dir := t.TempDir()
	tools := []*gate.Tool{{Name: generated.RefundOrderToolName, Schema: generated.RefundOrderSchema}}
	rec, err := callrecord.New(tools, callrecord.Options{Dir: dir, Accepted: true})
	if err != nil {
		t.Fatal(err)
	}
	var ran atomic.Int32
	reg := registry(t, rec, &ran)
	caller := gate.Caller{Principal: gate.Principal{ID: "u1", Roles: []string{"finance"}}, Scope: "s1"}
	for i, args := range []string{
		`{"orderId": "A-19", "amountInCents": 1250, "reason": "duplicate"}`,
		`{"orderId": "Q-2026-0042", "amountInCents": 90000, "reason": "fraudulent", "notifyCustomer": false}`,
		`{"orderId": "Z-881", "amountInCents": 100001, "reason": "requested_by_customer"}`,
		`{"orderId": "A-20", "amountInCents": 500, "reason": "changed my mind"}`,
	} {
		rec.Dispatch(context.Background(), reg, caller, gate.Call{ID: fmt.Sprint("c", i), Name: "refund_order", Complete: true, Args: []byte(args)})
	}
	if ran.Load() != 2 || rec.Err() != nil {
		t.Fatalf("executor ran %d times (want 2), err %v", ran.Load(), rec.Err())
	}
	got, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if *update {
		old, _ := filepath.Glob("testdata/refund_order/*.json")
		for _, f := range old {
			os.Remove(f)
		}
		os.MkdirAll("testdata/refund_order", 0o755)
		for _, f := range got {
			data, _ := os.ReadFile(f)
			if err := os.WriteFile(filepath.Join("testdata/refund_order", filepath.Base(f)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	want, _ := filepath.Glob("testdata/refund_order/*.json")
	if len(got) != 4 || len(want) != len(got) {
		t.Fatalf("recorded %d, testdata has %d; run go test ./runtime/callrecord -run Fixtures -update", len(got), len(want))
	}
	for i := range got {
		a, _ := os.ReadFile(got[i])
		b, _ := os.ReadFile(want[i])
		if filepath.Base(got[i]) != filepath.Base(want[i]) || string(a) != string(b) {
			t.Errorf("%s differs from testdata; run go test ./runtime/callrecord -run Fixtures -update and review", filepath.Base(got[i]))
		}
	}
}
