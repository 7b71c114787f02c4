package gate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// outcome is what an executor did: its value and error, or its panic.
type outcome struct {
	value    any
	err      error
	panicked bool
	end      time.Time
}

// execution is one executor run in a goroutine of its own, for when the
// gate may stop waiting for it, with a copy of its call (which may live in
// its dispatcher's frame, and has ended when the gate stops waiting). The
// call's executor state (pctx) is the executor's context before the
// tool's timeout. The executor's step started at call.tm.last.
type execution struct {
	// xctx is the executor's context; the executor's goroutine cancels it
	// once the executor returns, so that the gate waits on xctx alone.
	xctx   context.Context
	cancel context.CancelFunc
	call   call

	mu sync.Mutex
	// finished is set, with out, when the executor returned before the
	// gate stopped waiting; inTime when also before xctx ended.
	finished, inTime bool
	// abandoned is set when the gate stopped waiting: the executor's
	// goroutine then audits the outcome as a late event itself.
	abandoned bool
	out       outcome
}

// principalCtx carries the principal an executor runs for (PrincipalFrom).
type principalCtx struct {
	context.Context
	p Principal
}

func (c *principalCtx) Value(key any) any {
	if key == (principalKey{}) {
		return &c.p
	}
	return c.Context.Value(key)
}

var errToolTimeout = errors.New("the tool's timeout expired")

// execute is step 7: it runs the executor of a checked call under the
// call's context, with the tool's timeout, and answers and audits with its
// outcome when it has it while both are live; otherwise, at once when
// either ends, with an interrupted answer, and the executor's own outcome
// is audited as a late event (see the package documentation). The
// executor's step starts at c.tm.last. A result schema (BindTyped) is
// checked by the executor BindTyped wraps.
func (c *call) execute() Result {
	c.st.pctx.Context = c.ctx
	if !c.tool.runsAside(c.ctx) {
		return c.executed(guarded(c.r, &c.st.pctx, c.run))
	}
	x := &execution{call: *c}
	return x.await()
}

// run runs the call's executor.
func (c *call) run(ctx context.Context) (any, error) {
	return c.tool.typed.execute(ctx, c.args)
}

// runsAside reports whether a call of t under ctx runs its executor in a
// goroutine of its own: unless the context can never end and the tool has
// no timeout, when there is no point at which the gate would stop waiting,
// so the executor runs in the dispatching goroutine.
func (t *Tool) runsAside(ctx context.Context) bool {
	return t.Timeout > 0 || ctx.Done() != nil
}

// executed answers and audits a call whose executor ran in the
// dispatching goroutine with outcome o.
func (c *call) executed(o outcome) Result {
	res := c.own(o)
	if !c.r.quiet {
		c.emit(res, o.end.Sub(c.tm.last), false)
	}
	return res
}

// await runs x's executor in a goroutine of its own and waits for it only
// while the context and the tool's timeout are live.
func (x *execution) await() Result {
	c := &x.call
	if c.tool.Timeout > 0 {
		x.xctx, x.cancel = context.WithTimeoutCause(&c.st.pctx, c.tool.Timeout, errToolTimeout)
	} else {
		x.xctx, x.cancel = context.WithCancel(&c.st.pctx)
	}
	xctx := x.xctx
	go x.run()
	// Ends when the executor returns, at the tool's timeout, or with ctx.
	<-xctx.Done()
	x.mu.Lock()
	if !x.finished {
		// The executor is still running: answer now. The event is emitted
		// under mu, so the late one cannot come before it.
		x.abandoned = true
		res := Result{CallID: c.in.ID, Tool: c.tool.Name, Executed: true, Err: c.interrupted(xctx, context.Cause(xctx))}
		c.emit(res, c.r.since(c.tm.last), false)
		x.mu.Unlock()
		return res
	}
	x.mu.Unlock()
	o := x.out
	res := c.own(o)
	d := o.end.Sub(c.tm.last)
	if x.inTime {
		c.emit(res, d, false)
		return res
	}
	// The executor returned, but only after its context ended: a late
	// outcome, reported like one the gate did not wait for.
	why := o.err
	if why == nil {
		why = context.Cause(xctx)
	}
	cut := Result{CallID: c.in.ID, Tool: c.tool.Name, Executed: true, Err: c.interrupted(xctx, why)}
	c.emit(cut, d, false)
	c.emit(res, d, true)
	return cut
}

// run is the executor's goroutine: it hands the outcome to the gate and
// wakes it by ending the executor's context, or, when the gate stopped
// waiting, audits the outcome as a late event.
func (x *execution) run() {
	o := guarded(x.call.r, x.xctx, x.call.run)
	x.mu.Lock()
	late := x.abandoned
	if !late {
		x.out, x.finished, x.inTime = o, true, x.xctx.Err() == nil
	}
	x.mu.Unlock()
	x.cancel()
	if late {
		x.late(o)
	}
}

// late audits the outcome of an executor the gate stopped waiting for. It
// is a function of its own so that run's frame stays small: a fresh
// goroutine's stack then need not grow (be copied) for every call.
func (x *execution) late(o outcome) {
	c := &x.call
	c.emit(c.own(o), o.end.Sub(c.tm.last), true)
}

// guarded runs an executor, run(ctx), turning a panic into an outcome, and
// reads the clock when it ends. recover is called only when the executor
// did not return: in a fresh goroutine its frames would otherwise grow
// (copy) the stack on every call.
func guarded(r *Registry, ctx context.Context, run func(context.Context) (any, error)) (o outcome) {
	returned := false
	defer func() {
		if !returned {
			if v := recover(); v != nil {
				o = outcome{err: fmt.Errorf("executor panicked: %v", v), panicked: true}
			}
		}
		o.end = r.clock()
	}()
	v, err := run(ctx)
	returned = true
	return outcome{value: v, err: err}
}

// own is the result of an executor's own outcome: its value, or its error
// as conflict or execution_failed.
func (c *call) own(o outcome) Result {
	res := Result{CallID: c.in.ID, Tool: c.tool.Name, Executed: true}
	if ownChecked(&res, o) {
		return res
	}
	switch {
	case o.err == nil:
		res.Value = o.value
	case !o.panicked && isConflict(o.err):
		res.Err = asToolErr(o.err, c.tool.Name, c.in.ID)
	default:
		res.Err = &toolerr.Error{Code: toolerr.ExecutionFailed, Tool: c.tool.Name, CallID: c.in.ID, Reason: "the tool failed", Err: o.err}
	}
	return res
}

// interrupted is the answer for an execution whose context ended (xctx is
// the executor's context, c.ctx the caller's) before the gate had the
// executor's outcome: timeout for the tool's timeout or the caller's
// deadline, execution_failed for a cancellation. err (the executor's
// error, or why its context ended) is kept for the logs.
func (c *call) interrupted(xctx context.Context, err error) *toolerr.Error {
	e := &toolerr.Error{Code: toolerr.Timeout, Tool: c.tool.Name, CallID: c.in.ID, Err: err}
	switch {
	case errors.Is(context.Cause(xctx), errToolTimeout):
		e.Reason = fmt.Sprintf("the tool did not finish within %s; it may or may not have taken effect", c.tool.Timeout)
	case errors.Is(c.ctx.Err(), context.DeadlineExceeded):
		e.Reason = "the request's deadline passed before the tool finished; it may or may not have taken effect"
	default:
		e.Code, e.Reason = toolerr.ExecutionFailed, "the request was cancelled before the tool finished; it may or may not have taken effect"
	}
	return e
}

// isConflict reports whether an executor's error is a conflict. Any other
// code an executor returns is reported as execution_failed: an executor
// cannot pass itself off as a validation or permission refusal.
func isConflict(err error) bool {
	var te *toolerr.Error
	return errors.As(err, &te) && te.Code == toolerr.Conflict
}
