package gate

import (
	"context"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// binder is a tool's spec and binding, with the steps of a call that need
// its argument type A: decode, authorize and run the executor.
type binder[A any] struct {
	spec Spec[A]
	b    Binding[A]
	// asks is whether NeedsApproval is asked for each call.
	asks bool
}

// callCtx is the executor's context with room for n copies of the
// principal's roles, in one allocation: pctx.p is the gate's copy, from
// before the policy ran.
type callCtx[R [2]string | [3]string | [4]string] struct {
	pctx  principalCtx
	roles R
}

// newCallCtx returns the executor's context and room for n copies of the
// principal's roles (the gate's, the policy's, NeedsApproval's), in one
// allocation of the smallest size that holds them, up to 4 roles; for
// more, the room holds 4, and a copy that does not fit is allocated on its
// own (Principal.cloneFrom).
func newCallCtx(n int) (*principalCtx, []string) {
	switch {
	case n <= 2:
		c := new(callCtx[[2]string])
		return &c.pctx, c.roles[:]
	case n == 3:
		c := new(callCtx[[3]string])
		return &c.pctx, c.roles[:]
	}
	c := new(callCtx[[4]string])
	return &c.pctx, c.roles[:]
}

// boundCall is what a prepared call of a tool with arguments of type A
// holds on the heap, in one allocation and without a closure: the typed
// arguments and the executor's context with the principal's copies.
type boundCall[A any] struct {
	callCtx[[4]string]
	args    A
	execute Executor[A]
}

func (c *boundCall[A]) run(ctx context.Context) (any, error) { return c.execute(ctx, c.args) }

// execution is nil: a boundCall's executor runs in the dispatching
// goroutine.
func (c *boundCall[A]) execution() *execution { return nil }

// asideCall is a boundCall whose executor runs in a goroutine of its own,
// with the room for its execution in the same allocation.
type asideCall[A any] struct {
	boundCall[A]
	x execution
}

func (c *asideCall[A]) execution() *execution { return &c.x }

// prepareFunc returns Tool.prepare: the prepared call holds its arguments
// on the heap, to run later or in another goroutine. The steps are in
// closures, not methods: a method value of a generic type is called
// through a wrapper that copies every argument once more. It is not
// inlined into Bind, where the compiler would build its closure a second
// time for every tool.
//
//go:noinline
func prepareFunc[A any](d *binder[A]) func(ctx context.Context, p Principal, call Call, t0 timings, resuming, aside bool) (prepared, *toolerr.Error) {
	return func(ctx context.Context, p Principal, call Call, t0 timings, resuming, aside bool) (out prepared, err *toolerr.Error) {
		out.tm = t0
		err = checkCall(d, ctx, p, call, &out, resuming, aside, nil)
		return out, err
	}
}

// checkCall is steps 4 and 5 of a call into out, timing decode and policy on
// out.tm, which holds their timings also when it refuses the call. With
// args nil, the arguments go into out.exec (an asideCall when aside, else
// a boundCall); else into *args, and out.exec stays nil. It never panics
// (see checkPanicked). The copies of p are made after the decoder
// succeeds, so that a refusal of the arguments allocates none. A refusal
// is the gate's own *toolerr.Error for call.ID, naming the spec's tool: its
// caller names the tool as registered (see named).
//
// Its body is instantiated for every tool's argument type, so the steps
// that do not need A are non-generic helpers (recoverCheck, refusedArgs,
// Principal.copies, unauthorized, fixedNeed), and a catalog of thousands
// of tools builds that much less code.
func checkCall[A any](d *binder[A], ctx context.Context, p Principal, call Call, out *prepared, resuming, aside bool, args *A) (te *toolerr.Error) {
	defer recoverCheck(out, &te, d.spec.Name, call.ID)
	decode := d.spec.Decode
	if d.spec.DecodeNullAsAbsent != nil && (call.Dialect == OpenAIChat || call.Dialect == OpenAIResponses) {
		decode = d.spec.DecodeNullAsAbsent
	}
	a, err := decode(call.Args)
	out.tm.decode = out.tm.lap()
	if err != nil {
		return refusedArgs(err, d.spec.Name, call.ID)
	}
	// The copies of p are made before any of them runs, next to the
	// executor's context when they fit (see Principal.copies).
	asks := d.asks && !resuming
	var pctx *principalCtx
	var spare []string
	switch {
	case args == nil && aside:
		ac := &asideCall[A]{boundCall: boundCall[A]{args: a, execute: d.b.Execute}}
		pctx, spare, out.exec = &ac.pctx, ac.roles[:], ac
	case args == nil:
		bc := &boundCall[A]{args: a, execute: d.b.Execute}
		pctx, spare, out.exec = &bc.pctx, bc.roles[:], bc
	default:
		pctx, spare = newCallCtx(p.copiedRoles(asks))
		*args = a
	}
	var mine, approver Principal
	p.copies(spare, &pctx.p, &mine, &approver, asks)
	err = d.b.Policy(ctx, mine, a)
	out.tm.policy = out.tm.lap()
	if err != nil {
		return unauthorized(d.spec.Name, call.ID, err)
	}
	out.pctx = pctx
	switch {
	case asks:
		ok, why := d.b.NeedsApproval(ctx, approver, a)
		out.need = approvalNeed{needed: ok, reason: why}
	case !resuming:
		out.need = fixedNeed(d.spec.Approval)
	}
	return nil
}

// copiedRoles is how many roles the copies of p that checkCall makes hold
// in all: the gate's and the policy's, and NeedsApproval's when asks.
func (p *Principal) copiedRoles(asks bool) int {
	if asks {
		return 3 * len(p.Roles)
	}
	return 2 * len(p.Roles)
}

// copies makes the copies of p that checkCall hands out before any of them
// runs: the gate's into *gate, the policy's into *policy and, when asks,
// NeedsApproval's into *approver. Their roles go into spare when it has
// room for them all, else into one allocation of their own. It is
// not inlined: checkCall, which calls it, is built once per tool (the call
// costs an accepted call about 45 instructions; inlined, the copies took
// 2.3 KB of machine code per tool).
//
//go:noinline
func (p *Principal) copies(spare []string, gate, policy, approver *Principal, asks bool) {
	if n := p.copiedRoles(asks); n > len(spare) {
		spare = make([]string, n)
	}
	*gate, spare = p.cloneFrom(spare)
	*policy, spare = p.cloneFrom(spare)
	if asks {
		*approver, _ = p.cloneFrom(spare)
	}
}

// recoverCheck, deferred by checkCall, turns a panic of the decoder,
// the policy or NeedsApproval into the refusal checkPanicked, keeping
// out's timings.
func recoverCheck(out *prepared, te **toolerr.Error, tool, callID string) {
	if v := recover(); v != nil {
		*out, *te = prepared{tm: out.tm}, checkPanicked(tool, callID, v)
	}
}

// refusedArgs is checkCall's refusal of a call its decoder refused. A
// hand-written decoder's plain error is still a refusal of the arguments,
// but its text may quote them: it is kept for the logs only.
func refusedArgs(err error, tool, callID string) *toolerr.Error {
	return ownToolErr(err, toolerr.InvalidArguments, "the arguments were refused by the tool's decoder", tool, callID)
}

// unauthorized is checkCall's refusal of a call its policy denied. It
// is not inlined: it would be pasted into every tool's check.
//
//go:noinline
func unauthorized(tool, callID string, err error) *toolerr.Error {
	return &toolerr.Error{Code: toolerr.Unauthorized, Tool: tool, CallID: callID, Reason: "the caller may not run " + tool + " with these arguments", Err: err}
}

// dispatchFunc returns Tool.inline, steps 4 to 7 of dispatchOne for a
// call of tool t whose executor runs in the dispatching goroutine (the
// tool has no timeout and ctx can never end): the typed arguments stay on
// this goroutine's stack, and only the executor's context and the
// principal's copies are allocated. It decides exactly as dispatchOne
// does. Like prepareFunc, it is not inlined into Bind.
//
//go:noinline
func dispatchFunc[A any](d *binder[A]) func(r *Registry, ctx context.Context, c Caller, call Call, t *Tool, attempt int, tm timings, start time.Time) Result {
	return func(r *Registry, ctx context.Context, c Caller, call Call, t *Tool, attempt int, tm timings, start time.Time) Result {
		p := prepared{tm: tm}
		var args A
		if err := checkCall(d, ctx, c.Principal, call, &p, false, false, &args); err != nil {
			return r.refuse(ctx, c, call, named(err, t.Name), start, attempt, p.tm)
		}
		p.call, p.tool = call, t
		c.Principal = p.pctx.p
		if res, run := r.proceed(ctx, c, call, &p, start, attempt); !run {
			return res
		}
		p.pctx.Context = ctx
		run := func(ctx context.Context) (any, error) { return d.b.Execute(ctx, args) }
		return r.executed(ctx, c, &p, guarded(r, p.pctx, run), attempt)
	}
}
