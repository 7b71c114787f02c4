package gate

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

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
func (r *Registry) dispatchOne(ctx context.Context, cl Caller, in Call, attempt int) Result {
	if r.hook != nil {
		// The hook sees the gate's own copy, not the caller's.
		cl.Principal = cl.Principal.clone()
		var end func()
		ctx, end = r.startDispatch(ctx, cl, 1)
		defer end()
	}
	// No code but the gate's sees the principal until the policy: the
	// gate's own copy is made in authorize.
	c := r.newCall(ctx, cl, in, attempt)
	if err := c.check(); err != nil {
		return c.refuse(err)
	}
	if c.need.needed {
		// The call keeps its ID's claim while it waits (see hold).
		results := []Result{{CallID: in.ID, Tool: in.Name}}
		r.request(ctx, []call{c}, results)
		return results[0]
	}
	if ctx.Err() != nil {
		return c.cancelled()
	}
	return c.execute()
}

// dispatch is DispatchBatch for several calls.
func (r *Registry) dispatch(ctx context.Context, cl Caller, in []Call, opts BatchOptions, attempt int) []Result {
	// The gate's own copy of the principal: what the caller, a policy or
	// an executor does to theirs changes nothing here.
	cl.Principal = cl.Principal.clone()
	ctx, end := r.startDispatch(ctx, cl, len(in))
	defer end()
	calls := make([]call, len(in))
	results := make([]Result, len(in))
	start := r.clock()
	// A call passed its checks when its result has no error yet.
	failed, waits := false, false
	ids := make(map[string]int, len(in))
	for i := range in {
		c := &calls[i]
		*c = r.newCall(ctx, cl, in[i], attempt)
		c.start = start
		id := c.in.ID
		results[i] = Result{CallID: id, Tool: c.in.Name}
		if j, dup := ids[id]; dup && id != "" {
			results[i].Err = duplicate(c.in.Name, id, fmt.Sprintf("appears twice in one batch (calls %d and %d)", j, i))
			failed = true
			continue
		}
		ids[id] = i
		if err := c.check(); err != nil {
			results[i].Err = err
			failed = true
			continue
		}
		waits = waits || c.need.needed
	}
	if failed || waits {
		// The calls checked hold their IDs' claims: none runs now, and
		// only the calls to be held keep theirs (see hold).
		for i := range calls {
			if results[i].Err == nil && (failed || !calls[i].need.needed) {
				calls[i].unclaim()
			}
		}
	}
	switch {
	case failed:
		for i := range calls {
			if c := &calls[i]; results[i].Err == nil {
				results[i].Err = &toolerr.Error{Code: toolerr.BatchAborted, Tool: c.tool.Name, CallID: c.in.ID, Reason: "another call of the same turn was refused, so none was run"}
			}
			calls[i].emit(results[i], r.since(start), false)
		}
		return results
	case waits:
		r.request(ctx, calls, results)
		return results
	}
	exec := func(i int) {
		c := &calls[i]
		c.tm.mark()
		if ctx.Err() != nil {
			results[i] = c.cancelled()
			return
		}
		results[i] = c.execute()
	}
	if !opts.Parallel {
		for i := range calls {
			exec(i)
		}
		return results
	}
	done := make(chan struct{})
	for i := range calls {
		go func() {
			defer func() { done <- struct{}{} }()
			exec(i)
		}()
	}
	for range calls {
		<-done
	}
	return results
}

// cancelled answers and audits a checked call whose executor was not
// started because ctx was done, and releases its claim so that a retry can
// run it. A passed deadline is a timeout; a cancellation is
// execution_failed.
func (c *call) cancelled() Result {
	if c.in.ID != "" {
		// The release must not fail for the cancellation it reports.
		c.r.release(context.WithoutCancel(c.ctx), c.caller.Scope, c.in.ID)
	}
	e := &toolerr.Error{Code: toolerr.ExecutionFailed, Tool: c.tool.Name, CallID: c.in.ID, Reason: "the request was cancelled before the tool ran", Err: context.Cause(c.ctx)}
	if errors.Is(c.ctx.Err(), context.DeadlineExceeded) {
		e.Code, e.Reason = toolerr.Timeout, "the request's deadline passed before the tool ran"
	}
	res := Result{CallID: c.in.ID, Tool: c.tool.Name, Err: e}
	c.emit(res, c.r.since(c.tm.last), false)
	return res
}

// claimID claims an ID in the replay store, turning a panic into an error.
func (r *Registry) claimID(ctx context.Context, scope, id string) (ok bool, err error) {
	defer recoverStore(&err)
	return r.replay.Claim(ctx, scope, id)
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
