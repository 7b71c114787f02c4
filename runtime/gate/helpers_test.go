package gate

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// The test doubles of this package: a hand-written tool, pay, over a small
// hand-written decoder, so that the tests do not depend on the generator
// (the gate's tests over generated tools are in
// gen/internal/integration/gate_*_test.go), and
// an auditor that records the events.

// payArgs are the arguments of the pay tool.
type payArgs struct {
	Account string
	Amount  int64
	// Memo is nil when absent.
	Memo *string
}

// decodePay is pay's strict decoder: account (string) and amount (integer)
// are required, memo is an optional string; null is a type error. With
// nullAsAbsent, a null memo is read as an absent one (the OpenAI dialects).
func decodePay(data []byte, nullAsAbsent bool) (payArgs, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return payArgs{}, &toolerr.Error{Code: toolerr.InvalidJSON, Tool: "pay", Reason: "not a JSON object"}
	}
	var a payArgs
	var vs []toolerr.Violation
	bad := func(kw, path, msg string) {
		vs = append(vs, toolerr.Violation{Keyword: kw, InstancePath: path, SchemaPath: "/properties" + path + "/" + kw, Message: msg})
	}
	for k, raw := range m {
		switch k {
		case "account":
			if json.Unmarshal(raw, &a.Account) != nil || string(raw) == "null" {
				bad("type", "/account", "account must be a string")
			}
		case "amount":
			if json.Unmarshal(raw, &a.Amount) != nil || string(raw) == "null" {
				bad("type", "/amount", "amount must be an integer")
			}
		case "memo":
			if string(raw) == "null" {
				if !nullAsAbsent {
					bad("type", "/memo", "memo must be a string; received null")
				}
				continue
			}
			var s string
			if json.Unmarshal(raw, &s) != nil {
				bad("type", "/memo", "memo must be a string")
			}
			a.Memo = &s
		default:
			vs = append(vs, toolerr.Violation{Keyword: "additionalProperties", InstancePath: "/" + k, SchemaPath: "/additionalProperties", Message: k + " is not a known field"})
		}
	}
	for _, req := range []string{"account", "amount"} {
		if _, ok := m[req]; !ok {
			vs = append(vs, toolerr.Violation{Keyword: "required", SchemaPath: "/required", Message: req + " is required"})
		}
	}
	if len(vs) > 0 {
		return payArgs{}, (&toolerr.Error{Code: toolerr.InvalidArguments, Tool: "pay"}).SetViolations(vs)
	}
	return a, nil
}

// spyCounts counts what the gate did with one tool.
type spyCounts struct {
	decodes, nullDecodes, policies, execs atomic.Int64
}

// paySpec is the pay tool's spec, with decodes counted in c.
func paySpec(c *spyCounts) Spec[payArgs] {
	return Spec[payArgs]{
		Name:    "pay",
		Schema:  `{"type":"object","properties":{"account":{"type":"string"},"amount":{"type":"integer"},"memo":{"type":"string"}},"required":["account","amount"],"additionalProperties":false}`,
		Version: "v1",
		Decode: func(b []byte) (payArgs, error) {
			c.decodes.Add(1)
			return decodePay(b, false)
		},
	}
}

// payBinding is a binding that counts policy and executor calls in c and
// then runs policy and exec (either may be nil: allow, succeed).
func payBinding(c *spyCounts, policy Policy[payArgs], exec Executor[payArgs]) Binding[payArgs] {
	return Binding[payArgs]{
		Policy: func(ctx context.Context, p Principal, a payArgs) error {
			c.policies.Add(1)
			if policy != nil {
				return policy(ctx, p, a)
			}
			return nil
		},
		Execute: func(ctx context.Context, a payArgs) (any, error) {
			c.execs.Add(1)
			if exec != nil {
				return exec(ctx, a)
			}
			return "paid " + a.Account, nil
		},
	}
}

func mustRegistry(t testing.TB, tools []*Tool, opts ...Option) *Registry {
	t.Helper()
	r, err := NewRegistry(tools, opts...)
	if err != nil {
		t.Fatalf("NewRegistry: %v", err)
	}
	return r
}

const goodPay = `{"account":"ACC-1","amount":5}`

var caller = Caller{Principal: Principal{ID: "u1", Tenant: "t1"}, Scope: "conv-1"}

// wantCode checks err's code and category and returns it.
func wantCode(t *testing.T, err error, code toolerr.Code, cat toolerr.Category) *toolerr.Error {
	t.Helper()
	var te *toolerr.Error
	if !errors.As(err, &te) || te == nil {
		t.Fatalf("error = %v (%T), want a *toolerr.Error %s", err, err, code)
	}
	if te.Code != code || te.Code.Category() != cat {
		t.Fatalf("code = %s (%s), want %s (%s): %v", te.Code, te.Code.Category(), code, cat, te)
	}
	return te
}

// recorder is an auditor that hands the events to the test, from any
// goroutine, in the order they are emitted.
type recorder struct{ ch chan Event }

func newRecorder() *recorder { return &recorder{ch: make(chan Event, 4096)} }

func (r *recorder) Audit(_ context.Context, e Event) { r.ch <- e }

// wait returns the next n events, waiting for them (a missing event hangs
// the test until go test's -timeout, with every goroutine's stack).
func (r *recorder) wait(n int) []Event {
	out := make([]Event, n)
	for i := range out {
		out[i] = <-r.ch
	}
	return out
}

// pending returns the events emitted so far and not yet taken.
func (r *recorder) pending() []Event {
	var out []Event
	for {
		select {
		case e := <-r.ch:
			out = append(out, e)
		default:
			return out
		}
	}
}
