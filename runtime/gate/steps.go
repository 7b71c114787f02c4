package gate

import (
	"context"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// call is one call on its way through the gate. The seven steps of the
// package documentation are its methods, in order: resolve, complete,
// replay, decode, authorize, approve and execute; check runs the first
// six. A call lives in its dispatcher's frame (or a batch's slice): what
// the tool's own code reaches is in its executorState, which decode
// allocates with the arguments once the decoder accepts them, and an
// executor that runs in a goroutine of its own gets an execution holding
// a copy of the call.
type call struct {
	r      *Registry
	ctx    context.Context
	caller Caller
	in     Call
	// attempt is the 1-based attempt number within a repair loop.
	attempt int
	// start is when the dispatch started, tm the step timings: decode and
	// policy, and tm.last the start of the executor's step.
	start time.Time
	tm    timings
	// tool is the tool resolved by step 1, nil before it.
	tool *Tool
	// args are the typed arguments decoded by step 4 (see typed), st the
	// executor's state allocated with them.
	args any
	st   *executorState
	// spare is the room left in st.roles for the principal's copies.
	spare []string
	// need is step 6's answer: whether the call waits for approval.
	need approvalNeed
	// resuming marks the call Resume runs: it was approved already, so
	// step 6 asks nothing; pending is then the approved call, once it is
	// claimed.
	resuming bool
	pending  *PendingCall
}

// executorState is what a call keeps on the heap once its arguments are
// decoded, next to them (see decoded): the executor's context, which
// carries the gate's own copy of the principal (pctx.p, made before the
// policy runs: see PrincipalFrom), and room for the principal's copies.
type executorState struct {
	pctx  principalCtx
	roles [4]string
}

// newCall starts a call of in for c, as the given attempt, at the first
// clock read of its timings.
func (r *Registry) newCall(ctx context.Context, c Caller, in Call, attempt int) call {
	k := call{r: r, ctx: ctx, caller: c, in: in, attempt: attempt, tm: timings{now: r.timer()}}
	k.tm.mark()
	k.start = k.tm.last
	return k
}

// check runs steps 1 to 6. A call it passes holds the claim of its ID
// (step 3); one it refuses does not.
func (c *call) check() *toolerr.Error {
	if err := c.resolve(); err != nil {
		return err
	}
	if err := c.complete(); err != nil {
		return err
	}
	if err := c.replay(); err != nil {
		return err
	}
	if err := c.prepare(); err != nil {
		c.unclaim()
		return err
	}
	return nil
}

// resolve is step 1: the call's name, byte-exact, among the tools the
// caller may see and that the call's dialect can have been sent (see
// Tool.sentIn). A hidden tool is refused exactly as a missing one.
func (c *call) resolve() *toolerr.Error {
	t, ok := c.r.lookup(c.caller.Principal, c.in.Name, c.in.Dialect)
	if !ok {
		return c.r.unknownTool(c.caller.Principal, c.in)
	}
	c.tool = t
	return nil
}

// complete is step 2: an incomplete call (a stream that did not finish, a
// response cut by a token limit) is refused.
func (c *call) complete() *toolerr.Error {
	if c.in.Complete {
		return nil
	}
	return &toolerr.Error{Code: toolerr.IncompleteCall, Tool: c.tool.Name, CallID: c.in.ID, Reason: "the call is incomplete (the stream did not finish or was cut by a token limit); nothing was run"}
}

// replay is step 3: it claims the call's ID in the caller's scope, the
// replay store's one round trip of the call, before the arguments are
// read (so a replay with bad arguments is duplicate_call). A call refused
// by a later step releases the claim (unclaim), so that it can run once
// corrected. A call without an ID is not claimed. With an ID, decoding is
// timed from the store's answer.
func (c *call) replay() *toolerr.Error {
	if c.in.ID == "" {
		return nil
	}
	claimed, err := c.r.claimID(c.ctx, c.caller.Scope, c.in.ID)
	if err != nil {
		return replayUnavailable(c.tool.Name, c.in.ID, err)
	}
	if !claimed {
		return duplicate(c.tool.Name, c.in.ID, "was already executed")
	}
	c.tm.mark()
	return nil
}

// prepare runs steps 4 to 6, the ones that run the tool's own code (its
// decoder, policy and NeedsApproval): a panic in any of them is the
// refusal checkPanicked, and nothing has run. Every refusal names the
// tool as registered (a Tool's Name may have been changed since Bind).
// The call then acts for the gate's own copy of the principal.
func (c *call) prepare() (te *toolerr.Error) {
	defer c.recoverCheck(&te)
	if te = c.decode(); te != nil {
		return named(te, c.tool.Name)
	}
	if te = c.authorize(); te != nil {
		return named(te, c.tool.Name)
	}
	c.approve()
	c.caller.Principal = c.st.pctx.p
	return nil
}

// decode is step 4: the arguments are read once, with the tool's
// generated decoder, or its null-as-absent variant for a call in the
// OpenAI dialects (their strict mode sends null for an absent optional
// member). Nothing but the decoder runs, and nothing more is allocated,
// before it accepts them; then they are allocated with the executor's
// state, counted in the decode's time.
func (c *call) decode() *toolerr.Error {
	ty := c.tool.typed
	nullAsAbsent := ty.nullAsAbsent && (c.in.Dialect == OpenAIChat || c.in.Dialect == OpenAIResponses)
	args, st, err := ty.decode(c.in.Args, nullAsAbsent)
	c.tm.decode = c.tm.lap()
	if err != nil {
		return refusedArgs(err, ty.name, c.in.ID)
	}
	c.args, c.st, c.spare = args, st, st.roles[:]
	return nil
}

// authorize is step 5: the tool's policy decides, with a copy of the
// principal of its own and the typed arguments. The gate's own copy, which
// the executor runs for and the others are made from, is made first,
// before any code but the gate's has seen the principal.
func (c *call) authorize() *toolerr.Error {
	c.st.pctx.p, c.spare = c.caller.Principal.cloneFrom(c.spare)
	err := c.tool.typed.authorize(c.ctx, c.copyPrincipal(), c.args)
	c.tm.policy = c.tm.lap()
	if err != nil {
		return unauthorized(c.tool.typed.name, c.in.ID, err)
	}
	return nil
}

// approve is step 6: whether the call waits for a person's approval, by
// the tool's Approval: never, always, or as its NeedsApproval answers, with
// a copy of the principal of its own. A call that waits is stored as a
// pending call by its dispatcher (see Registry.request); a resumed one was
// approved already.
func (c *call) approve() {
	ty := c.tool.typed
	switch {
	case c.resuming:
	case ty.asks:
		c.need.needed, c.need.reason = ty.needsApproval(c.ctx, c.copyPrincipal(), c.args)
	default:
		c.need = fixedNeed(ty.approval)
	}
}

// copyPrincipal returns a copy of the gate's own copy of the principal
// that shares nothing with it or with the other copies, its roles in the
// room of the executor's state while it lasts.
func (c *call) copyPrincipal() Principal {
	p, rest := c.st.pctx.p.cloneFrom(c.spare)
	c.spare = rest
	return p
}

// recoverCheck, deferred by prepare, turns a panic of the decoder, the
// policy or NeedsApproval into the refusal checkPanicked, keeping the
// timings.
func (c *call) recoverCheck(te **toolerr.Error) {
	if v := recover(); v != nil {
		c.args, c.st, c.spare = nil, nil, nil
		*te = named(checkPanicked(c.tool.typed.name, c.in.ID, v), c.tool.Name)
	}
}

// unclaim releases the claim of a call refused after step 3 claimed its
// ID (none for a call without an ID), with a context the request's end
// does not cancel (ctx itself when it can never be: no allocation on a
// refused call's path): a release that fails keeps the claim, and a
// correct retry would be refused.
func (c *call) unclaim() {
	if c.in.ID == "" {
		return
	}
	ctx := c.ctx
	if ctx.Done() != nil {
		ctx = context.WithoutCancel(ctx)
	}
	c.r.release(ctx, c.caller.Scope, c.in.ID)
}

// refuse answers and audits a call refused by steps 1 to 6.
func (c *call) refuse(err *toolerr.Error) Result {
	res := Result{CallID: c.in.ID, Tool: c.in.Name, Err: err}
	c.emit(res, c.r.since(c.start), false)
	return res
}

// named returns te, a refusal of prepare, which is the gate's own, naming
// the tool as registered.
func named(te *toolerr.Error, tool string) *toolerr.Error {
	te.Tool = tool
	return te
}

// refusedArgs is decode's refusal of a call its decoder refused. A
// hand-written decoder's plain error is still a refusal of the arguments,
// but its text may quote them: it is kept for the logs only.
func refusedArgs(err error, tool, callID string) *toolerr.Error {
	return ownToolErr(err, toolerr.InvalidArguments, "the arguments were refused by the tool's decoder", tool, callID)
}

// unauthorized is authorize's refusal of a call its policy denied.
func unauthorized(tool, callID string, err error) *toolerr.Error {
	return &toolerr.Error{Code: toolerr.Unauthorized, Tool: tool, CallID: callID, Reason: "the caller may not run " + tool + " with these arguments", Err: err}
}
