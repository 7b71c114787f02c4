package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// receipt is the typed result of the pay tool in these tests: an ID of at
// most 8 characters.
type receipt struct{ ID string }

// receiptSpec is a hand-written ResultSpec: Encode writes {"id":...};
// Decode refuses an ID over 8 characters, quoting it in the message as a
// generated decoder quotes a non-sensitive value.
func receiptSpec() ResultSpec[receipt] {
	return ResultSpec[receipt]{
		Schema: `{"type":"object","properties":{"id":{"type":"string","maxLength":8}},"required":["id"],"additionalProperties":false}`,
		Encode: func(r receipt) ([]byte, error) { return json.Marshal(map[string]string{"id": r.ID}) },
		Decode: func(b []byte) (receipt, error) {
			var m map[string]string
			if err := json.Unmarshal(b, &m); err != nil {
				return receipt{}, &toolerr.Error{Code: toolerr.InvalidJSON, Tool: "pay", Reason: "not an object"}
			}
			if len(m["id"]) > 8 {
				return receipt{}, (&toolerr.Error{Code: toolerr.InvalidArguments, Tool: "pay"}).SetViolations([]toolerr.Violation{{
					Keyword: "maxLength", InstancePath: "/id", SchemaPath: "/properties/id/maxLength",
					Message: fmt.Sprintf("id must be at most 8 characters long; received %s", m["id"]),
				}})
			}
			return receipt{ID: m["id"]}, nil
		},
	}
}

// TestTypedResults: a typed executor's result is encoded and checked
// before it leaves. A valid one is Value (decoded) and JSON (the checked
// bytes); one that breaks the schema, fails to encode or is refused by a
// plain decoder error is invalid_result (system, executed), whose JSON
// and message for the model hold no violation and no value, while the
// auditor gets the violations; an executor's own error or conflict keeps
// its code, and a panicking encoder is execution_failed.
func TestTypedResults(t *testing.T) {
	const secret = "R-123456789"
	errBoom := errors.New("ledger down")
	tests := []struct {
		name    string
		exec    func() (receipt, error)
		spec    func(ResultSpec[receipt]) ResultSpec[receipt]
		code    toolerr.Code
		keyword string // a violation the auditor must get
	}{
		{name: "valid", exec: func() (receipt, error) { return receipt{ID: "R-1"}, nil }, code: OK},
		{name: "breaks the schema", exec: func() (receipt, error) { return receipt{ID: secret}, nil }, code: toolerr.InvalidResult, keyword: "maxLength"},
		{name: "executor error", exec: func() (receipt, error) { return receipt{ID: secret}, errBoom }, code: toolerr.ExecutionFailed},
		{name: "executor conflict", exec: func() (receipt, error) { return receipt{}, Conflict("already paid") }, code: toolerr.Conflict},
		{name: "encoder fails", exec: func() (receipt, error) { return receipt{ID: secret}, nil }, code: toolerr.InvalidResult, spec: func(s ResultSpec[receipt]) ResultSpec[receipt] {
			s.Encode = func(r receipt) ([]byte, error) { return nil, errors.New("cannot encode " + r.ID) }
			return s
		}},
		{name: "plain decoder error", exec: func() (receipt, error) { return receipt{ID: secret}, nil }, code: toolerr.InvalidResult, spec: func(s ResultSpec[receipt]) ResultSpec[receipt] {
			s.Decode = func([]byte) (receipt, error) { return receipt{}, errors.New("bad " + secret) }
			return s
		}},
		{name: "encoder panics", exec: func() (receipt, error) { return receipt{ID: secret}, nil }, code: toolerr.ExecutionFailed, spec: func(s ResultSpec[receipt]) ResultSpec[receipt] {
			s.Encode = func(receipt) ([]byte, error) { panic("encoder bug") }
			return s
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c spyCounts
			rs := receiptSpec()
			if tt.spec != nil {
				rs = tt.spec(rs)
			}
			rec := newRecorder()
			tool := BindTyped(paySpec(&c), rs, TypedBinding[payArgs, receipt]{
				Policy:  AllowAll[payArgs],
				Execute: func(context.Context, payArgs) (receipt, error) { c.execs.Add(1); return tt.exec() },
			})
			if tool.OutputSchema != rs.Schema {
				t.Errorf("OutputSchema %q", tool.OutputSchema)
			}
			reg, err := NewRegistry([]*Tool{tool}, WithAuditor(rec))
			if err != nil {
				t.Fatal(err)
			}
			asked := 0
			res, err := reg.DispatchWithRepair(context.Background(), Caller{}, Call{ID: "c1", Name: "pay", Args: []byte(`{"account":"a","amount":1}`), Complete: true}, Repair{
				MaxAttempts: 3,
				Next: func(_ context.Context, call Call, _ *toolerr.Error) (Call, error) {
					asked++
					call.ID += "+"
					return call, nil
				},
			})
			if n := c.execs.Load(); n != 1 || !res.Executed || asked != 0 {
				t.Fatalf("executor ran %d times (Executed %v), %d repairs asked", n, res.Executed, asked)
			}
			ev := rec.wait(1)[0]
			if tt.code == OK {
				if err != nil || res.Value != (receipt{ID: "R-1"}) || string(res.JSON) != `{"id":"R-1"}` || ev.Code != OK {
					t.Fatalf("valid result: %v %+v %s, event %s", err, res.Value, res.JSON, ev.Code)
				}
				return
			}
			if res.Err == nil || res.Err.Code != tt.code || err == nil || res.Value != nil || res.JSON != nil || ev.Code != tt.code {
				t.Fatalf("result %+v (%v), event %s; want %s", res, err, ev.Code, tt.code)
			}
			if tt.code != toolerr.InvalidResult {
				return
			}
			if res.Err.Code.Category() != toolerr.System || res.Err.CallID != "c1" {
				t.Errorf("category %s, call ID %q", res.Err.Code.Category(), res.Err.CallID)
			}
			model, _ := json.Marshal(res.Err)
			for _, text := range []string{string(model), res.Err.Error()} {
				if strings.Contains(text, secret) || strings.Contains(text, "violations") || strings.Contains(text, "received") {
					t.Errorf("the model's text shows the withheld result: %s", text)
				}
			}
			if tt.keyword != "" && (len(res.Err.Violations()) != 1 || res.Err.Violations()[0].Keyword != tt.keyword ||
				len(ev.Violations) != 1 || ev.Violations[0].Keyword != tt.keyword || ev.Violations[0].InstancePath != "/id") {
				t.Errorf("violations %+v, audited %+v; want %s at /id", res.Err.Violations(), ev.Violations, tt.keyword)
			}
		})
	}
}

// TestBindTypedRefusesIncompleteSpecs: NewRegistry names a typed tool
// with no encoder, decoder, policy or executor.
func TestBindTypedRefusesIncompleteSpecs(t *testing.T) {
	var c spyCounts
	exec := func(context.Context, payArgs) (receipt, error) { return receipt{}, nil }
	tests := []struct {
		name string
		rs   func(*ResultSpec[receipt])
		b    TypedBinding[payArgs, receipt]
		want string
	}{
		{"no encoder", func(s *ResultSpec[receipt]) { s.Encode = nil }, TypedBinding[payArgs, receipt]{Policy: AllowAll[payArgs], Execute: exec}, `tool "pay" has no result encoder or decoder`},
		{"no decoder", func(s *ResultSpec[receipt]) { s.Decode = nil }, TypedBinding[payArgs, receipt]{Policy: AllowAll[payArgs], Execute: exec}, `tool "pay" has no result encoder or decoder`},
		{"no executor", func(*ResultSpec[receipt]) {}, TypedBinding[payArgs, receipt]{Policy: AllowAll[payArgs]}, `tool "pay" has no executor`},
		{"no policy", func(*ResultSpec[receipt]) {}, TypedBinding[payArgs, receipt]{Execute: exec}, `tool "pay" has no policy`},
	}
	for _, tt := range tests {
		rs := receiptSpec()
		tt.rs(&rs)
		if _, err := NewRegistry([]*Tool{BindTyped(paySpec(&c), rs, tt.b)}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestLateInvalidResult: an executor that returns a result breaking its
// schema after the tool's timeout is audited late as invalid_result.
func TestLateInvalidResult(t *testing.T) {
	var c spyCounts
	spec := paySpec(&c)
	spec.Timeout = 1 // the executor returns only once its context is done
	release := make(chan struct{})
	rec := newRecorder()
	reg, err := NewRegistry([]*Tool{BindTyped(spec, receiptSpec(), TypedBinding[payArgs, receipt]{
		Policy: AllowAll[payArgs],
		Execute: func(ctx context.Context, _ payArgs) (receipt, error) {
			<-ctx.Done()
			<-release
			return receipt{ID: "R-123456789"}, nil
		},
	})}, WithAuditor(rec))
	if err != nil {
		t.Fatal(err)
	}
	res, _ := reg.Dispatch(context.Background(), Caller{}, Call{ID: "c1", Name: "pay", Args: []byte(`{"account":"a","amount":1}`), Complete: true})
	if res.Err == nil || res.Err.Code != toolerr.Timeout {
		t.Fatalf("answer %+v, want timeout", res.Err)
	}
	close(release)
	evs := rec.wait(2)
	if evs[0].Code != toolerr.Timeout || !evs[1].Late || evs[1].Code != toolerr.InvalidResult || len(evs[1].Violations) != 1 {
		t.Errorf("events %+v, want timeout then a late invalid_result with its violation", evs)
	}
}
