package gate

import (
	"context"
	"errors"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Repair is the policy of a repair loop: when the model's call is refused
// for its arguments, ask the model for a new one, at most MaxAttempts times
// in all.
type Repair struct {
	// MaxAttempts bounds the attempts, the first call included. It is
	// required: there is no unlimited default.
	MaxAttempts int
	// Next asks for a new candidate after the refusal err of call; it is
	// required (ErrNoNext), even with MaxAttempts 1. The candidate is a
	// fresh call, decoded and checked from scratch; it is never merged
	// into the refused one.
	Next func(ctx context.Context, call Call, err *toolerr.Error) (Call, error)
}

// The errors of an unusable Repair; DispatchWithRepair returns every one
// that applies, and dispatches nothing.
var (
	// ErrNoAttempts: Repair.MaxAttempts is below 1.
	ErrNoAttempts = errors.New("gate: Repair.MaxAttempts must be at least 1")
	// ErrNoNext: Repair.Next is nil, so no new candidate can be asked for.
	ErrNoNext = errors.New("gate: Repair.Next is nil: it must ask the model for a new candidate")
)

// repairable reports whether the model can fix a refusal by sending other
// arguments. An unknown tool, a denial, a replay or an executor failure is
// not repairable.
func repairable(c toolerr.Code) bool {
	return c == toolerr.InvalidJSON || c == toolerr.InvalidArguments
}

// DispatchWithRepair dispatches call; while it is refused for its
// arguments and attempts remain, it asks rp.Next for a new candidate and
// dispatches that. Every attempt is audited with its attempt number. The
// result is that of the last attempt.
func (r *Registry) DispatchWithRepair(ctx context.Context, c Caller, call Call, rp Repair) (Result, error) {
	var bad []error
	if rp.MaxAttempts < 1 {
		bad = append(bad, ErrNoAttempts)
	}
	if rp.Next == nil {
		bad = append(bad, ErrNoNext)
	}
	if len(bad) > 0 {
		return Result{}, errors.Join(bad...)
	}
	for attempt := 1; ; attempt++ {
		res := r.dispatchAttempt(ctx, c, call, attempt)
		if res.Err == nil {
			r.emitRepair(ctx, c, call, res, attempt)
			return res, nil
		}
		if !repairable(res.Err.Code) || attempt == rp.MaxAttempts {
			r.emitRepair(ctx, c, call, res, attempt)
			return res, res.Err
		}
		next, err := rp.Next(ctx, call, res.Err)
		if err != nil {
			r.emitRepair(ctx, c, call, res, attempt)
			return res, errors.Join(res.Err, err)
		}
		call = next
	}
}
