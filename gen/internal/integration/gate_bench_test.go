package integration_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// ---- benchmarks -------------------------------------------------------------------

// BenchmarkDispatch measures the gate's cost beyond the bare decoder: a
// valid refund_order call (the bytes of BenchmarkDecode/refund_order)
// through Registry.Dispatch (lookup, replay check, decode, policy that
// allows, executor that does nothing, audit), side by side in one run with
// "decode", the generated decoder alone, so that the ratios between the
// sub-benchmarks hold on a noisy machine: `make bench-gate` runs the
// benchmark once per round (go test's -count would run each variant's
// rounds back to back instead) and takes, per variant, the median over the
// rounds of its ratio to the round's decoder, in CPU time (the process's,
// the garbage collector's and the executors' goroutines' included: the
// cpu-ns/op metric), so that time spent waiting for a CPU on a busy machine
// does not count. Every variant dispatches under
// context.Background with the tool's own timeout (10s), so the executor
// runs in a goroutine of its own, except the "inline" variants, where the
// tool has no timeout and the executor runs in the dispatching goroutine
// (the gate could never stop waiting for it):
//
//   - no-id: a call without an ID (no replay store);
//   - inline: no-id, inline;
//   - id-memory: a fresh ID per call in a MemoryReplayStore whose IDs
//     expire after a millisecond, so that it holds a steady number of them;
//   - inline-id-memory: id-memory, inline;
//   - discard-auditor: no ID, an auditor that drops every event;
//   - inline-discard-auditor: discard-auditor, inline;
//   - slog-auditor: no ID, SlogAuditor writing JSON to io.Discard;
//   - handoff: no dispatch at all, only what running an executor in a
//     goroutine of its own costs at the least: start a goroutine that
//     does nothing and wait on a channel for it to finish;
//   - handoff-timeout: handoff the way the gate does it for a tool with a
//     timeout: the goroutine gets a context with the tool's timeout
//     (context.WithTimeoutCause, 10s), ends it when done, and the waiter
//     waits on the context alone. The variants with the tool's timeout pay
//     this on top of inline.
//
// Then the refusals, for two calls the decoder refuses (see
// TestDecodeAllocs): unknown-member, one unknown member, and
// three-violations (pattern, minimum and enum). Each is a group whose
// variants take their ratio to the group's own "decode", the decoder's
// refusal of the same bytes:
//
//   - <group>/decode: the generated decoder alone, refusing;
//   - <group>/no-id, <group>/id-memory, <group>/discard-auditor: as above,
//     the call refused by the decoder through Registry.Dispatch.
func BenchmarkDispatch(b *testing.B) {
	data := benchInput(b, refundT)
	newReg := func(b *testing.B, timeout time.Duration, opts ...gate.Option) *gate.Registry {
		spec := generated.RefundOrderSpec
		spec.Timeout = timeout
		reg, err := gate.NewRegistry([]*gate.Tool{gate.Bind(spec, benchBinding)}, opts...)
		if err != nil {
			b.Fatal(err)
		}
		return reg
	}
	caller := gate.Caller{Principal: pSupport, Scope: "bench"}
	ids := make([]string, 1<<16)
	for i := range ids {
		ids[i] = fmt.Sprintf("call_%d", i)
	}
	b.Run(refundT+"/decode", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := generated.DecodeRefundOrderArgs(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	timeout := generated.RefundOrderSpec.Timeout
	store := func() gate.Option {
		return gate.WithReplayStore(gate.NewMemoryReplayStore(gate.MemoryReplayConfig{IDsPerScope: 1 << 20, IDs: 1 << 20, MaxAge: time.Millisecond}))
	}
	discard := func() gate.Option {
		return gate.WithAuditor(gate.AuditorFunc(func(context.Context, gate.Event) {}))
	}
	type variant struct {
		name    string
		timeout time.Duration
		withID  bool
		opts    []gate.Option
	}
	variants := []variant{
		{"no-id", timeout, false, nil},
		{"inline", 0, false, nil},
		{"id-memory", timeout, true, []gate.Option{store()}},
		{"inline-id-memory", 0, true, []gate.Option{store()}},
		{"discard-auditor", timeout, false, []gate.Option{discard()}},
		{"inline-discard-auditor", 0, false, []gate.Option{discard()}},
		{"slog-auditor", timeout, false, []gate.Option{gate.WithAuditor(gate.SlogAuditor(slog.New(slog.NewJSONHandler(io.Discard, nil))))}},
	}
	// dispatch measures v's dispatches of a call with args, each of which
	// must end with code (gate.OK when it runs).
	dispatch := func(b *testing.B, v variant, args []byte, code toolerr.Code) {
		reg := newReg(b, v.timeout, v.opts...)
		c := gate.Call{Name: refundT, Args: args, Complete: true}
		b.ReportAllocs()
		defer reportCPU(b)()
		i := 0
		for b.Loop() {
			if v.withID {
				c.ID = ids[i%len(ids)]
				i++
			}
			if res, err := reg.Dispatch(context.Background(), caller, c); (res.Err == nil && code != gate.OK) || (res.Err != nil && res.Err.Code != code) {
				b.Fatalf("%v, want %s", err, code)
			}
		}
	}
	for _, v := range variants {
		b.Run(refundT+"/"+v.name, func(b *testing.B) { dispatch(b, v, data, gate.OK) })
	}
	b.Run(refundT+"/handoff", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			done := make(chan struct{})
			go func() { close(done) }()
			<-done
		}
	})
	errTimeout := errors.New("timeout")
	b.Run(refundT+"/handoff-timeout", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			ctx, cancel := context.WithTimeoutCause(context.Background(), timeout, errTimeout)
			go func() { cancel() }()
			<-ctx.Done()
		}
	})
	for _, g := range refusedCalls {
		data := []byte(g.args)
		b.Run(refundT+"/"+g.name+"/decode", func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := generated.DecodeRefundOrderArgs(data); err == nil {
					b.Fatal("accepted")
				}
			}
		})
		for _, v := range variants {
			if slices.Contains([]string{"no-id", "id-memory", "discard-auditor"}, v.name) {
				b.Run(refundT+"/"+g.name+"/"+v.name, func(b *testing.B) { dispatch(b, v, data, toolerr.InvalidArguments) })
			}
		}
	}
}

// benchBinding allows every call of refund_order and runs an executor
// that does nothing.
var benchBinding = gate.Binding[generated.RefundOrderArgs]{
	Policy:        gate.AllowAll[generated.RefundOrderArgs],
	Execute:       func(context.Context, generated.RefundOrderArgs) (any, error) { return nil, nil },
	NeedsApproval: noApproval[generated.RefundOrderArgs],
}

// refusedCalls are the refund_order calls its decoder refuses that
// BenchmarkDispatch and TestRefusedDispatchAllocations dispatch.
var refusedCalls = []struct{ name, args string }{
	{"unknown-member", refund("refundShipping", "true")},
	{"three-violations", refund("orderId", `"a-1"`, "amountInCents", "0", "reason", `"changed_my_mind"`)},
}

// TestRefusedDispatchAllocations: a call that refund_order's decoder
// refuses costs, through Registry.Dispatch, the decoder's refusal and two
// allocations more: the *toolerr.Error the refusal makes on errors.As, and
// the gate's copy of it for the call (with the target errors.As needs),
// whether the executor would run inline or aside, with a call ID or
// without. An auditor adds what rendering the violations costs, and their
// refs in the event.
func TestRefusedDispatchAllocations(t *testing.T) {
	caller := gate.Caller{Principal: pSupport, Scope: "allocs"}
	discard := gate.WithAuditor(gate.AuditorFunc(func(context.Context, gate.Event) {}))
	for _, g := range refusedCalls {
		data := []byte(g.args)
		decode := testing.AllocsPerRun(100, func() {
			if _, err := generated.DecodeRefundOrderArgs(data); err == nil {
				t.Fatal("accepted")
			}
		})
		read := func(violations bool) func() {
			return func() {
				_, err := generated.DecodeRefundOrderArgs(data)
				var te *toolerr.Error
				if !errors.As(err, &te) {
					t.Fatal(err)
				}
				if violations && len(te.Violations()) == 0 {
					t.Fatal("no violations")
				}
			}
		}
		render := testing.AllocsPerRun(100, read(true)) - testing.AllocsPerRun(100, read(false))
		for _, timeout := range []time.Duration{0, generated.RefundOrderSpec.Timeout} {
			for _, id := range []string{"", "call_1"} {
				for _, audited := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/timeout %s/id %q/audited %v", g.name, timeout, id, audited), func(t *testing.T) {
						spec := generated.RefundOrderSpec
						spec.Timeout = timeout
						var opts []gate.Option
						want := decode + 2
						if audited {
							opts, want = append(opts, discard), want+render+1
						}
						var ran atomic.Int64
						bind := benchBinding
						bind.Execute = func(context.Context, generated.RefundOrderArgs) (any, error) { ran.Add(1); return nil, nil }
						reg, err := gate.NewRegistry([]*gate.Tool{gate.Bind(spec, bind)}, opts...)
						if err != nil {
							t.Fatal(err)
						}
						c := gate.Call{ID: id, Name: refundT, Args: data, Complete: true}
						got := testing.AllocsPerRun(100, func() {
							if _, err := reg.Dispatch(context.Background(), caller, c); err == nil {
								t.Fatal("accepted")
							}
						})
						if got != want {
							t.Errorf("%v allocations per refused dispatch, want %v (the decoder's refusal %v, rendering its violations %v)", got, want, decode, render)
						}
						if n := ran.Load(); n != 0 {
							t.Errorf("the executor ran %d times for refused calls", n)
						}
					})
				}
			}
		}
	}
}

// reportCPU starts counting the process's CPU time; the function it
// returns reports it per iteration as the cpu-ns/op metric.
func reportCPU(b *testing.B) func() {
	start := processCPU(b)
	return func() { b.ReportMetric(float64(processCPU(b)-start)/float64(b.N), "cpu-ns/op") }
}

func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
