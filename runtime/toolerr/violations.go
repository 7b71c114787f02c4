package toolerr

import "encoding/json"

// A ViolationSource yields the violations of an Error. The generated
// decoders use one that records what it needs when a rule is broken (the
// keyword, the schema pointer, a copy of the path and of the value shown)
// and renders the pointers and messages on the first call. An
// implementation must be safe for concurrent use and return the same list,
// which callers do not modify, on every call.
type ViolationSource interface {
	Violations() []Violation
}

// given is a list of violations already rendered (SetViolations).
type given []Violation

func (g given) Violations() []Violation { return g }

// Violations returns the broken rules, in document order, at most
// MaxViolations of them (Truncated says whether there were more); nil for
// an error of another kind. Those of a generated decoder are rendered on
// the first call (by it, Error or MarshalJSON); later calls, from any
// goroutine, return the same list. The caller must not modify it.
func (e *Error) Violations() []Violation {
	if e.violations == nil {
		return nil
	}
	return e.violations.Violations()
}

// SetViolations makes vs the violations of e and returns e: for an error
// built by hand (a decoder written by hand, a test, an error read back).
func (e *Error) SetViolations(vs []Violation) *Error {
	e.violations = nil
	if len(vs) > 0 {
		e.violations = given(vs)
	}
	return e
}

// DeferViolations makes src, which renders them when first asked, the
// source of the violations of e, and returns e. A nil src means none.
func (e *Error) DeferViolations(src ViolationSource) *Error {
	e.violations = src
	return e
}

// UnmarshalJSON reads an error back from the JSON that MarshalJSON writes
// (the category and the one-line message are derived, and ignored).
func (e *Error) UnmarshalJSON(data []byte) error {
	var w wire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*e = Error{Code: w.Code, Tool: w.Tool, CallID: w.CallID, Reason: w.Reason, Truncated: w.Truncated, Approval: w.Approval}
	if w.Offset != nil {
		e.Offset = *w.Offset
	}
	e.SetViolations(w.Violations)
	return nil
}
