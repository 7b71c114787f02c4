package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// These tests use a hand-written tool, pay, over a small hand-written
// decoder, so that they do not depend on the generator. The tests of the
// gate over the generated tools are in gen/internal/integration/gate_*_test.go.

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

func TestDecodeNullAsAbsentByDialect(t *testing.T) {
	const withNull = `{"account":"ACC-1","amount":5,"memo":null}`
	tests := []struct {
		dialect     Dialect
		nullDecoder bool // the spec has DecodeNullAsAbsent
		wantNull    bool // DecodeNullAsAbsent runs (else Decode)
	}{
		{Plain, true, false},
		{OpenAIChat, true, true},
		{OpenAIResponses, true, true},
		{Anthropic, true, false},
		{Gemini, true, false},
		{MCP, true, false},
		{OpenAIChat, false, false},
		{OpenAIResponses, false, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q/null-decoder=%v", tt.dialect, tt.nullDecoder), func(t *testing.T) {
			var c spyCounts
			spec := paySpec(&c)
			if tt.nullDecoder {
				spec.DecodeNullAsAbsent = func(b []byte) (payArgs, error) {
					c.nullDecodes.Add(1)
					return decodePay(b, true)
				}
			}
			var got payArgs
			r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, nil, func(_ context.Context, a payArgs) (any, error) { got = a; return nil, nil }))})
			_, err := r.Dispatch(context.Background(), caller, Call{ID: "c1", Name: "pay", Args: []byte(withNull), Complete: true, Dialect: tt.dialect})
			if tt.wantNull {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if c.nullDecodes.Load() != 1 || c.decodes.Load() != 0 || c.execs.Load() != 1 {
					t.Errorf("null decodes %d, decodes %d, execs %d; want 1, 0, 1", c.nullDecodes.Load(), c.decodes.Load(), c.execs.Load())
				}
				if got.Memo != nil || got.Account != "ACC-1" {
					t.Errorf("args = %+v, want memo absent", got)
				}
				return
			}
			wantCode(t, err, toolerr.InvalidArguments, toolerr.Validation)
			if c.nullDecodes.Load() != 0 || c.decodes.Load() != 1 || c.execs.Load() != 0 {
				t.Errorf("null decodes %d, decodes %d, execs %d; want 0, 1, 0", c.nullDecodes.Load(), c.decodes.Load(), c.execs.Load())
			}
		})
	}
}

func TestNewRegistryRefusesUnbound(t *testing.T) {
	var c spyCounts
	good := payBinding(&c, nil, nil)
	spec := func(name string) Spec[payArgs] { s := paySpec(&c); s.Name = name; return s }
	tests := []struct {
		name  string
		tools []*Tool
		want  []string // substrings of the error
	}{
		{"nil policy", []*Tool{Bind(spec("pay"), Binding[payArgs]{Execute: good.Execute})}, []string{`"pay"`, "no policy"}},
		{"nil executor", []*Tool{Bind(spec("pay"), Binding[payArgs]{Policy: good.Policy})}, []string{`"pay"`, "no executor"}},
		{"both nil", []*Tool{Bind(spec("pay"), Binding[payArgs]{})}, []string{`"pay"`, "not bound"}},
		{"nil decoder", []*Tool{Bind(Spec[payArgs]{Name: "pay"}, good)}, []string{`"pay"`, "no decoder"}},
		{"bound twice", []*Tool{Bind(spec("pay"), good), Bind(spec("pay"), good)}, []string{`"pay"`, "bound twice"}},
		{"nil tool", []*Tool{nil}, []string{"nil tool"}},
		{"not made by Bind", []*Tool{{Name: "pay", Schema: `{"type":"object"}`}}, []string{`"pay"`, "not made by Bind"}},
		{"every offender named", []*Tool{
			Bind(spec("a"), good),
			Bind(spec("b"), Binding[payArgs]{Execute: good.Execute}),
			Bind(spec("c"), Binding[payArgs]{Policy: good.Policy}),
			Bind(spec("a"), good),
		}, []string{`"b"`, `"c"`, `"a" is bound twice`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRegistry(tt.tools)
			if err == nil || r != nil {
				t.Fatalf("NewRegistry = %v, %v; want an error", r, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
	if c.decodes.Load()+c.policies.Load()+c.execs.Load() != 0 {
		t.Errorf("building registries ran something: %+v", &c)
	}
}

// TestCheckPanicsDoNotEscape: a panicking decoder or policy refuses the call
// as a system error; nothing runs and nothing escapes.
func TestCheckPanicsDoNotEscape(t *testing.T) {
	tests := []struct {
		name   string
		decode bool // panic in the decoder, else in the policy
	}{{"decoder", true}, {"policy", false}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c spyCounts
			spec := paySpec(&c)
			if tt.decode {
				spec.Decode = func([]byte) (payArgs, error) { panic("decoder bug") }
			}
			policy := Policy[payArgs](func(context.Context, Principal, payArgs) error {
				if !tt.decode {
					panic("policy bug")
				}
				return nil
			})
			r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, policy, nil))})
			res, err := r.Dispatch(context.Background(), caller, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true})
			wantCode(t, err, toolerr.ExecutionFailed, toolerr.System)
			if res.Executed || c.execs.Load() != 0 {
				t.Errorf("executed %v, execs %d; want nothing run", res.Executed, c.execs.Load())
			}
			// The ID was not claimed: a correct retry can run.
			if seen, _ := r.replay.Seen(context.Background(), caller.Scope, "c1"); seen {
				t.Error("the refused call's ID was claimed")
			}
		})
	}
}

// TestPlainDecoderErrorIsInvalidArguments: a hand-written decoder's plain
// error refuses the arguments without echoing its text to the model.
func TestPlainDecoderErrorIsInvalidArguments(t *testing.T) {
	var c spyCounts
	spec := paySpec(&c)
	secret := errors.New(`bad value "hunter2"`)
	spec.Decode = func([]byte) (payArgs, error) { return payArgs{}, secret }
	r := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, nil, nil))})
	_, err := r.Dispatch(context.Background(), caller, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true})
	te := wantCode(t, err, toolerr.InvalidArguments, toolerr.Validation)
	b, _ := json.Marshal(te)
	if !errors.Is(err, secret) || strings.Contains(string(b), "hunter2") || c.execs.Load() != 0 || c.policies.Load() != 0 {
		t.Errorf("error %s (wraps secret: %v), policies %d, execs %d", b, errors.Is(err, secret), c.policies.Load(), c.execs.Load())
	}
}

// TestPolicyDenial: a denial is unauthorized (permission), keeps the
// policy's error for the logs only, and runs nothing.
func TestPolicyDenial(t *testing.T) {
	var c spyCounts
	denial := errors.New("tenant t2 may not pay from ACC-1")
	var seenP Principal
	var seenA payArgs
	r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, func(_ context.Context, p Principal, a payArgs) error {
		seenP, seenA = p, a
		if p.Tenant != "t1" {
			return denial
		}
		return nil
	}, nil))})
	other := Caller{Principal: Principal{ID: "u2", Tenant: "t2", Roles: []string{"x"}}, Scope: "conv-1"}
	res, err := r.Dispatch(context.Background(), other, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true})
	te := wantCode(t, err, toolerr.Unauthorized, toolerr.Permission)
	if res.Executed || c.execs.Load() != 0 {
		t.Errorf("executed after a denial")
	}
	if !errors.Is(err, denial) {
		t.Errorf("error does not wrap the policy's denial")
	}
	if b, _ := json.Marshal(te); strings.Contains(string(b), "tenant t2") {
		t.Errorf("the policy's error reached the model: %s", b)
	}
	if seenP.ID != "u2" || seenP.Tenant != "t2" || seenA.Account != "ACC-1" || seenA.Amount != 5 {
		t.Errorf("policy saw %+v, %+v", seenP, seenA)
	}
	// The denied ID is not consumed: the right principal can run it.
	if _, err := r.Dispatch(context.Background(), caller, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true}); err != nil || c.execs.Load() != 1 {
		t.Errorf("allowed call after a denial: %v, execs %d", err, c.execs.Load())
	}
}

// TestToolsAreCopies: the export list cannot be used to loosen dispatch.
func TestToolsAreCopies(t *testing.T) {
	var c spyCounts
	spec := paySpec(&c)
	spec.Roles = []string{"finance"}
	bound := Bind(spec, payBinding(&c, nil, nil))
	r := mustRegistry(t, []*Tool{bound})
	fin := Principal{ID: "f", Roles: []string{"finance"}}
	list := r.Tools(fin)
	if len(list) != 1 {
		t.Fatalf("Tools(finance) = %d tools", len(list))
	}
	list[0].Roles[0] = "anyone"
	list[0].Roles = nil
	bound.Roles = nil
	nobody := Caller{Principal: Principal{ID: "n"}, Scope: "s"}
	if got := r.Tools(nobody.Principal); len(got) != 0 {
		t.Errorf("after mutating copies, Tools(no roles) = %d tools", len(got))
	}
	_, err := r.Dispatch(context.Background(), nobody, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true})
	wantCode(t, err, toolerr.UnknownTool, toolerr.Validation)
	if c.decodes.Load() != 0 || c.execs.Load() != 0 {
		t.Errorf("decodes %d, execs %d; want 0, 0", c.decodes.Load(), c.execs.Load())
	}
}

// TestAuditDurationAndAttempt: events carry the registry clock's duration
// and attempt 1 outside a repair loop.
func TestAuditDurationAndAttempt(t *testing.T) {
	var c spyCounts
	var events []Event
	r := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, nil, nil))}, WithAuditor(AuditorFunc(func(_ context.Context, e Event) { events = append(events, e) })))
	tick := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r.now = func() time.Time { tick = tick.Add(time.Millisecond); return tick }
	c1 := Caller{Principal: Principal{ID: "u1"}, Scope: "s", RequestID: "req-9"}
	r.Dispatch(context.Background(), c1, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true})
	r.Dispatch(context.Background(), c1, Call{ID: "c2", Name: "nope", Args: []byte(goodPay), Complete: true})
	if len(events) != 2 {
		t.Fatalf("%d events, want 2", len(events))
	}
	for i, e := range events {
		if e.Duration != time.Millisecond || e.Attempt != 1 || e.RequestID != "req-9" || e.Scope != "s" || e.Principal != "u1" {
			t.Errorf("event %d = %+v", i, e)
		}
	}
	if events[0].Version != "v1" || events[0].Code != OK || events[1].Version != "" || events[1].Code != toolerr.UnknownTool || events[1].Tool != "nope" {
		t.Errorf("events = %+v", events)
	}
}

// TestSensitiveIsBound: the spec's sensitive pointers reach the bound tool
// and the registry's copies of it (a call recorder masks what they name),
// and a copy's slice is its own.
func TestSensitiveIsBound(t *testing.T) {
	var c spyCounts
	spec := paySpec(&c)
	spec.Sensitive = []string{"/properties/card"}
	bound := Bind(spec, payBinding(&c, nil, nil))
	if !slices.Equal(bound.Sensitive, spec.Sensitive) {
		t.Fatalf("bound tool Sensitive = %q, want %q", bound.Sensitive, spec.Sensitive)
	}
	r := mustRegistry(t, []*Tool{bound})
	list := r.Tools(Principal{ID: "p"})
	if len(list) != 1 || !slices.Equal(list[0].Sensitive, spec.Sensitive) {
		t.Fatalf("Tools() = %v, want the tool with Sensitive %q", list, spec.Sensitive)
	}
	list[0].Sensitive[0] = "/changed"
	if again := r.Tools(Principal{ID: "p"}); again[0].Sensitive[0] != "/properties/card" {
		t.Errorf("a copy's Sensitive changed the registry's: %q", again[0].Sensitive)
	}
}
