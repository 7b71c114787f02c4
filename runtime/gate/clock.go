package gate

import "time"

// The clocks of the gate: the step timings of a call, for its event, and
// the registry's clock.

// timings are the durations of one call's steps before its executor's, taken with now; they stay
// zero when now is nil (no auditor wants them). The clock is read once
// per step boundary: last is the end of the last step timed, which is the
// start of the next one unless mark starts it afresh (after a step that is
// not timed, such as a replay store's check).
type timings struct {
	now            func() time.Time
	last           time.Time
	decode, policy time.Duration
}

// mark starts the next step now.
func (tm *timings) mark() {
	if tm.now != nil {
		tm.last = tm.now()
	}
}

// lap ends the step that started at last, returning its duration, and
// starts the next one.
func (tm *timings) lap() time.Duration {
	if tm.now == nil {
		return 0
	}
	t := tm.now()
	d := t.Sub(tm.last)
	tm.last = t
	return d
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
