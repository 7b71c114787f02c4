package gate

import (
	"context"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Only a call's typed arguments need the tool's argument type A, so the
// code compiled for each tool is Bind and the three closures of its
// argType; everything else a call goes through, checking it included, is
// compiled once for every tool. The compiler's cost is mostly per
// function, and a method of a generic type is two functions per tool (its
// body and the wrapper its method table calls): the generic types here
// have none. The price is that the arguments are on the heap, next to the
// executor's context, also when the executor runs in the dispatching
// goroutine.

// argType is a tool's steps that need its argument type A: decode and
// hold the arguments, authorize them, run the executor with them and ask
// whether the call needs approval. A call's arguments are an any holding
// a *A, in the call's allocation.
type argType struct {
	// hold decodes data, with the OpenAI dialects' decoder when
	// nullAsAbsent, and, when the decoder accepts it, returns the
	// arguments held on the heap with the executor's context, room for
	// roles of the principal's roles and, when aside, for the call's
	// execution (else x is nil).
	hold func(data []byte, nullAsAbsent, aside bool, roles int) (args any, pctx *principalCtx, room []string, x *execution, err error)
	// use authorizes args for p (authorize) or runs the executor with them
	// (execute; p is not used).
	use func(u use, ctx context.Context, p Principal, args any) (any, error)
	// needs is the binding's NeedsApproval for args.
	needs func(ctx context.Context, p Principal, args any) (needed bool, reason string)
}

// A use is what argType.use does with a call's arguments.
type use uint8

const (
	authorize use = iota
	execute
)

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
	decode, decodeNullAsAbsent := spec.Decode, spec.DecodeNullAsAbsent
	return &argType{
		hold: func(data []byte, nullAsAbsent, aside bool, roles int) (any, *principalCtx, []string, *execution, error) {
			dec := decode
			if nullAsAbsent {
				dec = decodeNullAsAbsent
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
		use: func(u use, ctx context.Context, p Principal, args any) (any, error) {
			if u == execute {
				return b.Execute(ctx, *args.(*A))
			}
			return nil, b.Policy(ctx, p, *args.(*A))
		},
		needs: func(ctx context.Context, p Principal, args any) (bool, string) {
			return b.NeedsApproval(ctx, p, *args.(*A))
		},
	}
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
	typ          *argType
}

// check is steps 4 and 5 of a call into out, timing decode and policy on
// out.tm, which holds their timings also when it refuses the call. The
// arguments go into out.args, with room for the call's execution when
// aside (out.x). It never panics (see checkPanicked). Nothing but the
// decoder runs, and nothing more is allocated, before the decoder accepts
// the arguments. A refusal is the gate's own *toolerr.Error for call.ID,
// naming the spec's tool: its caller names the tool as registered (see
// named).
func (k *checker) check(ctx context.Context, p Principal, call Call, out *prepared, resuming, aside bool) (te *toolerr.Error) {
	defer recoverCheck(out, &te, k.name, call.ID)
	// The copies of p are made before any of them runs, next to the
	// executor's context when they fit (see Principal.copies).
	asks := k.asks && !resuming
	args, pctx, spare, x, err := k.typ.hold(call.Args, k.nullAsAbsent && (call.Dialect == OpenAIChat || call.Dialect == OpenAIResponses), aside, p.copiedRoles(asks))
	out.tm.decode = out.tm.lap()
	if err != nil {
		return refusedArgs(err, k.name, call.ID)
	}
	var mine, approver Principal
	p.copies(spare, &pctx.p, &mine, &approver, asks)
	_, err = k.typ.use(authorize, ctx, mine, args)
	out.tm.policy = out.tm.lap()
	if err != nil {
		return unauthorized(k.name, call.ID, err)
	}
	out.args, out.pctx, out.x = args, pctx, x
	switch {
	case asks:
		ok, why := k.typ.needs(ctx, approver, args)
		out.need = approvalNeed{needed: ok, reason: why}
	case !resuming:
		out.need = fixedNeed(k.approval)
	}
	return nil
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
