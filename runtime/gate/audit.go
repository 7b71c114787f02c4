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
	// Kind is the approval step the event reports (see EventKind); empty
	// for a call dispatched and decided without one.
	Kind EventKind
	// PendingID names the pending call of an approval event.
	PendingID string
	// Approver is the ID of the principal who approved or rejected.
	Approver string
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
// and system failures at Error.
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
		for _, v := range e.Violations {
			attrs = append(attrs, slog.Group("violation", slog.String("keyword", v.Keyword), slog.String("path", v.InstancePath)))
		}
		l.LogAttrs(ctx, level, "tool call", attrs...)
	})
}

// emit reports one call's outcome.
func (r *Registry) emit(ctx context.Context, c Caller, call Call, p *prepared, res Result, d time.Duration, attempt int, late bool) {
	e := Event{
		RequestID: c.RequestID, Scope: c.Scope, Principal: c.Principal.ID,
		CallID: call.ID, Tool: call.Name, Code: OK, Executed: res.Executed, Duration: d, Attempt: attempt, Late: late,
	}
	if t, ok := r.lookup(c.Principal, call.Name, call.Dialect); ok {
		e.Version = t.Version
	}
	if p != nil {
		e.Version = p.tool.Version
	}
	if res.Err != nil {
		e.Code, e.Category = res.Err.Code, res.Err.Code.Category()
		for _, v := range res.Err.Violations {
			e.Violations = append(e.Violations, ViolationRef{Keyword: v.Keyword, InstancePath: v.InstancePath})
		}
	}
	approvalEvent(&e, p, res)
	// A panicking auditor loses its event; it does not turn the call's
	// outcome into a panic.
	defer func() { _ = recover() }()
	r.audit.Audit(ctx, e)
}
