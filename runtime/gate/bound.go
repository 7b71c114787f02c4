package gate

import (
	"context"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Only a call's typed arguments need the tool's argument type A, so the
// code compiled for each tool is Bind and the closures of its argType;
// everything else a call goes through, checking it included, is compiled
// once for every tool. The compiler's cost is mostly per function, and a
// method of a generic type is two functions per tool (its body and the
// wrapper its method table calls): the generic types here have none.

// argType is a tool's steps that need its argument type A: decode the
// arguments, authorize them, ask whether the call needs approval and run
// the executor with them, on the heap (hold and use) or, on the inline
// path, in the dispatching goroutine's frame (inline).
type argType struct {
	// hold decodes data, with the OpenAI dialects' decoder when
	// nullAsAbsent, and, when the decoder accepts it, returns the
	// arguments (an any holding a *A) on the heap, in one allocation with
	// the executor's context, room for the principal's role copies (2
	// when roles, how many they take, is at most 2, else 4) and, when
	// aside, room for the call's execution (else x is nil).
	hold func(data []byte, nullAsAbsent, aside bool, roles int) (args any, pctx *principalCtx, room []string, x *execution, err error)
	// use is a typed step (authorize, askApproval or execute) on arguments
	// that hold returned.
	use func(u use, ctx context.Context, p Principal, args any) (any, approvalNeed, error)
	// inline is Tool's inline path (see Registry.inline), with the
	// arguments in its frame.
	inline func(r *Registry, ctx context.Context, c Caller, call Call, t *Tool, attempt int, tm timings, start time.Time) Result
}

// A use is a step of a call that needs its typed arguments.
type use uint8

const (
	// authorize is the policy's decision for the principal given.
	authorize use = iota
	// askApproval is NeedsApproval's answer for the principal given.
	askApproval
	// execute runs the executor; the principal is not used.
	execute
	// decode and decodeNullAsAbsent read the call's arguments, with
	// Spec.Decode and Spec.DecodeNullAsAbsent: the inline path's first
	// step (hold decodes the others').
	decode
	decodeNullAsAbsent
)

// A step is a typed step of one call: data is the call's arguments for
// decode and decodeNullAsAbsent, need NeedsApproval's answer for
// askApproval, value the executor's for execute.
type step func(u use, ctx context.Context, p Principal, data []byte) (value any, need approvalNeed, err error)

// boundCall is a call's typed arguments with its executor's context and
// room for the principal's copies (see Principal.copies), in one
// allocation: pctx.p is the gate's copy, from before the policy ran.
type boundCall[A any, R [2]string | [4]string] struct {
	pctx  principalCtx
	roles R
	args  A
}

// asideCall is a boundCall whose executor runs in a goroutine of its own,
// with the room for its execution in the same allocation.
type asideCall[A any] struct {
	boundCall[A, [4]string]
	x execution
}

// argTypeOf returns the argType of spec's decoders and b. It is not
// inlined into Bind, where the compiler would build its closures a second
// time for every tool.
//
//go:noinline
func argTypeOf[A any](spec Spec[A], b Binding[A]) *argType {
	return &argType{
		hold: func(data []byte, nullAsAbsent, aside bool, roles int) (any, *principalCtx, []string, *execution, error) {
			dec := spec.Decode
			if nullAsAbsent {
				dec = spec.DecodeNullAsAbsent
			}
			a, err := dec(data)
			switch {
			case err != nil:
				return nil, nil, nil, nil, err
			case aside:
				c := &asideCall[A]{boundCall: boundCall[A, [4]string]{args: a}}
				return &c.args, &c.pctx, c.roles[:], &c.x, nil
			case roles <= 2:
				c := &boundCall[A, [2]string]{args: a}
				return &c.args, &c.pctx, c.roles[:], nil, nil
			}
			c := &boundCall[A, [4]string]{args: a}
			return &c.args, &c.pctx, c.roles[:], nil, nil
		},
		use: func(u use, ctx context.Context, p Principal, args any) (any, approvalNeed, error) {
			return typedStep(&b, u, ctx, p, args.(*A))
		},
		inline: func(r *Registry, ctx context.Context, c Caller, call Call, t *Tool, attempt int, tm timings, start time.Time) Result {
			var args A
			return r.inline(ctx, c, call, t, attempt, tm, start, func(u use, ctx context.Context, p Principal, data []byte) (v any, need approvalNeed, err error) {
				switch u {
				case decode:
					args, err = spec.Decode(data)
				case decodeNullAsAbsent:
					args, err = spec.DecodeNullAsAbsent(data)
				default:
					return typedStep(&b, u, ctx, p, &args)
				}
				return nil, approvalNeed{}, err
			})
		},
	}
}

// typedStep is use u of b on args: authorize, askApproval or execute.
func typedStep[A any](b *Binding[A], u use, ctx context.Context, p Principal, args *A) (any, approvalNeed, error) {
	switch u {
	case authorize:
		return nil, approvalNeed{}, b.Policy(ctx, p, *args)
	case askApproval:
		needed, reason := b.NeedsApproval(ctx, p, *args)
		return nil, approvalNeed{needed: needed, reason: reason}, nil
	}
	v, err := b.Execute(ctx, *args)
	return v, approvalNeed{}, err
}

// checker is what checking a call needs of its tool.
type checker struct {
	name     string
	approval Approval
	// asks is whether NeedsApproval is asked for each call.
	asks bool
	// nullAsAbsent is whether the tool has a decoder for the OpenAI
	// dialects (Spec.DecodeNullAsAbsent).
	nullAsAbsent bool
	// typ takes the steps that need the arguments' type.
	typ *argType
}

// check is steps 4 and 5 of a call into out, timing decode and policy on
// out.tm, which holds their timings also when it refuses the call. With
// inline nil, the arguments go on the heap, into out.args, with room for
// the call's execution when aside (out.x); else inline holds them and
// takes the typed steps. On both paths the decode's time includes the
// allocation of the executor's context. It never panics (see checkPanicked). Nothing but
// the decoder runs, and nothing more is allocated, before the decoder
// accepts the arguments. A refusal is the gate's own *toolerr.Error for
// call.ID, naming the spec's tool: its caller names the tool as
// registered (see named).
func (k *checker) check(ctx context.Context, p Principal, call Call, out *prepared, resuming, aside bool, inline step) (te *toolerr.Error) {
	defer recoverCheck(out, &te, k.name, call.ID)
	asks := k.asks && !resuming
	nullAsAbsent := k.nullAsAbsent && (call.Dialect == OpenAIChat || call.Dialect == OpenAIResponses)
	var (
		args  any
		pctx  *principalCtx
		spare []string
		x     *execution
		err   error
		typed = inline
	)
	if inline == nil {
		args, pctx, spare, x, err = k.typ.hold(call.Args, nullAsAbsent, aside, p.copiedRoles(asks))
		typed = func(u use, ctx context.Context, p Principal, _ []byte) (any, approvalNeed, error) {
			return k.typ.use(u, ctx, p, args)
		}
	} else {
		u := decode
		if nullAsAbsent {
			u = decodeNullAsAbsent
		}
		if _, _, err = inline(u, ctx, Principal{}, call.Args); err == nil {
			pctx, spare = newCallCtx(p.copiedRoles(asks))
		}
	}
	out.tm.decode = out.tm.lap()
	if err != nil {
		return refusedArgs(err, k.name, call.ID)
	}
	// The copies of p are made before any of them runs, next to the
	// executor's context when they fit (see Principal.copies).
	var mine, approver Principal
	p.copies(spare, &pctx.p, &mine, &approver, asks)
	_, _, err = typed(authorize, ctx, mine, nil)
	out.tm.policy = out.tm.lap()
	if err != nil {
		return unauthorized(k.name, call.ID, err)
	}
	out.args, out.pctx, out.x = args, pctx, x
	switch {
	case asks:
		_, out.need, _ = typed(askApproval, ctx, approver, nil)
	case !resuming:
		out.need = fixedNeed(k.approval)
	}
	return nil
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
// more, the room holds 4, and the copies take one allocation of their own
// (see Principal.copies).
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

// inline is Tool's inline path, steps 4 to 7 of dispatchOne for a call of
// t whose executor runs in the dispatching goroutine (the tool has no
// timeout and ctx can never end): the typed arguments stay in the frame
// of t's argType.inline, which takes the typed steps, and only the
// executor's context and the principal's copies are allocated. It decides
// exactly as dispatchOne does.
func (r *Registry) inline(ctx context.Context, c Caller, call Call, t *Tool, attempt int, tm timings, start time.Time, typed step) Result {
	p := prepared{tm: tm}
	if err := t.checker.check(ctx, c.Principal, call, &p, false, false, typed); err != nil {
		r.unclaim(ctx, c, call.ID)
		return r.refuse(ctx, c, call, named(err, t.Name), start, attempt, p.tm)
	}
	p.call, p.tool = call, t
	c.Principal = p.pctx.p
	if res, run := r.proceed(ctx, c, call, &p, start, attempt); !run {
		return res
	}
	p.pctx.Context = ctx
	run := func(ctx context.Context) (any, error) {
		v, _, err := typed(execute, ctx, Principal{}, nil)
		return v, err
	}
	return r.executed(ctx, c, &p, guarded(r, p.pctx, run), attempt)
}

// copiedRoles is how many roles the copies of p that checker.check makes hold
// in all: the gate's and the policy's, and NeedsApproval's when asks.
func (p *Principal) copiedRoles(asks bool) int {
	if asks {
		return 3 * len(p.Roles)
	}
	return 2 * len(p.Roles)
}

// copies makes the copies of p that checker.check hands out before any of
// them runs: the gate's into *gate, the policy's into *policy and, when
// asks, NeedsApproval's into *approver. Their roles go into spare when it
// has room for them all, else into one allocation of their own.
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

// recoverCheck, deferred by checker.check, turns a panic of the decoder,
// the policy or NeedsApproval into the refusal checkPanicked, keeping
// out's timings.
func recoverCheck(out *prepared, te **toolerr.Error, tool, callID string) {
	if v := recover(); v != nil {
		*out, *te = prepared{tm: out.tm}, checkPanicked(tool, callID, v)
	}
}

// refusedArgs is checker.check's refusal of a call its decoder refused. A
// hand-written decoder's plain error is still a refusal of the arguments,
// but its text may quote them: it is kept for the logs only.
func refusedArgs(err error, tool, callID string) *toolerr.Error {
	return ownToolErr(err, toolerr.InvalidArguments, "the arguments were refused by the tool's decoder", tool, callID)
}

// unauthorized is checker.check's refusal of a call its policy denied.
func unauthorized(tool, callID string, err error) *toolerr.Error {
	return &toolerr.Error{Code: toolerr.Unauthorized, Tool: tool, CallID: callID, Reason: "the caller may not run " + tool + " with these arguments", Err: err}
}
