package gate

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Approval says which calls of a tool wait for a person's approval before
// they run (the tool file's x-toolgate approval).
//
// A call that needs approval is resolved, decoded, validated and authorized
// like any other; then, instead of running, it is stored as a pending call
// (PendingStore) and answered with the code approval_required (category
// approval), whose Result.Approval names it. An approver finds it
// (ListPending), reads it (Inspect) and decides it (Approve, Reject): a
// principal of the requester's tenant holding one of the tool's Approvers
// roles, and not the requester unless the tool allows SelfApproval.
// Resume then runs exactly the approved argument bytes, once. Nothing the
// model sends can approve a call: approval is an API of the service,
// never an argument.
type Approval string

// The approval settings.
const (
	// ApprovalNone: calls run once checked.
	ApprovalNone Approval = ""
	// ApprovalRequired: every call waits for approval.
	ApprovalRequired Approval = "required"
	// ApprovalPolicy: the binding's NeedsApproval decides per call.
	ApprovalPolicy Approval = "policy"
)

// NeedsApprovalFunc decides whether a call (already authorized by the
// tool's policy) waits for approval, and why: "refunds above 50000 cents
// need a second person". The reason is shown to the model and the
// approvers; it should not quote a sensitive value. p is its own copy.
type NeedsApprovalFunc[A any] func(ctx context.Context, p Principal, args A) (needed bool, reason string)

// DefaultApprovalTTL is how long a pending call waits for its decision and
// its resumption, unless WithApprovalTTL says otherwise.
const DefaultApprovalTTL = 24 * time.Hour

// WithPendingStore sets the store of calls awaiting approval. The default
// is NewMemoryPendingStore(MemoryPendingConfig{}), for a single replica; a
// service with several replicas needs a shared store.
func WithPendingStore(s PendingStore) Option { return func(r *Registry) { r.pending = s } }

// WithApprovalTTL sets how long a pending call can be approved and resumed
// (default DefaultApprovalTTL). Keep it within the replay store's memory
// (MemoryReplayConfig.MaxAge): Resume claims the pending ID there.
func WithApprovalTTL(d time.Duration) Option { return func(r *Registry) { r.approvalTTL = d } }

// approvalNeed is whether a checked call waits for approval, and why.
type approvalNeed struct {
	needed bool
	reason string
}

// checkApproval validates a spec's approval settings against its binding.
func checkApproval(tool string, a Approval, approvers []string, hasFunc bool) error {
	switch {
	case a != ApprovalNone && a != ApprovalRequired && a != ApprovalPolicy:
		return fmt.Errorf("gate: tool %q has approval %q (want %q or %q)", tool, a, ApprovalRequired, ApprovalPolicy)
	case a != ApprovalNone && (len(approvers) == 0 || slices.Contains(approvers, "")):
		return fmt.Errorf("gate: tool %q needs approval but names no approver roles (or an empty one)", tool)
	case a == ApprovalPolicy && !hasFunc:
		return fmt.Errorf("gate: tool %q has approval %q: its binding needs NeedsApproval", tool, a)
	case a != ApprovalPolicy && hasFunc:
		return fmt.Errorf("gate: tool %q has approval %q: its binding's NeedsApproval would never be asked", tool, a)
	}
	return nil
}

// fixedNeed is whether a call of a tool with approval a waits, for every a
// but ApprovalPolicy, where the binding's NeedsApproval decides per call
// (see call.approve).
func fixedNeed(a Approval) approvalNeed {
	if a == ApprovalRequired {
		return approvalNeed{needed: true, reason: "every call of this tool needs approval"}
	}
	return approvalNeed{}
}

// Ticket names a pending call and what was approved: the answer to a call
// that awaits approval. It holds no argument value.
type Ticket struct {
	PendingID string
	Tool      string
	// Version is the tool's schema version the call was checked against.
	Version string
	// ArgsDigest is "sha256:" and the hex SHA-256 of the exact argument
	// bytes (Digest).
	ArgsDigest string
	CallID     string
	// Principal and Tenant are the requester's; Scope and RequestID the
	// request's.
	Principal string
	Tenant    string
	Scope     string
	RequestID string
	// Reason says why the call needs approval.
	Reason    string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// PendingState is where a pending call is in its life.
type PendingState string

// The states. Pending moves to Approved, Rejected or Expired; Approved to
// Resumed or Expired. Rejected, Resumed and Expired are final.
const (
	StatePending  PendingState = "pending"
	StateApproved PendingState = "approved"
	StateRejected PendingState = "rejected"
	StateExpired  PendingState = "expired"
	StateResumed  PendingState = "resumed"
)

// PendingCall is a call awaiting approval, as a PendingStore holds it.
type PendingCall struct {
	Ticket
	// Args are the exact argument bytes the model sent.
	Args    []byte
	Dialect Dialect
	// Roles are the requester's roles when it asked: Resume runs the
	// tool's policy again with the requester as it was.
	Roles []string
	State PendingState
	// DecidedBy is the ID of the approver who approved or rejected it, at
	// DecidedAt; Note is a rejection's reason.
	DecidedBy string
	DecidedAt time.Time
	Note      string
	// ResumedAt is when Resume claimed it.
	ResumedAt time.Time
}

// clone returns a copy of pc that shares nothing mutable with it.
func (pc PendingCall) clone() PendingCall {
	pc.Args = slices.Clone(pc.Args)
	pc.Roles = slices.Clone(pc.Roles)
	return pc
}

// requester is the principal who asked for the call.
func (pc PendingCall) requester() Principal {
	return Principal{ID: pc.Principal, Tenant: pc.Tenant, Roles: slices.Clone(pc.Roles)}
}

// Digest returns the digest a Ticket records for argument bytes:
// "sha256:" and their hex SHA-256.
func Digest(args []byte) string {
	sum := sha256.Sum256(args)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// approvalErr is a refusal of an approval step.
func approvalErr(code toolerr.Code, tool, callID, reason string, err error) *toolerr.Error {
	return &toolerr.Error{Code: code, Tool: tool, CallID: callID, Reason: reason, Err: err}
}

// unknownPending is the refusal for a pending ID that names nothing the
// principal may see; another tenant's call looks exactly like it.
func unknownPending() *toolerr.Error {
	return approvalErr(toolerr.ApprovalUnknown, "", "", "there is no pending call with that ID", nil)
}

// stateErr is the refusal of a step that the pending call's state forbids.
func stateErr(pc PendingCall) *toolerr.Error {
	code, why := toolerr.ApprovalUnknown, "the pending call is in an unknown state"
	switch pc.State {
	case StatePending:
		code, why = toolerr.ApprovalPending, "the call has not been approved yet"
	case StateApproved:
		code, why = toolerr.ApprovalDecided, "the call was approved already"
	case StateRejected:
		code, why = toolerr.ApprovalRejected, "the call was rejected"
	case StateExpired:
		code, why = toolerr.ApprovalExpired, "the call's approval expired at "+pc.ExpiresAt.UTC().Format(time.RFC3339)
	case StateResumed:
		code, why = toolerr.ApprovalAlreadyResumed, "the approved call was resumed already; it does not run again"
	}
	return approvalErr(code, pc.Tool, pc.CallID, why+"; nothing was run", nil)
}

// newPendingID returns a fresh pending ID: 128 random bits.
func newPendingID() string { return rand.Text() }

// approvalRequired is the answer to a call stored as pending.
func approvalRequired(pc PendingCall) *toolerr.Error {
	why := pc.Reason
	if why == "" {
		why = "the tool's policy asks for it"
	}
	return &toolerr.Error{
		Code: toolerr.ApprovalRequired, Tool: pc.Tool, CallID: pc.CallID,
		Reason: fmt.Sprintf("%s awaits approval by another person before it runs (%s). It was not run. Tell the user it awaits approval; do not send the call again.", pc.Tool, why),
		Approval: &toolerr.PendingApproval{
			PendingID: pc.PendingID, Version: pc.Version, ArgsDigest: pc.ArgsDigest,
			ExpiresAt: pc.ExpiresAt.UTC().Format(time.RFC3339),
		},
	}
}

// Approve approves a pending call: approver must be of the requester's
// tenant (another tenant's call is approval_unknown), hold one of the
// tool's approver roles and be identified, and not be the requester unless
// the tool allows self-approval (approval_forbidden). The call must still
// be pending (approval_pending is not a refusal here: approval_decided,
// approval_rejected, approval_expired, approval_already_resumed). Approving
// runs nothing: Resume does. The error is a *toolerr.Error.
func (r *Registry) Approve(ctx context.Context, approver Principal, pendingID string) error {
	return r.decide(ctx, approver.clone(), pendingID, StateApproved, "")
}

// Reject rejects a pending call, with a reason kept in the store and shown
// to whoever inspects it. The approver is checked as by Approve, except
// that requesters may reject (withdraw) their own calls when they hold an
// approver role.
func (r *Registry) Reject(ctx context.Context, approver Principal, pendingID, reason string) error {
	return r.decide(ctx, approver.clone(), pendingID, StateRejected, reason)
}

// Inspect returns a pending call, its argument bytes included, to one of
// its approvers or to its requester (same tenant): what an approver reads
// before deciding. A call past its expiry is reported expired.
func (r *Registry) Inspect(ctx context.Context, viewer Principal, pendingID string) (PendingCall, error) {
	pc, t, err := r.visiblePending(ctx, viewer, pendingID)
	if err != nil {
		return PendingCall{}, err
	}
	if viewer.ID == "" || (viewer.ID != pc.Principal && !holdsRole(viewer, t.Approvers)) {
		return PendingCall{}, approvalErr(toolerr.ApprovalForbidden, pc.Tool, pc.CallID, "only the requester and the tool's approvers may see a pending call", nil)
	}
	if _, err := r.expireIfDue(ctx, &pc); err != nil {
		return PendingCall{}, err
	}
	return pc, nil
}

// visiblePending reads a pending call that principal p may know of: one of
// p's tenant, whose tool is still bound.
func (r *Registry) visiblePending(ctx context.Context, p Principal, id string) (PendingCall, *Tool, *toolerr.Error) {
	pc, err := r.getPending(ctx, id)
	if err != nil {
		return PendingCall{}, nil, err
	}
	if pc.Tenant != p.Tenant {
		return PendingCall{}, nil, unknownPending()
	}
	t := r.tools[pc.Tool]
	if t == nil {
		return PendingCall{}, nil, approvalErr(toolerr.ApprovalStale, pc.Tool, pc.CallID, "the tool is no longer bound; nothing was run", nil)
	}
	return pc, t, nil
}

// decide moves a pending call to Approved or Rejected and audits it.
func (r *Registry) decide(ctx context.Context, approver Principal, id string, to PendingState, note string) error {
	kind := ApprovalApproved
	if to == StateRejected {
		kind = ApprovalRejected
	}
	pc, err := r.decideCall(ctx, approver, id, to, cutText(note))
	if pc.PendingID == "" {
		pc.PendingID = id
	}
	r.auditApproval(ctx, kind, pc, approver.ID, err)
	if err != nil {
		return err
	}
	return nil
}

func (r *Registry) decideCall(ctx context.Context, approver Principal, id string, to PendingState, note string) (PendingCall, *toolerr.Error) {
	pc, t, err := r.visiblePending(ctx, approver, id)
	if err != nil {
		return pc, err
	}
	switch {
	case approver.ID == "":
		return pc, approvalErr(toolerr.ApprovalForbidden, pc.Tool, pc.CallID, "an approver must be identified", nil)
	case !holdsRole(approver, t.Approvers):
		return pc, approvalErr(toolerr.ApprovalForbidden, pc.Tool, pc.CallID, "the principal holds none of the tool's approver roles", nil)
	case to == StateApproved && approver.ID == pc.Principal && !t.SelfApproval:
		return pc, approvalErr(toolerr.ApprovalForbidden, pc.Tool, pc.CallID, "the requester may not approve their own call", nil)
	}
	if expired, err := r.expireIfDue(ctx, &pc); err != nil || expired {
		if err == nil {
			err = stateErr(pc)
		}
		return pc, err
	}
	if pc.State != StatePending {
		return pc, stateErr(pc)
	}
	next := pc.clone()
	next.State, next.DecidedBy, next.DecidedAt, next.Note = to, approver.ID, r.wall(), note
	if err := r.swapPending(ctx, &pc, StatePending, next); err != nil {
		return pc, err
	}
	return next, nil
}

// holdsRole reports whether p holds one of roles.
func holdsRole(p Principal, roles []string) bool {
	for _, r := range p.Roles {
		if slices.Contains(roles, r) {
			return true
		}
	}
	return false
}

// maxStoreRounds bounds the reads of a pending call that one step makes
// while the store says the call moved on: states only move forward, so a
// store whose reads keep up settles within three; one whose reads lag its
// writes is refused (approval_unavailable) rather than asked forever.
const maxStoreRounds = 4

// expireIfDue moves a pending or approved call past its expiry to Expired
// (auditing it once, by whoever wins the move) and reports whether pc is
// now expired.
func (r *Registry) expireIfDue(ctx context.Context, pc *PendingCall) (bool, *toolerr.Error) {
	for range maxStoreRounds {
		if pc.State == StateExpired {
			return true, nil
		}
		if (pc.State != StatePending && pc.State != StateApproved) || r.wall().Before(pc.ExpiresAt) {
			return false, nil
		}
		next := pc.clone()
		next.State = StateExpired
		err := r.swapPending(ctx, pc, pc.State, next)
		if err == nil {
			*pc = next
			r.auditApproval(ctx, ApprovalExpired, next, "", nil)
			return true, nil
		}
		if !movedOn(err.Code) {
			return false, err
		}
		// Another step moved the call on (pc holds it now): try again.
	}
	return false, pendingUnavailable(pc.Tool, pc.CallID, fmt.Errorf("the pending store's reads did not settle in %d rounds: it says the call moved on, and reads it unmoved", maxStoreRounds))
}

// movedOn reports whether a refusal of swapPending says the call was in
// another state than expected (pc was read again).
func movedOn(c toolerr.Code) bool {
	switch c {
	case toolerr.ApprovalPending, toolerr.ApprovalDecided, toolerr.ApprovalRejected, toolerr.ApprovalExpired, toolerr.ApprovalAlreadyResumed:
		return true
	}
	return false
}

// getPending reads a pending call, turning a panic of the store into an
// error.
func (r *Registry) getPending(ctx context.Context, id string) (pc PendingCall, te *toolerr.Error) {
	defer func() {
		if v := recover(); v != nil {
			pc, te = PendingCall{}, pendingUnavailable("", "", fmt.Errorf("the pending store panicked: %v", v))
		}
	}()
	pc, err := r.pending.Get(ctx, id)
	switch {
	case errors.Is(err, ErrPendingNotFound):
		return PendingCall{}, unknownPending()
	case err != nil:
		return PendingCall{}, pendingUnavailable("", "", err)
	case pc.PendingID != id:
		return PendingCall{}, pendingUnavailable("", "", errors.New("the pending store returned another call"))
	}
	return pc.clone(), nil
}

// swapPending moves pc from state from to next, atomically. When the
// store's call was no longer in state from, pc is read again and the
// refusal is the one its state calls for.
func (r *Registry) swapPending(ctx context.Context, pc *PendingCall, from PendingState, next PendingCall) (te *toolerr.Error) {
	defer func() {
		if v := recover(); v != nil {
			te = pendingUnavailable(pc.Tool, pc.CallID, fmt.Errorf("the pending store panicked: %v", v))
		}
	}()
	ok, err := r.pending.CompareAndSwap(ctx, pc.PendingID, from, next.clone())
	switch {
	case errors.Is(err, ErrPendingNotFound):
		return unknownPending()
	case err != nil:
		return pendingUnavailable(pc.Tool, pc.CallID, err)
	case ok:
		return nil
	}
	cur, gerr := r.getPending(ctx, pc.PendingID)
	if gerr != nil {
		return gerr
	}
	*pc = cur
	return stateErr(cur)
}

// pendingUnavailable is the refusal of a step the pending store could not
// serve; err (kept for the logs) says why.
func pendingUnavailable(tool, callID string, err error) *toolerr.Error {
	return approvalErr(toolerr.ApprovalUnavailable, tool, callID, "the pending approval store is full or unavailable; nothing was run", err)
}

// pendingRefusal is the refusal of a call the store would not hold: a
// full quota (approval_quota, saying which), or else approval_unavailable.
func pendingRefusal(tool, callID string, err error) *toolerr.Error {
	var qe *QuotaError
	if !errors.As(err, &qe) {
		return pendingUnavailable(tool, callID, err)
	}
	return approvalErr(toolerr.ApprovalQuota, tool, callID, fmt.Sprintf("the %s's quota of calls awaiting approval is full (%d %s held, quota %d): nothing was stored and nothing was run; ask an approver to decide the calls that wait, then ask again", qe.Of, qe.Held, qe.Unit, qe.Limit), err)
}
