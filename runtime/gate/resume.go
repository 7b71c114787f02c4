package gate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// maxApprovalText bounds, in bytes, a reason or note kept with a pending
// call.
const maxApprovalText = 1 << 10

// cutText cuts s to at most maxApprovalText bytes, on a rune boundary,
// marking a cut with "…".
func cutText(s string) string {
	if len(s) <= maxApprovalText {
		return s
	}
	i := maxApprovalText - len("…")
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// request answers calls that passed their checks, of which some need
// approval (step 6): those are stored as pending calls
// (approval_required), all or none, and nothing runs: the others are
// batch_aborted.
func (r *Registry) request(ctx context.Context, calls []call, results []Result) {
	r.hold(ctx, calls, results)
	for i := range calls {
		if c := &calls[i]; !c.need.needed {
			results[i].Err = &toolerr.Error{Code: toolerr.BatchAborted, Tool: c.tool.Name, CallID: c.in.ID, Reason: "another call of the same turn awaits approval, so none was run; send this call again on its own if it should run anyway"}
		}
	}
	for i := range calls {
		calls[i].emit(results[i], r.since(calls[i].start), false)
	}
}

// hold stores the calls that need approval as pending calls, all or none,
// and answers each of them in results. They hold their IDs' claims (step
// 3), so that a replay of a call is a duplicate_call, not a second pending
// call. When the store refuses, no call is stored, their claims are
// released, and each is refused with the store's refusal.
func (r *Registry) hold(ctx context.Context, calls []call, results []Result) {
	now := r.wall()
	var held []int // the indexes of the calls to store
	var pcs []PendingCall
	for i := range calls {
		c := &calls[i]
		if !c.need.needed {
			continue
		}
		held = append(held, i)
		results[i] = Result{CallID: c.in.ID, Tool: c.tool.Name}
		p := c.st.pctx.p
		pcs = append(pcs, PendingCall{
			Ticket: Ticket{
				PendingID: newPendingID(), Tool: c.tool.Name, Version: c.tool.Version, ArgsDigest: Digest(c.in.Args),
				CallID: c.in.ID, Principal: p.ID, Tenant: p.Tenant, Scope: c.caller.Scope, RequestID: c.caller.RequestID,
				Reason: cutText(c.need.reason), CreatedAt: now, ExpiresAt: now.Add(r.approvalTTL),
			},
			Args: slices.Clone(c.in.Args), Dialect: c.in.Dialect, Roles: slices.Clone(p.Roles), State: StatePending,
		})
	}
	if err := r.createPending(ctx, pcs); err != nil {
		for _, i := range held {
			calls[i].unclaim()
			results[i].Err = pendingRefusal(calls[i].tool.Name, calls[i].in.ID, err)
		}
		return
	}
	for k, i := range held {
		t := pcs[k].Ticket
		results[i].Err, results[i].Approval = approvalRequired(pcs[k]), &t
	}
}

// createPending stores pcs, turning a panic of the store into an error.
func (r *Registry) createPending(ctx context.Context, pcs []PendingCall) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the pending store panicked: %v", v)
		}
	}()
	return r.pending.Create(ctx, pcs...)
}

// Resume runs an approved call: exactly its stored argument bytes, once.
// In order, it refuses (running nothing):
//
//   - an unknown pending ID (approval_unknown), and one the store cannot
//     read (approval_unavailable);
//   - a call past its expiry (approval_expired), not approved yet
//     (approval_pending), rejected (approval_rejected) or resumed already
//     (approval_already_resumed);
//   - stored bytes that no longer match their digest (approval_tampered);
//   - a tool whose schema version changed since the request, or that is no
//     longer bound (approval_stale): the call needs a new request and a new
//     approval;
//   - a call the requester may no longer make: the tool's roles and its
//     policy are checked again, with the requester as it was when it asked
//     (unauthorized); the bytes are decoded again with the current decoder
//     (invalid_json, invalid_arguments).
//
// Then it claims the pending ID in the replay store (a second claim, from
// this replica or another sharing the store, is approval_already_resumed;
// a store that fails is replay_unavailable), moves the call to
// StateResumed and runs the executor as Dispatch does, under the tool's
// timeout, with PrincipalFrom returning the requester. The result's
// Approval names the pending call. The error is the result's Err.
func (r *Registry) Resume(ctx context.Context, pendingID string) (Result, error) {
	var c call
	pc, err := r.resumable(ctx, pendingID, &c)
	t := pc.Ticket
	if err != nil {
		res := Result{CallID: pc.CallID, Tool: pc.Tool, Err: err}
		if pc.PendingID != "" {
			res.Approval = &t
		}
		// The event names the pending call the refused Resume aimed at,
		// even when the store knew none or answered with another.
		aimed := pc
		if aimed.PendingID == "" {
			aimed.PendingID = pendingID
		}
		r.auditApproval(ctx, ApprovalResumed, aimed, "", err)
		return res, err
	}
	res := c.execute()
	res.Approval = &t
	if res.Err != nil {
		return res, res.Err
	}
	return res, nil
}

// resumable checks a pending call and claims it for Resume, which runs
// c: the call as it was requested, acting for the requester, through steps
// 4 and 5 again.
func (r *Registry) resumable(ctx context.Context, id string, c *call) (PendingCall, *toolerr.Error) {
	pc, te := r.getPending(ctx, id)
	if te != nil {
		return pc, te
	}
	t := r.tools[pc.Tool]
	if t == nil {
		return pc, approvalErr(toolerr.ApprovalStale, pc.Tool, pc.CallID, "the tool is no longer bound; nothing was run", nil)
	}
	if _, te := r.expireIfDue(ctx, &pc); te != nil {
		return pc, te
	}
	if pc.State != StateApproved {
		return pc, stateErr(pc)
	}
	if Digest(pc.Args) != pc.ArgsDigest {
		return pc, approvalErr(toolerr.ApprovalTampered, pc.Tool, pc.CallID, "the stored arguments do not match the digest that was approved; nothing was run", nil)
	}
	if pc.Version != t.Version {
		return pc, approvalErr(toolerr.ApprovalStale, pc.Tool, pc.CallID, fmt.Sprintf("the tool's schema changed since the call was requested (%s, now %s); it needs a new request and a new approval; nothing was run", pc.Version, t.Version), nil)
	}
	who := pc.requester()
	if _, ok := r.lookup(who, pc.Tool, pc.Dialect); !ok {
		return pc, approvalErr(toolerr.Unauthorized, pc.Tool, pc.CallID, "the requester may no longer call "+pc.Tool+"; nothing was run", nil)
	}
	in := Call{ID: pc.CallID, Name: pc.Tool, Args: pc.Args, Complete: true, Dialect: pc.Dialect}
	*c = r.newCall(ctx, Caller{Principal: who, Scope: pc.Scope, RequestID: pc.RequestID}, in, 1)
	c.tool, c.resuming = t, true
	if te := c.prepare(); te != nil {
		return pc, named(te, pc.Tool)
	}
	if err := ctx.Err(); err != nil {
		e := approvalErr(toolerr.ExecutionFailed, pc.Tool, pc.CallID, "the request was cancelled before the tool ran; the call stays approved", context.Cause(ctx))
		if errors.Is(err, context.DeadlineExceeded) {
			e.Code, e.Reason = toolerr.Timeout, "the request's deadline passed before the tool ran; the call stays approved"
		}
		return pc, e
	}
	scope := approvalScope(pc)
	ok, err := r.claimID(ctx, scope, pc.PendingID)
	switch {
	case err != nil:
		return pc, replayUnavailable(pc.Tool, pc.CallID, err)
	case !ok:
		done := pc
		done.State = StateResumed
		return pc, stateErr(done)
	}
	next := pc.clone()
	next.State, next.ResumedAt = StateResumed, r.wall()
	if te := r.swapPending(ctx, &pc, StateApproved, next); te != nil {
		if !movedOn(te.Code) {
			// The store could not record the move: the call did not run,
			// so its claim is released for a retry. Should the move have
			// happened after all, the retry finds the call resumed.
			r.release(context.WithoutCancel(ctx), scope, pc.PendingID)
		}
		return pc, te
	}
	c.pending = &next
	// The executor's step starts now, after the claim and the move.
	c.tm.mark()
	return next, nil
}

// approvalScope is the replay scope Resume claims pending IDs in: apart
// from every call scope, since a service's scope holds no NUL byte.
func approvalScope(pc PendingCall) string { return "\x00approval\x00" + pc.Scope }

// auditApproval reports an approval step: kind, on pc (zero when unknown),
// by approver, refused with err or done.
func (r *Registry) auditApproval(ctx context.Context, kind EventKind, pc PendingCall, approver string, err *toolerr.Error) {
	e := Event{
		RequestID: pc.RequestID, Scope: pc.Scope, Principal: pc.Principal, CallID: pc.CallID,
		Tool: pc.Tool, Version: pc.Version, Code: OK, Attempt: 1, Dialect: pc.Dialect,
		// A pending call names a tool of the registry; an unknown pending
		// ID has no tool.
		Resolved: pc.Tool != "",
		Kind:     kind, PendingID: pc.PendingID, Approver: approver,
	}
	if err != nil {
		e.Code, e.Category, e.Cause = err.Code, err.Code.Category(), cause(err)
	}
	defer func() { _ = recover() }()
	r.audit.Audit(ctx, e)
}

// approvalEvent marks a call's event as an approval request (the call was
// stored as pending) or as a resumed call (of pending).
func approvalEvent(e *Event, pending *PendingCall, res Result) {
	switch {
	case pending != nil:
		e.Kind, e.PendingID = ApprovalResumed, pending.PendingID
	case res.Approval != nil && res.Err != nil && res.Err.Code == toolerr.ApprovalRequired:
		e.Kind, e.PendingID = ApprovalRequested, res.Approval.PendingID
	}
}
