package gate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// prepared is a call that passed every check and waits to run. It is a
// value: the single-call path keeps it on its stack, and only the typed
// arguments, the executor's context and, when the executor runs in a
// goroutine of its own, the execution that runs it are allocated,
// together (see argType.hold).
type prepared struct {
	call Call
	tool *Tool
	// args are the typed arguments (see argType), pctx the executor's
	// context, next to them: pctx.p is the gate's own copy of the
	// principal, from before the policy ran.
	args any
	pctx *principalCtx
	// x is room for the execution that runs the executor in a goroutine
	// of its own, in the arguments' allocation, or nil when the executor is
	// to run in the dispatching goroutine (see Tool.runsAside): a prepared
	// call runs once, where it was prepared to.
	x *execution
	// tm holds the decode and policy durations; tm.last is when the
	// executor's step starts, unless its caller marks it afresh.
	tm timings
	// need says whether the call waits for approval instead of running.
	need approvalNeed
	// pending is the approved call Resume runs, nil for a dispatched call.
	pending *PendingCall
}

// run runs the prepared call's executor.
func (p *prepared) run(ctx context.Context) (any, error) {
	v, _, err := p.tool.checker.typ.use(execute, ctx, Principal{}, p.args)
	return v, err
}

// check runs steps 1 to 5 for one call into p, timing decode and policy
// on p.tm, which holds their timings also when it refuses the call, for
// its event. The prepared call holds the gate's own copy of c.Principal
// (pctx.p). p is written in place, not returned: it is large. A call it
// passes holds the claim of its ID (see resolve); one it refuses does not.
func (r *Registry) check(ctx context.Context, c Caller, call Call, p *prepared) *toolerr.Error {
	t, err := r.resolve(ctx, c, call, &p.tm)
	if err != nil {
		return err
	}
	var perr *toolerr.Error
	*p, perr = t.prepare(ctx, c.Principal, call, p.tm, false, t.runsAside(ctx))
	if perr != nil {
		r.unclaim(ctx, c, call.ID)
		return named(perr, t.Name)
	}
	p.call, p.tool = call, t
	return nil
}

// resolve runs steps 1 to 3 for one call: it returns the call's tool, or
// the refusal. Step 3 claims the call's ID, in the replay store's one
// round trip of the call: a replay is refused here, before its arguments
// are read (so a replay with bad arguments is duplicate_call), and a call
// refused by a later step releases the claim (unclaim), so that it can
// run once corrected. With a call ID, it marks tm after the store's
// answer.
func (r *Registry) resolve(ctx context.Context, c Caller, call Call, tm *timings) (*Tool, *toolerr.Error) {
	t, ok := r.lookup(c.Principal, call.Name, call.Dialect)
	if !ok {
		return nil, r.unknownTool(c.Principal, call)
	}
	if !call.Complete {
		return nil, &toolerr.Error{Code: toolerr.IncompleteCall, Tool: t.Name, CallID: call.ID, Reason: "the call is incomplete (the stream did not finish or was cut by a token limit); nothing was run"}
	}
	if call.ID != "" {
		claimed, err := r.claimID(ctx, c.Scope, call.ID)
		if err != nil {
			return nil, replayUnavailable(t.Name, call.ID, err)
		}
		if !claimed {
			return nil, duplicate(t.Name, call.ID, "was already executed")
		}
		// Decoding starts after the store's answer, which may have
		// taken a round trip.
		tm.mark()
	}
	return t, nil
}

// checkPanicked is the refusal of a call whose decoder, policy or
// NeedsApproval panicked: a system error, and nothing ran.
func checkPanicked(tool, callID string, v any) *toolerr.Error {
	return &toolerr.Error{Code: toolerr.ExecutionFailed, Tool: tool, CallID: callID, Reason: "the call could not be checked; nothing was run", Err: fmt.Errorf("decoder or policy panicked: %v", v)}
}

func duplicate(tool, id, what string) *toolerr.Error {
	return &toolerr.Error{Code: toolerr.DuplicateCall, Tool: tool, CallID: id, Reason: fmt.Sprintf("call ID %s %s; it does not run again", quoteName(id), what)}
}

// replayUnavailable is the refusal of a call whose ID the replay store
// could not check or claim; err (kept for the logs) says why.
func replayUnavailable(tool, id string, err error) *toolerr.Error {
	return &toolerr.Error{Code: toolerr.ReplayUnavailable, Tool: tool, CallID: id, Reason: "the call ID could not be checked against replays (the replay store is full or unavailable); nothing was run", Err: err}
}

// asToolErr returns err as a *toolerr.Error for the named tool and call.
func asToolErr(err error, tool, callID string) *toolerr.Error {
	return ownToolErr(err, toolerr.ExecutionFailed, "the tool failed", tool, callID)
}

// ownToolErr returns the gate's own copy, for tool and callID, of the
// *toolerr.Error in err; an error without one becomes a code error with
// reason, err kept for the logs.
func ownToolErr(err error, code toolerr.Code, reason, tool, callID string) *toolerr.Error {
	c := new(toolErrCopy)
	if !c.find(err) {
		c.err = toolerr.Error{Code: code, Reason: reason, Err: err}
	}
	c.err.Tool, c.err.CallID = tool, callID
	return &c.err
}

// toolErrCopy is room for a copy of the *toolerr.Error of an error and
// for the target errors.As finds it with, in one allocation: the target
// escapes to the heap.
type toolErrCopy struct {
	err    toolerr.Error
	target *toolerr.Error
}

// find copies into c.err the *toolerr.Error that errors.As finds in err,
// and reports whether there was one. The error found may be shared (a
// generated decoder's refusal gives the same one to every errors.As, from
// any goroutine): it is copied, never changed, and c keeps no pointer to
// it.
func (c *toolErrCopy) find(err error) bool {
	if !errors.As(err, &c.target) {
		return false
	}
	c.err, c.target = *c.target, nil
	return true
}

// named returns te, a refusal of Tool.prepare, which is the gate's own,
// naming the tool as registered: a Tool's Name may have been changed
// since Bind.
func named(te *toolerr.Error, tool string) *toolerr.Error {
	te.Tool = tool
	return te
}

// Dispatch checks one call and, when every check passes, runs its executor.
// The error, when not nil, is the *toolerr.Error of the result.
func (r *Registry) Dispatch(ctx context.Context, c Caller, call Call) (Result, error) {
	res := r.dispatchOne(ctx, c, call, 1)
	if res.Err != nil {
		return res, res.Err
	}
	return res, nil
}

// BatchOptions configure DispatchBatch.
type BatchOptions struct {
	// Parallel runs the executors concurrently once every call has passed;
	// by default they run one after another, in order.
	Parallel bool
}

// DispatchBatch handles the calls of one model turn. Every call is resolved,
// decoded and authorized before the first executor starts; if any is
// refused, or two calls share an ID, none runs and the others are reported
// as batch_aborted. The results are in the order of calls. An executor
// that outlives its timeout does not hold back the others: the gate stops
// waiting for it (see the package documentation).
func (r *Registry) DispatchBatch(ctx context.Context, c Caller, calls []Call, opts BatchOptions) []Result {
	if len(calls) == 1 {
		return []Result{r.dispatchOne(ctx, c, calls[0], 1)}
	}
	return r.dispatch(ctx, c, calls, opts, 1)
}

// dispatchAttempt dispatches one call as the given attempt of a repair loop.
func (r *Registry) dispatchAttempt(ctx context.Context, c Caller, call Call, attempt int) Result {
	return r.dispatchOne(ctx, c, call, attempt)
}

// dispatchOne is dispatch for a batch of one call, without the batch's
// bookkeeping: it decides exactly as dispatch does. It reads the clock (when
// an auditor wants timings) at the start, at the end of decode and of the
// policy, and when the executor returns; with a call ID, also after the
// replay store's check and claim.
func (r *Registry) dispatchOne(ctx context.Context, c Caller, call Call, attempt int) Result {
	if r.hook != nil {
		// The hook sees the gate's own copy, not the caller's.
		c.Principal = c.Principal.clone()
		var end func()
		ctx, end = r.startDispatch(ctx, c, 1)
		defer end()
	}
	tm := timings{now: r.timer()}
	tm.mark()
	start := tm.last
	// No code but the gate's has seen the principal until the policy: the
	// gate's own copy is made in check, in the call's allocation.
	t, err := r.resolve(ctx, c, call, &tm)
	if err != nil {
		return r.refuse(ctx, c, call, err, start, attempt, tm)
	}
	if !t.runsAside(ctx) {
		return t.checker.typ.inline(r, ctx, c, call, t, attempt, tm, start)
	}
	p, perr := t.prepare(ctx, c.Principal, call, tm, false, true)
	if perr != nil {
		r.unclaim(ctx, c, call.ID)
		return r.refuse(ctx, c, call, named(perr, t.Name), start, attempt, p.tm)
	}
	p.call, p.tool = call, t
	c.Principal = p.pctx.p
	if res, run := r.proceed(ctx, c, call, &p, start, attempt); !run {
		return res
	}
	return r.execute(ctx, c, &p, attempt)
}

// refuse reports a call refused before it was checked in full: by steps 1
// to 5.
func (r *Registry) refuse(ctx context.Context, c Caller, call Call, err *toolerr.Error, start time.Time, attempt int, tm timings) Result {
	res := Result{CallID: call.ID, Tool: call.Name, Err: err}
	r.emit(ctx, c, call, nil, res, r.since(start), attempt, tm, false)
	return res
}

// proceed takes a checked call of dispatchOne, which holds its ID's
// claim, up to its executor: it stores the call when it awaits approval
// (releasing the claim: Resume claims it when the call runs) and checks
// that ctx is live. It returns the call's result, or run true when the
// executor is to run now. c.Principal is the gate's copy (p.pctx.p).
func (r *Registry) proceed(ctx context.Context, c Caller, call Call, p *prepared, start time.Time, attempt int) (res Result, run bool) {
	if p.need.needed {
		r.unclaim(ctx, c, call.ID)
		results := []Result{{CallID: call.ID, Tool: call.Name}}
		r.request(ctx, c, []Call{call}, []*prepared{p}, results, start, attempt)
		return results[0], false
	}
	if ctx.Err() != nil {
		res := r.cancelled(ctx, c, p)
		r.emit(ctx, c, call, p, res, r.since(p.tm.last), attempt, p.tm, false)
		return res, false
	}
	return Result{}, true
}

// clock returns the time when an auditor wants timings, else the zero
// time: the no-op auditor needs none, and taking them is a large part of
// a dispatch's cost.
func (r *Registry) clock() time.Time {
	if r.quiet {
		return time.Time{}
	}
	return r.timer()()
}

// since returns the time elapsed since t, taken with clock.
func (r *Registry) since(t time.Time) time.Duration {
	if r.quiet {
		return 0
	}
	return r.timer()().Sub(t)
}

// timer is the clock of a call's step timings: nil when no auditor wants
// them.
func (r *Registry) timer() func() time.Time {
	switch {
	case r.quiet:
		return nil
	case r.now != nil:
		return r.now
	}
	return r.mono
}

// wall returns the time on the registry's clock, for the times an
// approval keeps.
func (r *Registry) wall() time.Time {
	if r.now != nil {
		return r.now()
	}
	return time.Now()
}

func (r *Registry) dispatch(ctx context.Context, c Caller, calls []Call, opts BatchOptions, attempt int) []Result {
	// The gate's own copy of the principal: what the caller, a policy or
	// an executor does to theirs changes nothing here.
	c.Principal = c.Principal.clone()
	ctx, end := r.startDispatch(ctx, c, len(calls))
	defer end()
	t0 := timings{now: r.timer()}
	t0.mark()
	start := t0.last
	tms := make([]timings, len(calls))
	results := make([]Result, len(calls))
	preps := make([]*prepared, len(calls))
	checked := make([]prepared, len(calls))
	failed := false
	ids := make(map[string]int, len(calls))
	for i, call := range calls {
		results[i] = Result{CallID: call.ID, Tool: call.Name}
		if j, dup := ids[call.ID]; dup && call.ID != "" {
			results[i].Err = duplicate(call.Name, call.ID, fmt.Sprintf("appears twice in one batch (calls %d and %d)", j, i))
			failed = true
			continue
		}
		ids[call.ID] = i
		t0.mark()
		p := &checked[i]
		p.tm = t0
		err := r.check(ctx, c, call, p)
		tms[i] = p.tm
		if err != nil {
			results[i].Err = err
			failed = true
			continue
		}
		preps[i] = p
	}
	if failed || awaitsApproval(preps) {
		// The calls checked hold their IDs' claims: none runs now.
		for _, p := range preps {
			if p != nil {
				r.unclaim(ctx, c, p.call.ID)
			}
		}
	}
	if !failed && awaitsApproval(preps) {
		r.request(ctx, c, calls, preps, results, start, attempt)
		return results
	}
	if failed {
		for i, p := range preps {
			if p != nil && results[i].Err == nil {
				results[i].Err = &toolerr.Error{Code: toolerr.BatchAborted, Tool: p.tool.Name, CallID: p.call.ID, Reason: "another call of the same turn was refused, so none was run"}
			}
		}
		for i := range results {
			r.emit(ctx, c, calls[i], preps[i], results[i], r.since(start), attempt, tms[i], false)
		}
		return results
	}
	exec := func(i int) {
		preps[i].tm.mark()
		if ctx.Err() != nil {
			results[i] = r.cancelled(ctx, c, preps[i])
			r.emit(ctx, c, calls[i], preps[i], results[i], r.since(preps[i].tm.last), attempt, tms[i], false)
			return
		}
		results[i] = r.execute(ctx, c, preps[i], attempt)
	}
	if !opts.Parallel {
		for i := range preps {
			exec(i)
		}
		return results
	}
	done := make(chan struct{})
	for i := range preps {
		go func() {
			defer func() { done <- struct{}{} }()
			exec(i)
		}()
	}
	for range preps {
		<-done
	}
	return results
}

// cancelled reports a claimed call whose executor was not started because
// ctx was done, and releases its claim so that a retry can run it. A
// passed deadline is a timeout; a cancellation is execution_failed.
func (r *Registry) cancelled(ctx context.Context, c Caller, p *prepared) Result {
	if p.call.ID != "" {
		// The release must not fail for the cancellation it reports.
		r.release(context.WithoutCancel(ctx), c.Scope, p.call.ID)
	}
	e := &toolerr.Error{Code: toolerr.ExecutionFailed, Tool: p.tool.Name, CallID: p.call.ID, Reason: "the request was cancelled before the tool ran", Err: context.Cause(ctx)}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		e.Code, e.Reason = toolerr.Timeout, "the request's deadline passed before the tool ran"
	}
	return Result{CallID: p.call.ID, Tool: p.tool.Name, Err: e}
}

// claimID claims an ID in the replay store, turning a panic into an error.
func (r *Registry) claimID(ctx context.Context, scope, id string) (ok bool, err error) {
	defer recoverStore(&err)
	return r.replay.Claim(ctx, scope, id)
}

// unclaim releases the claim of a call refused after its ID was claimed
// (none for a call without an ID), with a context the request's end does
// not cancel (ctx itself when it can never be: no allocation on a refused
// call's path): a release that fails keeps the claim, and a correct retry
// would be refused.
func (r *Registry) unclaim(ctx context.Context, c Caller, id string) {
	if id == "" {
		return
	}
	if ctx.Done() != nil {
		ctx = context.WithoutCancel(ctx)
	}
	r.release(ctx, c.Scope, id)
}

// release releases a claim. An error or a panic of the store is dropped:
// the claim then stands, which only ever refuses a retry.
func (r *Registry) release(ctx context.Context, scope, id string) {
	defer func() { _ = recover() }()
	_ = r.replay.Release(ctx, scope, id)
}

func recoverStore(err *error) {
	if v := recover(); v != nil {
		*err = fmt.Errorf("%w: %v", errStorePanicked, v)
	}
}
