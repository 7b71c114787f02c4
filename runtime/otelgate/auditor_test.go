package otelgate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func allow[A any]() gate.Binding[A] {
	return gate.Binding[A]{Policy: gate.AllowAll[A], Execute: func(context.Context, A) (any, error) { return "done", nil }}
}

// withoutApproval lets a refund run without approval: refund_order asks
// its binding whether a call needs one.
func withoutApproval[A any](b gate.Binding[A]) gate.Binding[A] {
	b.NeedsApproval = func(context.Context, gate.Principal, A) (bool, string) { return false, "" }
	return b
}

func newRegistry(t *testing.T, a gate.Auditor, store gate.ReplayStore) *gate.Registry {
	t.Helper()
	opts := []gate.Option{gate.WithAuditor(a)}
	if store != nil {
		opts = append(opts, gate.WithReplayStore(store))
	}
	reg, err := generated.NewRegistry(generated.Bindings{
		CancelOrder: allow[generated.CancelOrderArgs](), CreateShipment: allow[generated.CreateShipmentArgs](),
		GetOrderStatus: gate.TypedBinding[generated.GetOrderStatusArgs, generated.GetOrderStatusResult]{Policy: gate.AllowAll[generated.GetOrderStatusArgs],
			Execute: func(_ context.Context, a generated.GetOrderStatusArgs) (generated.GetOrderStatusResult, error) {
				return generated.GetOrderStatusResult{OrderID: a.OrderID, Status: generated.GetOrderStatusResultStatusPaid, UpdatedAt: "2026-01-02T09:30:00Z"}, nil
			}},
		RefundOrder:           withoutApproval(allow[generated.RefundOrderArgs]()),
		ScheduleOrderDispatch: allow[generated.ScheduleOrderDispatchArgs](),
		UpdateDeliveryContact: allow[generated.UpdateDeliveryContactArgs](),
	}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// downStore is a replay store whose every call fails.
type downStore struct{}

var errDown = errors.New("store down")

func (downStore) Seen(context.Context, string, string) (bool, error)  { return false, errDown }
func (downStore) Claim(context.Context, string, string) (bool, error) { return false, errDown }
func (downStore) Release(context.Context, string, string) error       { return errDown }

// The argument values carry a marker that must never be recorded.
const (
	good = `{"orderId":"A-SECRET-4242","amountInCents":2500,"reason":"duplicate"}`
	bad  = `{"orderId":"A-SECRET-4242","amountInCents":"2500","reason":"duplicate"}`
)

func refund(id, args string, d gate.Dialect) gate.Call {
	return gate.Call{ID: id, Name: "refund_order", Args: []byte(args), Complete: true, Dialect: d}
}

// flatten renders every data point of the otelgate scope as one line:
// "name unit kind {attributes} value"; for the step durations, whose
// values are times, only the count.
func flatten(t *testing.T, rm metricdata.ResourceMetrics) []string {
	t.Helper()
	var out []string
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != Scope {
			t.Errorf("unexpected scope %q", sm.Scope.Name)
			continue
		}
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				if !d.IsMonotonic || d.Temporality != metricdata.CumulativeTemporality {
					t.Errorf("%s: not a cumulative counter", m.Name)
				}
				for _, p := range d.DataPoints {
					out = append(out, fmt.Sprintf("%s %s counter %s = %d", m.Name, m.Unit, set(p.Attributes), p.Value))
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					out = append(out, fmt.Sprintf("%s %s histogram %s count=%d", m.Name, m.Unit, set(p.Attributes), p.Count))
				}
			case metricdata.Histogram[int64]:
				for _, p := range d.DataPoints {
					out = append(out, fmt.Sprintf("%s %s histogram %s count=%d sum=%d", m.Name, m.Unit, set(p.Attributes), p.Count, p.Sum))
				}
			default:
				t.Errorf("%s: unexpected data %T", m.Name, m.Data)
			}
		}
	}
	slices.Sort(out)
	return out
}

func set(s attribute.Set) string {
	var kv []string
	for _, a := range s.ToSlice() {
		kv = append(kv, string(a.Key)+"="+a.Value.Emit())
	}
	return "{" + strings.Join(kv, ",") + "}"
}

// TestAuditor drives two registries through successes, argument errors,
// an unknown tool, a replay, a failing replay store, a repair loop and a
// batch, then asserts every data point of every instrument, the spans and
// their parents, and that no argument value was recorded anywhere.
func TestAuditor(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	a, err := New(mp, tp)
	if err != nil {
		t.Fatal(err)
	}
	reg := newRegistry(t, a, nil)
	down := newRegistry(t, a, downStore{})
	ctx := context.Background()
	m1 := gate.Caller{Principal: gate.Principal{ID: "u1", Roles: []string{"support"}}, Scope: "conv-1", Model: "m1"}
	noModel := m1
	noModel.Model = ""

	reg.Dispatch(ctx, m1, refund("c1", good, gate.Anthropic))                                                                // ok
	reg.Dispatch(ctx, m1, refund("c1", good, gate.Anthropic))                                                                // duplicate_call
	reg.Dispatch(ctx, noModel, refund("c2", bad, gate.Anthropic))                                                            // invalid_arguments, no model
	reg.Dispatch(ctx, m1, gate.Call{ID: "c3", Name: "A-SECRET-4242", Args: []byte(good), Complete: true, Dialect: gate.MCP}) // unknown_tool
	if _, err := reg.DispatchWithRepair(ctx, m1, refund("c4", bad, gate.Anthropic), gate.Repair{MaxAttempts: 3,
		Next: func(context.Context, gate.Call, *toolerr.Error) (gate.Call, error) {
			return refund("c4'", good, gate.Anthropic), nil
		},
	}); err != nil {
		t.Fatal(err)
	}
	down.Dispatch(ctx, m1, refund("c5", good, gate.Anthropic)) // replay_unavailable
	reg.DispatchBatch(ctx, m1, []gate.Call{refund("c6", good, gate.Anthropic), refund("c7", good, gate.Anthropic)}, gate.BatchOptions{})

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	v := generated.RefundOrderSpec.Version
	ref := func(model string, more string) string {
		m := ""
		if model != "" {
			m = "gen_ai.request.model=" + model + ","
		}
		return "{" + m + more + "}"
	}
	call := func(model, outcome, cat string) string {
		return ref(model, "toolgate.category="+cat+",toolgate.dialect=anthropic,toolgate.outcome="+outcome+",toolgate.tool=refund_order,toolgate.tool.version="+v)
	}
	step := func(model, s string) string {
		return ref(model, "toolgate.dialect=anthropic,toolgate.step="+s+",toolgate.tool=refund_order,toolgate.tool.version="+v)
	}
	want := []string{
		"toolgate.calls {call} counter " + call("m1", "ok", "none") + " = 4",
		"toolgate.calls {call} counter " + call("m1", "duplicate_call", "validation") + " = 1",
		"toolgate.calls {call} counter " + call("", "invalid_arguments", "validation") + " = 1",
		"toolgate.calls {call} counter " + call("m1", "invalid_arguments", "validation") + " = 1",
		"toolgate.calls {call} counter " + call("m1", "replay_unavailable", "system") + " = 1",
		"toolgate.calls {call} counter {gen_ai.request.model=m1,toolgate.category=validation,toolgate.dialect=mcp,toolgate.outcome=unknown_tool,toolgate.tool=_unknown,toolgate.tool.version=} = 1",
		"toolgate.call.duration s histogram " + step("m1", "decode") + " count=5",
		"toolgate.call.duration s histogram " + step("m1", "policy") + " count=4",
		"toolgate.call.duration s histogram " + step("m1", "execute") + " count=4",
		"toolgate.call.duration s histogram " + step("", "decode") + " count=1",
		"toolgate.repair.attempts {attempt} histogram " + call("m1", "ok", "none") + " count=1 sum=2",
		"toolgate.replay.refusals {call} counter " + call("m1", "duplicate_call", "validation") + " = 1",
		"toolgate.replay.refusals {call} counter " + call("m1", "replay_unavailable", "system") + " = 1",
	}
	slices.Sort(want)
	got := flatten(t, rm)
	if !slices.Equal(got, want) {
		t.Errorf("metrics:\n got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}

	ended := spans.Ended()
	dispatches := map[string]int{} // span ID → children
	var calls []sdktrace.ReadOnlySpan
	for _, s := range ended {
		switch s.Name() {
		case "toolgate.dispatch":
			dispatches[s.SpanContext().SpanID().String()] += 0
		case "toolgate.call":
			calls = append(calls, s)
		default:
			t.Errorf("unexpected span %q", s.Name())
		}
	}
	if len(dispatches) != 8 || len(calls) != 9 {
		t.Fatalf("%d dispatch spans and %d call spans, want 8 and 9", len(dispatches), len(calls))
	}
	for _, s := range calls {
		parent := s.Parent().SpanID().String()
		if _, ok := dispatches[parent]; !ok {
			t.Errorf("call span %v has no dispatch span as parent", s.Attributes())
		}
		dispatches[parent]++
	}
	var sizes []int
	for _, n := range dispatches {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	if !slices.Equal(sizes, []int{1, 1, 1, 1, 1, 1, 1, 2}) {
		t.Errorf("children per dispatch span %v, want one batch of 2", sizes)
	}
	first := calls[0]
	wantFirst := "{gen_ai.request.model=m1,toolgate.attempt=1,toolgate.category=none,toolgate.dialect=anthropic,toolgate.executed=true,toolgate.outcome=ok,toolgate.tool=refund_order,toolgate.tool.version=" + v + "}"
	if got := set(attribute.NewSet(first.Attributes()...)); got != wantFirst || first.Status().Code != codes.Unset {
		t.Errorf("first call span: %s, status %v\nwant %s", got, first.Status(), wantFirst)
	}
	if s := calls[1]; s.Status().Code != codes.Error || s.Status().Description != "duplicate_call" {
		t.Errorf("refused call span status %v", s.Status())
	}
	for _, s := range ended {
		if s.Name() == "toolgate.dispatch" && !slices.Contains(s.Attributes(), KeyBatchSize.Int(1)) && !slices.Contains(s.Attributes(), KeyBatchSize.Int(2)) {
			t.Errorf("dispatch span attributes %v", s.Attributes())
		}
		for _, kv := range s.Attributes() {
			if strings.Contains(kv.Value.Emit(), "SECRET") {
				t.Errorf("span %s recorded an argument value: %s", s.Name(), kv.Value.Emit())
			}
		}
	}
	for _, line := range got {
		if strings.Contains(line, "SECRET") {
			t.Errorf("a metric recorded an argument value: %s", line)
		}
	}
}

// TestLateOutcome: an executor that returns after the gate answered
// timeout is counted once in toolgate.calls, with the gate's answer, and
// its own outcome in toolgate.late.outcomes.
func TestLateOutcome(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	a, err := New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)), sdktrace.NewTracerProvider())
	if err != nil {
		t.Fatal(err)
	}
	spec := generated.RefundOrderSpec
	spec.Timeout = time.Millisecond
	release := make(chan struct{})
	tool := gate.Bind(spec, withoutApproval(gate.Binding[generated.RefundOrderArgs]{
		Policy: gate.AllowAll[generated.RefundOrderArgs],
		Execute: func(context.Context, generated.RefundOrderArgs) (any, error) {
			<-release // ignores its context
			return "done", nil
		},
	}))
	reg, err := gate.NewRegistry([]*gate.Tool{tool}, gate.WithAuditor(a))
	if err != nil {
		t.Fatal(err)
	}
	caller := gate.Caller{Principal: gate.Principal{ID: "u1", Roles: []string{"support"}}, Scope: "s"}
	_, err = reg.Dispatch(context.Background(), caller, refund("c1", good, gate.Plain))
	if te := (*toolerr.Error)(nil); !errors.As(err, &te) || te.Code != toolerr.Timeout {
		t.Fatalf("dispatch: %v, want timeout", err)
	}
	close(release)
	v := spec.Version
	want := []string{
		"toolgate.calls {call} counter {toolgate.category=system,toolgate.dialect=plain,toolgate.outcome=timeout,toolgate.tool=refund_order,toolgate.tool.version=" + v + "} = 1",
		"toolgate.late.outcomes {call} counter {toolgate.category=none,toolgate.dialect=plain,toolgate.outcome=ok,toolgate.tool=refund_order,toolgate.tool.version=" + v + "} = 1",
	}
	// The late event comes from the executor's goroutine once it returns.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var rm metricdata.ResourceMetrics
		if err := reader.Collect(context.Background(), &rm); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, line := range flatten(t, rm) {
			if !strings.HasPrefix(line, "toolgate.call.duration") {
				got = append(got, line)
			}
		}
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("data points:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestApprovalSteps: a refund that waits for approval is one call
// (approval_required); approving it is an approval step, not a call;
// resuming it runs it, a call again.
func TestApprovalSteps(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	a, err := New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)), sdktrace.NewTracerProvider())
	if err != nil {
		t.Fatal(err)
	}
	b := allow[generated.RefundOrderArgs]()
	b.NeedsApproval = func(context.Context, gate.Principal, generated.RefundOrderArgs) (bool, string) { return true, "always" }
	reg, err := gate.NewRegistry([]*gate.Tool{gate.Bind(generated.RefundOrderSpec, b)}, gate.WithAuditor(a))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	caller := gate.Caller{Principal: gate.Principal{ID: "u1", Roles: []string{"support"}}, Scope: "s"}
	res, _ := reg.Dispatch(ctx, caller, refund("c1", good, gate.Plain))
	if res.Approval == nil {
		t.Fatalf("dispatch: %+v, want a pending call", res)
	}
	if err := reg.Approve(ctx, gate.Principal{ID: "u2", Roles: []string{"finance"}}, res.Approval.PendingID); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Resume(ctx, res.Approval.PendingID); err != nil {
		t.Fatal(err)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	v := generated.RefundOrderSpec.Version
	tool := "toolgate.dialect=plain,"
	var got []string
	for _, line := range flatten(t, rm) {
		if !strings.HasPrefix(line, "toolgate.call.duration") {
			got = append(got, line)
		}
	}
	want := []string{
		"toolgate.approvals {event} counter {toolgate.approval.step=approval_approved,toolgate.category=none," + tool + "toolgate.outcome=ok,toolgate.tool=refund_order,toolgate.tool.version=" + v + "} = 1",
		"toolgate.approvals {event} counter {toolgate.approval.step=approval_requested,toolgate.category=approval," + tool + "toolgate.outcome=approval_required,toolgate.tool=refund_order,toolgate.tool.version=" + v + "} = 1",
		"toolgate.approvals {event} counter {toolgate.approval.step=approval_resumed,toolgate.category=none," + tool + "toolgate.outcome=ok,toolgate.tool=refund_order,toolgate.tool.version=" + v + "} = 1",
		"toolgate.calls {call} counter {toolgate.category=approval," + tool + "toolgate.outcome=approval_required,toolgate.tool=refund_order,toolgate.tool.version=" + v + "} = 1",
		"toolgate.calls {call} counter {toolgate.category=none," + tool + "toolgate.outcome=ok,toolgate.tool=refund_order,toolgate.tool.version=" + v + "} = 1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("data points:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
