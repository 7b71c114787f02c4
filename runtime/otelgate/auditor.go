// Package otelgate records what a toolgate gate does as OpenTelemetry
// metrics and spans. It is a gate.Auditor (with the gate's DispatchHook
// and RepairAuditor), so one option wires it:
//
//	a, err := otelgate.New(otel.GetMeterProvider(), otel.GetTracerProvider())
//	reg, err := tools.NewRegistry(bindings, gate.WithAuditor(a))
//	reg.Dispatch(ctx, gate.Caller{Principal: p, Scope: conv, Model: "gpt-5"}, call)
//
// Instruments (meter and tracer "github.com/toolgate/toolgate/runtime/otelgate"):
//
//	toolgate.calls            counter, {call}: one per call
//	toolgate.call.duration    histogram, s: one per step that ran, toolgate.step = decode | policy | execute
//	toolgate.repair.attempts  histogram, {attempt}: one per repair loop, its number of attempts, with the final outcome
//	toolgate.replay.refusals  counter, {call}: calls refused as duplicate_call or replay_unavailable
//	toolgate.late.outcomes    counter, {call}: executors that returned after the gate stopped waiting
//	                          (gate.Event.Late), by their own outcome; such a call is counted once
//	                          in toolgate.calls, with the gate's answer
//	toolgate.approvals        counter, {event}: approval steps (gate.Event.Kind), toolgate.approval.step =
//	                          approval_requested | approval_approved | approval_rejected | approval_expired
//	                          | approval_resumed, with their outcome; a requested or resumed call is
//	                          also counted in toolgate.calls (approved, rejected and expired are not calls)
//
// and a span "toolgate.dispatch" per dispatch (toolgate.batch.size), with a
// child span "toolgate.call" per call of the batch, from the start of the
// dispatch to the call's outcome; a refused call's span has status Error
// and the code as description.
//
// Attributes: toolgate.tool, toolgate.tool.version (the schema version),
// toolgate.dialect ("plain" for calls without one), toolgate.outcome (the
// code, "ok" for a success) and toolgate.category ("none" for a success);
// gen_ai.request.model when the caller gave Caller.Model. A tool name that
// did not resolve to a tool the caller may see is recorded as "_unknown":
// it is the model's text, and would let the model choose label values.
// Calls also carry toolgate.executed and toolgate.attempt on their spans,
// and a refusal with a cause (gate.Event.Cause: a denial's policy error
// text, a store failure's class) toolgate.cause; the cause is on the span
// only, never a metric attribute, since a policy's text has no bound.
//
// Nothing else is recorded: never an argument value, and not the
// violations either (their paths hold member names the model wrote), nor
// the scope, principal or call ID.
package otelgate

import (
	"context"
	"errors"
	"time"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// Scope is the instrumentation scope of the meter and the tracer.
const Scope = "github.com/toolgate/toolgate/runtime/otelgate"

// The attribute keys.
const (
	KeyTool      = attribute.Key("toolgate.tool")
	KeyVersion   = attribute.Key("toolgate.tool.version")
	KeyDialect   = attribute.Key("toolgate.dialect")
	KeyOutcome   = attribute.Key("toolgate.outcome")
	KeyCategory  = attribute.Key("toolgate.category")
	KeyStep      = attribute.Key("toolgate.step")
	KeyModel     = attribute.Key("gen_ai.request.model")
	KeyExecuted  = attribute.Key("toolgate.executed")
	KeyAttempt   = attribute.Key("toolgate.attempt")
	KeyBatchSize = attribute.Key("toolgate.batch.size")
	// KeyCause is gate.Event.Cause, on call spans only.
	KeyCause = attribute.Key("toolgate.cause")
	// KeyApprovalStep is the gate.EventKind of an approval event.
	KeyApprovalStep = attribute.Key("toolgate.approval.step")
)

// UnknownTool is the toolgate.tool value of a name that did not resolve.
const UnknownTool = "_unknown"

// Auditor records calls as metrics and spans. It is safe for concurrent
// use.
type Auditor struct {
	tracer   trace.Tracer
	calls    metric.Int64Counter
	duration metric.Float64Histogram
	repairs  metric.Int64Histogram
	replays  metric.Int64Counter
	late     metric.Int64Counter
	approval metric.Int64Counter
}

var (
	_ gate.Auditor       = (*Auditor)(nil)
	_ gate.DispatchHook  = (*Auditor)(nil)
	_ gate.RepairAuditor = (*Auditor)(nil)
)

// New returns an Auditor recording through mp and tp.
func New(mp metric.MeterProvider, tp trace.TracerProvider) (*Auditor, error) {
	if mp == nil || tp == nil {
		return nil, errors.New("otelgate: nil meter or tracer provider")
	}
	m := mp.Meter(Scope)
	a := &Auditor{tracer: tp.Tracer(Scope)}
	var errs [6]error
	a.calls, errs[0] = m.Int64Counter("toolgate.calls", metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls handled by the gate, by outcome."))
	a.duration, errs[1] = m.Float64Histogram("toolgate.call.duration", metric.WithUnit("s"),
		metric.WithDescription("Time spent in each step of a call: decode, policy, execute."),
		metric.WithExplicitBucketBoundaries(0.00001, 0.00005, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30))
	a.repairs, errs[2] = m.Int64Histogram("toolgate.repair.attempts", metric.WithUnit("{attempt}"),
		metric.WithDescription("Attempts per repair loop, by the loop's final outcome."),
		metric.WithExplicitBucketBoundaries(1, 2, 3, 4, 5, 8, 10))
	a.replays, errs[3] = m.Int64Counter("toolgate.replay.refusals", metric.WithUnit("{call}"),
		metric.WithDescription("Calls refused by the replay check: duplicate_call or replay_unavailable."))
	a.late, errs[4] = m.Int64Counter("toolgate.late.outcomes", metric.WithUnit("{call}"),
		metric.WithDescription("Executors that returned after the gate answered without them (a timeout), by their own outcome."))
	a.approval, errs[5] = m.Int64Counter("toolgate.approvals", metric.WithUnit("{event}"),
		metric.WithDescription("Approval steps on pending calls, by step and outcome."))
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	return a, nil
}

// startKey holds the start of the dispatch in its context.
type startKey struct{}

// StartDispatch implements gate.DispatchHook: it starts the dispatch span.
func (a *Auditor) StartDispatch(ctx context.Context, c gate.Caller, calls int) (context.Context, func()) {
	attrs := []attribute.KeyValue{KeyBatchSize.Int(calls)}
	if c.Model != "" {
		attrs = append(attrs, KeyModel.String(c.Model))
	}
	start := time.Now()
	ctx, span := a.tracer.Start(ctx, "toolgate.dispatch", trace.WithTimestamp(start), trace.WithAttributes(attrs...))
	return context.WithValue(ctx, startKey{}, start), func() { span.End() }
}

// attrs returns the attributes common to a call's instruments.
func attrs(tool string, resolved bool, version string, d gate.Dialect, model string) []attribute.KeyValue {
	if !resolved {
		tool, version = UnknownTool, ""
	}
	dialect := string(d)
	if dialect == "" {
		dialect = "plain"
	}
	out := []attribute.KeyValue{KeyTool.String(tool), KeyVersion.String(version), KeyDialect.String(dialect)}
	if model != "" {
		out = append(out, KeyModel.String(model))
	}
	return out
}

// outcome returns the outcome attributes of a code.
func outcome(code toolerr.Code, cat toolerr.Category) []attribute.KeyValue {
	if code == gate.OK {
		return []attribute.KeyValue{KeyOutcome.String(string(gate.OK)), KeyCategory.String("none")}
	}
	return []attribute.KeyValue{KeyOutcome.String(string(code)), KeyCategory.String(string(cat))}
}

// Audit implements gate.Auditor.
func (a *Auditor) Audit(ctx context.Context, e gate.Event) {
	base := attrs(e.Tool, e.Resolved, e.Version, e.Dialect, e.Model)
	all := append(base[:len(base):len(base)], outcome(e.Code, e.Category)...)
	if e.Late {
		a.late.Add(ctx, 1, metric.WithAttributes(all...))
		return
	}
	if e.Kind != "" {
		a.approval.Add(ctx, 1, metric.WithAttributes(append(all[:len(all):len(all)], KeyApprovalStep.String(string(e.Kind)))...))
		if e.Kind != gate.ApprovalRequested && e.Kind != gate.ApprovalResumed {
			return
		}
	}
	a.calls.Add(ctx, 1, metric.WithAttributes(all...))
	for _, s := range []struct {
		name string
		d    time.Duration
	}{{"decode", e.Decode}, {"policy", e.Policy}, {"execute", e.Execute}} {
		if s.d > 0 {
			a.duration.Record(ctx, s.d.Seconds(), metric.WithAttributes(append(base[:len(base):len(base)], KeyStep.String(s.name))...))
		}
	}
	if e.Code == toolerr.DuplicateCall || e.Code == toolerr.ReplayUnavailable {
		a.replays.Add(ctx, 1, metric.WithAttributes(all...))
	}
	end := time.Now()
	start, ok := ctx.Value(startKey{}).(time.Time)
	if !ok {
		start = end.Add(-e.Duration)
	}
	spanAttrs := append(all, KeyExecuted.Bool(e.Executed), KeyAttempt.Int(e.Attempt))
	if e.Cause != "" {
		spanAttrs = append(spanAttrs, KeyCause.String(e.Cause))
	}
	_, span := a.tracer.Start(ctx, "toolgate.call", trace.WithTimestamp(start), trace.WithAttributes(spanAttrs...))
	if e.Code != gate.OK {
		span.SetStatus(codes.Error, string(e.Code))
	}
	span.End(trace.WithTimestamp(end))
}

// AuditRepair implements gate.RepairAuditor.
func (a *Auditor) AuditRepair(ctx context.Context, e gate.RepairEvent) {
	all := append(attrs(e.Tool, e.Resolved, e.Version, e.Dialect, e.Model), outcome(e.Code, e.Category)...)
	a.repairs.Record(ctx, int64(e.Attempts), metric.WithAttributes(all...))
}
