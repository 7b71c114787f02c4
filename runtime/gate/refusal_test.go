package gate

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// sharedRefusal is a decoder's refusal that is the same *toolerr.Error on
// every call, as a generated decoder's is on every errors.As.
func sharedRefusal() *toolerr.Error {
	return (&toolerr.Error{Code: toolerr.InvalidArguments, Tool: "pay", Truncated: true}).SetViolations([]toolerr.Violation{
		{Keyword: "required", InstancePath: "", SchemaPath: "/required", Message: "amount is required"},
	})
}

// TestRefusalLeavesTheDecodersErrorAlone: every path that refuses a call
// whose decoder returned a shared *toolerr.Error (directly or wrapped)
// answers with an error of its own, for the call's ID and the tool's
// registered name (which may differ from the spec's), with the decoder's
// code, violations and Truncated, and never changes the shared one.
func TestRefusalLeavesTheDecodersErrorAlone(t *testing.T) {
	shared := sharedRefusal()
	want := sharedRefusal()
	var c spyCounts
	for _, wrap := range []bool{false, true} {
		for _, timeout := range []time.Duration{0, time.Hour} {
			t.Run(fmt.Sprintf("wrapped %v/timeout %s", wrap, timeout), func(t *testing.T) {
				spec := paySpec(&c)
				spec.Timeout = timeout
				spec.Decode = func([]byte) (payArgs, error) {
					if wrap {
						return payArgs{}, fmt.Errorf("decode: %w", shared)
					}
					return payArgs{}, shared
				}
				tool := Bind(spec, payBinding(&c, nil, nil))
				tool.Name = "pay2"
				rec := newRecorder()
				r := mustRegistry(t, []*Tool{tool}, WithAuditor(rec))
				call := func(id string) Call { return Call{ID: id, Name: "pay2", Args: []byte(goodPay), Complete: true} }
				var got []*toolerr.Error
				for _, id := range []string{"a", ""} {
					_, err := r.Dispatch(context.Background(), caller, call(id))
					got = append(got, wantCode(t, err, toolerr.InvalidArguments, toolerr.Validation))
				}
				for _, res := range r.DispatchBatch(context.Background(), caller, []Call{call("b"), call("c")}, BatchOptions{}) {
					got = append(got, res.Err)
				}
				for i, id := range []string{"a", "", "b", "c"} {
					te := got[i]
					if te == shared || te.Tool != "pay2" || te.CallID != id || te.Code != want.Code || !te.Truncated || !reflect.DeepEqual(te.Violations(), want.Violations()) {
						t.Errorf("call %q: error %p %+v, want a copy of %p for pay2 and the call", id, te, te, shared)
					}
					if e := rec.wait(1)[0]; e.CallID != id || e.Tool != "pay2" || !reflect.DeepEqual(e.Violations, []ViolationRef{{Keyword: "required"}}) {
						t.Errorf("call %q: event %+v", id, e)
					}
				}
				if got[2] == got[3] {
					t.Error("the batch's calls share one error")
				}
				if !reflect.DeepEqual(shared, want) {
					t.Errorf("the decoder's error was changed: %+v, was %+v", shared, want)
				}
				if n := c.execs.Load(); n != 0 {
					t.Errorf("the executor ran %d times for refused calls", n)
				}
			})
		}
	}
}

// TestRefusalOfAPlainDecoderError: a decoder's error that is not a
// *toolerr.Error is invalid_arguments for the tool and the call, kept for
// the logs; a policy's denial is unauthorized for the call.
func TestRefusalOfAPlainDecoderError(t *testing.T) {
	var c spyCounts
	plain := errors.New("amount: received ACC-1")
	spec := paySpec(&c)
	spec.Decode = func([]byte) (payArgs, error) { return payArgs{}, plain }
	denied := errors.New("no")
	deny := func(context.Context, Principal, payArgs) error { return denied }
	bad := mustRegistry(t, []*Tool{Bind(spec, payBinding(&c, nil, nil))})
	denying := mustRegistry(t, []*Tool{Bind(paySpec(&c), payBinding(&c, deny, nil))})
	call := Call{ID: "a", Name: "pay", Args: []byte(goodPay), Complete: true}
	_, err := bad.Dispatch(context.Background(), caller, call)
	te := wantCode(t, err, toolerr.InvalidArguments, toolerr.Validation)
	if want := (toolerr.Error{Code: toolerr.InvalidArguments, Tool: "pay", CallID: "a", Reason: "the arguments were refused by the tool's decoder", Err: plain}); !reflect.DeepEqual(*te, want) {
		t.Errorf("error %+v, want %+v", *te, want)
	}
	_, err = denying.Dispatch(context.Background(), caller, call)
	te = wantCode(t, err, toolerr.Unauthorized, toolerr.Permission)
	if want := (toolerr.Error{Code: toolerr.Unauthorized, Tool: "pay", CallID: "a", Reason: "the caller may not run pay with these arguments", Err: denied}); !reflect.DeepEqual(*te, want) {
		t.Errorf("error %+v, want %+v", *te, want)
	}
	if n := c.execs.Load(); n != 0 {
		t.Errorf("the executor ran %d times for refused calls", n)
	}
}
