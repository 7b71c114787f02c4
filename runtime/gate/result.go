package gate

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Typed results. A tool whose file declares an outputSchema is bound with
// BindTyped: its executor returns the generated <Tool>Result rather than
// any, so a handler that returns the wrong shape does not compile, and the
// gate checks every result before it leaves. The result is encoded once
// (ResultSpec.Encode: exactly the members set) and the bytes are read back
// with the generated strict decoder of the result schema (ResultSpec.Decode),
// the same single-pass reader that checks arguments: every keyword, closed
// objects (a member the schema never declared, such as an internal ID, is
// refused), the 1 MiB size and depth 64 limits. A result that fails is
// withheld: the call's outcome is invalid_result (category system), the
// model is told only that the tool failed, and the auditor gets the
// violations' keywords and paths. Executors are application code, so this is
// a bug to fix, not something to repair: DispatchWithRepair never retries
// it. A result that passes is returned as Result.Value (the decoded value)
// and Result.JSON (the checked bytes, which the adapters send).

// ResultSpec is the generated description of a tool's result.
type ResultSpec[R any] struct {
	// Schema is the effective JSON Schema of the result.
	Schema string
	// Encode writes a result as JSON (the generated MarshalJSON).
	Encode func(R) ([]byte, error)
	// Decode is the generated strict decoder of the result schema.
	Decode func(data []byte) (R, error)
}

// TypedExecutor runs a tool with a result schema. Its result is checked
// against the schema before the gate returns it; otherwise it is an
// Executor.
type TypedExecutor[A, R any] func(ctx context.Context, args A) (R, error)

// TypedBinding is what a service supplies for a tool with a result schema.
type TypedBinding[A, R any] struct {
	Policy  Policy[A]
	Execute TypedExecutor[A, R]
}

// BindTyped ties a tool's spec and result spec to its binding. A nil
// policy or executor, encoder or decoder is reported by NewRegistry,
// naming the tool.
func BindTyped[A, R any](spec Spec[A], out ResultSpec[R], b TypedBinding[A, R]) *Tool {
	var exec Executor[A]
	if b.Execute != nil {
		exec = func(ctx context.Context, args A) (any, error) {
			v, err := b.Execute(ctx, args)
			if err != nil {
				return nil, err
			}
			return checkResult(spec.Name, out, v)
		}
	}
	t := Bind(spec, Binding[A]{Policy: b.Policy, Execute: exec})
	t.OutputSchema = out.Schema
	if t.bindErr == nil && (out.Encode == nil || out.Decode == nil) {
		t.bindErr = fmt.Errorf("gate: tool %q has no result encoder or decoder", spec.Name)
	}
	return t
}

// checked is a result that passed its schema: the decoded value and the
// bytes it was decoded from.
type checked struct {
	value any
	json  []byte
}

// invalidResult is the error of a result that broke its schema. Its type is
// unexported, so that no executor can return one.
type invalidResult struct{ err *toolerr.Error }

func (e *invalidResult) Error() string { return e.err.Error() }

// withheld is the reason the model reads for an invalid_result.
const withheld = "the tool's result did not match its declared schema and was withheld; this is a fault of the tool, not of the call"

// checkResult encodes v and reads the bytes back with the result's strict
// decoder.
func checkResult[R any](tool string, out ResultSpec[R], v R) (any, error) {
	data, err := out.Encode(v)
	if err != nil {
		return nil, &invalidResult{&toolerr.Error{Code: toolerr.InvalidResult, Tool: tool, Reason: withheld, Err: fmt.Errorf("encoding the result: %w", err)}}
	}
	got, err := out.Decode(data)
	if err != nil {
		e := &toolerr.Error{Code: toolerr.InvalidResult, Tool: tool, Reason: withheld, Err: err}
		var te *toolerr.Error
		if errors.As(err, &te) {
			e.SetViolations(te.Violations()).Truncated = te.Truncated
		}
		return nil, &invalidResult{e}
	}
	return checked{value: got, json: data}, nil
}

// ownChecked fills res from an executor's outcome that went through
// checkResult: a checked value (Value and JSON) or an invalid_result. It
// reports whether it did.
func ownChecked(res *Result, o outcome) bool {
	if c, ok := o.value.(checked); ok && o.err == nil {
		res.Value, res.JSON = c.value, c.json
		return true
	}
	if o.err == nil || o.panicked {
		return false
	}
	// Declared here, so that the success path does not allocate it.
	var ir *invalidResult
	if errors.As(o.err, &ir) {
		e := *ir.err
		e.CallID = res.CallID
		res.Err = &e
		return true
	}
	return false
}
