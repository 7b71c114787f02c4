package gate

import (
	"context"
	"log/slog"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Event is what the gate reports about one call. It never carries argument
// values: violations are reported by keyword and path only.
type Event struct {
	RequestID string
	Scope     string
	Principal string
	CallID    string
	// Tool is the resolved tool, or the name the model wrote when it did
	// not resolve.
	Tool    string
	Version string
	// Resolved reports whether Tool names a tool the caller may see (when
	// false, Tool is the model's text).
	Resolved bool
	// Code is "ok" for a successful call, else the refusal's code.
	Code     toolerr.Code
	Category toolerr.Category
	// Violations lists keyword and instance path of each violation.
	Violations []ViolationRef
	Executed   bool
	Duration   time.Duration
	// Attempt is the 1-based attempt number within a repair loop (1 outside
	// one).
	Attempt int
	// Late marks the second event of a call whose answer the gate gave
	// without its executor's outcome (timeout, or execution_failed for a
	// cancelled request, with Executed set): the event of the executor's
	// own outcome once it returned — ok, conflict or execution_failed (an
	// error or a panic) — with Duration up to its return. It can come
	// after Dispatch has returned, from another goroutine.
	Late bool
	// Dialect is the provider format the call came in.
	Dialect Dialect
	// Model is Caller.Model: the model that proposed the call, if known.
	Model string
	// Decode, Policy and Execute are the time spent decoding the arguments,
	// in the tool's policy and in the executor; each is zero when its step
	// did not run. The clock is read once per step boundary, so each step
	// counts the gate's own bookkeeping since the previous one: Decode runs
	// from the dispatch's start (from the replay store's claim for a call
	// with an ID), Execute from the end of the policy.
	Decode, Policy, Execute time.Duration
	// Kind is the approval step the event reports (see EventKind); empty
	// for a call dispatched and decided without one.
	Kind EventKind
	// PendingID names the pending call of an approval event.
	PendingID string
	// Approver is the ID of the principal who approved or rejected.
	Approver string
	// Cause says why a refusal happened, beyond its code: for
	// unauthorized, the policy's own error text, as the service wrote it
	// (so a policy's error must not quote a sensitive value); for
	// replay_unavailable and approval_unavailable, the class of the
	// store's error (CauseStoreFull, CauseStoreNetwork, …), never its
	// text. It is empty otherwise, and never holds an argument value of
	// the gate's making.
	Cause string
}

// EventKind names an approval step. An event with a Kind reports that step
// on a pending call: Code is ok when the step was done, else why it was
// refused. Approval events never carry argument values either.
type EventKind string

// The approval steps.
const (
	// ApprovalRequested: a dispatched call was stored to await approval
	// (Code approval_required).
	ApprovalRequested EventKind = "approval_requested"
	// ApprovalApproved: Approve.
	ApprovalApproved EventKind = "approval_approved"
	// ApprovalRejected: Reject.
	ApprovalRejected EventKind = "approval_rejected"
	// ApprovalExpired: a step found the call past its expiry and marked it
	// expired (once per call).
	ApprovalExpired EventKind = "approval_expired"
	// ApprovalResumed: Resume; Code and Executed are the run's, as for a
	// dispatched call.
	ApprovalResumed EventKind = "approval_resumed"
)

// ViolationRef locates a violation without its message, which may quote a
// value.
type ViolationRef struct {
	Keyword      string
	InstancePath string
}

// OK is the Code of an event for a call that ran and succeeded.
const OK toolerr.Code = "ok"

// Auditor receives one event per call, and a second one, marked Late, for
// a call answered without its executor's outcome. Audit may be called from
// several goroutines at once (concurrent dispatches, parallel batches, late
// executors). A panic in Audit is recovered by the gate and the event is
// lost.
type Auditor interface {
	Audit(ctx context.Context, e Event)
}

type nopAuditor struct{}

func (nopAuditor) Audit(context.Context, Event) {}

// AuditorFunc adapts a function to Auditor.
type AuditorFunc func(ctx context.Context, e Event)

// Audit calls f.
func (f AuditorFunc) Audit(ctx context.Context, e Event) { f(ctx, e) }

// SlogAuditor logs each event to l: successes at Info, refusals at Warn
// and system failures at Error. The violations are one attribute,
// "violations": a list of objects with "keyword" and "path" (in JSON, an
// array), in the event's order.
func SlogAuditor(l *slog.Logger) Auditor {
	return AuditorFunc(func(ctx context.Context, e Event) {
		level := slog.LevelInfo
		switch {
		case e.Code == OK:
		case e.Category == toolerr.System:
			level = slog.LevelError
		default:
			level = slog.LevelWarn
		}
		attrs := []slog.Attr{
			slog.String("request_id", e.RequestID),
			slog.String("scope", e.Scope),
			slog.String("principal", e.Principal),
			slog.String("call_id", e.CallID),
			slog.String("tool", e.Tool),
			slog.String("version", e.Version),
			slog.String("code", string(e.Code)),
			slog.Bool("executed", e.Executed),
			slog.Duration("duration", e.Duration),
		}
		if e.Category != "" {
			attrs = append(attrs, slog.String("category", string(e.Category)))
		}
		if e.Late {
			attrs = append(attrs, slog.Bool("late", true))
		}
		if e.Attempt > 1 {
			attrs = append(attrs, slog.Int("attempt", e.Attempt))
		}
		if e.Kind != "" {
			attrs = append(attrs, slog.String("kind", string(e.Kind)), slog.String("pending_id", e.PendingID))
		}
		if e.Approver != "" {
			attrs = append(attrs, slog.String("approver", e.Approver))
		}
		if e.Cause != "" {
			attrs = append(attrs, slog.String("cause", e.Cause))
		}
		if len(e.Violations) > 0 {
			attrs = append(attrs, slog.Any("violations", violationList(e.Violations)))
		}
		l.LogAttrs(ctx, level, "tool call", attrs...)
	})
}

// violation is one violation as SlogAuditor logs it.
type violation struct {
	Keyword string `json:"keyword"`
	Path    string `json:"path"`
}

// violationList returns the violations as SlogAuditor logs them.
func violationList(vs []ViolationRef) []violation {
	out := make([]violation, len(vs))
	for i, v := range vs {
		out[i] = violation{Keyword: v.Keyword, Path: v.InstancePath}
	}
	return out
}

// emit reports the outcome of c, d after its step started: the call's
// (a refusal), or the executor's (res.Executed), which is late when the
// gate answered without it (the event then goes to a context the
// request's end does not cancel).
func (c *call) emit(res Result, d time.Duration, late bool) {
	r := c.r
	if r.quiet {
		return
	}
	ctx := c.ctx
	if late {
		ctx = context.WithoutCancel(ctx)
	}
	cl, in := &c.caller, &c.in
	e := Event{
		RequestID: cl.RequestID, Scope: cl.Scope, Principal: cl.Principal.ID,
		CallID: in.ID, Tool: in.Name, Code: OK, Executed: res.Executed, Duration: d, Attempt: c.attempt, Late: late,
		Dialect: in.Dialect, Model: cl.Model, Decode: c.tm.decode, Policy: c.tm.policy,
	}
	if res.Executed {
		e.Execute = d
	}
	t := c.tool
	if t == nil {
		t, _ = r.lookup(cl.Principal, in.Name, in.Dialect)
	}
	if t != nil {
		e.Version, e.Resolved = t.Version, true
	}
	if res.Err != nil {
		e.Code, e.Category, e.Cause = res.Err.Code, res.Err.Code.Category(), cause(res.Err)
		if vs := res.Err.Violations(); len(vs) > 0 {
			e.Violations = make([]ViolationRef, len(vs))
			for i, v := range vs {
				e.Violations[i] = ViolationRef{Keyword: v.Keyword, InstancePath: v.InstancePath}
			}
		}
	}
	approvalEvent(&e, c.pending, res)
	// A panicking auditor loses its event; it does not turn the call's
	// outcome into a panic.
	defer func() { _ = recover() }()
	r.audit.Audit(ctx, e)
}

// DispatchHook is implemented by an Auditor that wants to wrap each
// dispatch (Dispatch, DispatchBatch, each attempt of DispatchWithRepair),
// for example in a trace span. StartDispatch is called before the first
// check with the number of calls; the context it returns is the one the
// checks, the executors and the audit events of the dispatch get, and end
// is called when the dispatch returns. A panic in either is recovered: the
// dispatch then goes on with its own context.
type DispatchHook interface {
	StartDispatch(ctx context.Context, c Caller, calls int) (_ context.Context, end func())
}

// startDispatch runs the auditor's DispatchHook, if it has one.
func (r *Registry) startDispatch(ctx context.Context, c Caller, calls int) (out context.Context, end func()) {
	h := r.hook
	if h == nil {
		return ctx, func() {}
	}
	defer func() {
		if recover() != nil {
			out, end = ctx, func() {}
		}
	}()
	hctx, hend := h.StartDispatch(ctx, c, calls)
	if hctx == nil || hend == nil {
		return ctx, func() {}
	}
	return hctx, func() {
		defer func() { _ = recover() }()
		hend()
	}
}

// RepairEvent is the outcome of one repair loop (DispatchWithRepair).
type RepairEvent struct {
	RequestID string
	Scope     string
	Principal string
	Model     string
	Dialect   Dialect
	// Tool, Version and Resolved are the last attempt's, as in Event.
	Tool     string
	Version  string
	Resolved bool
	// Attempts is the number of attempts made, the first call included.
	Attempts int
	// Code and Category are the last attempt's outcome (OK on success).
	Code     toolerr.Code
	Category toolerr.Category
}

// RepairAuditor is implemented by an Auditor that also wants the outcome
// of each repair loop, once it ends. A panic in AuditRepair is recovered.
type RepairAuditor interface {
	AuditRepair(ctx context.Context, e RepairEvent)
}

// emitRepair reports the outcome of a repair loop to a RepairAuditor.
func (r *Registry) emitRepair(ctx context.Context, c Caller, call Call, res Result, attempts int) {
	ra, ok := r.audit.(RepairAuditor)
	if !ok {
		return
	}
	e := RepairEvent{
		RequestID: c.RequestID, Scope: c.Scope, Principal: c.Principal.ID, Model: c.Model,
		Dialect: call.Dialect, Tool: call.Name, Attempts: attempts, Code: OK,
	}
	if t, ok := r.lookup(c.Principal, call.Name, call.Dialect); ok {
		e.Version, e.Resolved = t.Version, true
	}
	if res.Err != nil {
		e.Code, e.Category = res.Err.Code, res.Err.Code.Category()
	}
	defer func() { _ = recover() }()
	ra.AuditRepair(ctx, e)
}
