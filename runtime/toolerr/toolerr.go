// Package toolerr defines the errors that a toolgate gate returns when it
// refuses a tool call: a stable Code, the tool's name and, for argument
// problems, every Violation found, in document order, up to a cap.
//
// Errors are values. Callers branch on Code, never on message text:
//
//	var e *toolerr.Error
//	if errors.As(err, &e) && e.Code == toolerr.InvalidArguments {
//		for _, v := range e.Violations() {
//			log.Printf("%s at %s: %s", v.Keyword, v.InstancePath, v.Message)
//		}
//	}
//
// An Error marshals to JSON meant to be sent back to the model, so that it can
// correct its call:
//
//	{"code":"invalid_arguments","tool":"refund_order","message":"...",
//	 "violations":[{"keyword":"enum","instancePath":"/reason",
//	   "schemaPath":"/properties/reason/enum",
//	   "message":"reason must be one of duplicate, fraudulent or requested_by_customer; received other"}]}
//
// Messages show a received string bare when it is a plain word (other,
// GBP, 2026-01-31) and JSON-quoted otherwise ("two words", "", with
// invisible characters escaped), at most 64 characters of it followed by
// "…"; member names in paths likewise (line_items[0].sku, "orderId\u200b").
// They never repeat the value of a member marked sensitive, at any depth
// below it, nor the undeclared names (map keys) inside it, which read "*".
//
// The JSON of an Error is at most MaxJSONBytes long whatever the input
// (see MarshalJSON).
//
// A generated decoder does not return an *Error itself but a smaller value
// that makes its *Error when errors.As first asks for it (the same one on
// every later call); its Error and JSON are that *Error's. Read errors with
// errors.As, never with a type assertion. The violations of such an Error
// are rendered when they are first read (Violations, Error, MarshalJSON),
// not when the decoder finds them: a refusal that is only counted or
// branched on by its Code costs no message text. Every read gets the same
// list, so an Error may be read from several goroutines.
package toolerr

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Code is the stable identifier of a class of refusal. New codes may be
// added; existing ones never change meaning.
type Code string

// The codes. InvalidJSON and InvalidArguments come from the argument
// decoders; the rest are reserved for the gate.
const (
	// InvalidJSON: the argument bytes are not acceptable JSON (syntax, invalid
	// UTF-8, lone surrogates, duplicate member names, size or depth limits,
	// or a top-level value that is not an object).
	InvalidJSON Code = "invalid_json"
	// InvalidArguments: well-formed JSON that violates the tool's schema.
	InvalidArguments Code = "invalid_arguments"
	// UnknownTool: no tool of that exact name is visible to the caller.
	UnknownTool Code = "unknown_tool"
	// IncompleteCall: the call was cut off (streaming unfinished, token limit).
	IncompleteCall Code = "incomplete_call"
	// DuplicateCall: the call ID was already seen.
	DuplicateCall Code = "duplicate_call"
	// Unauthorized: the tool's policy denied the call for this principal.
	Unauthorized Code = "unauthorized"
	// Timeout: the executor did not finish in time.
	Timeout Code = "timeout"
	// ExecutionFailed: the executor ran and returned an error, or panicked.
	ExecutionFailed Code = "execution_failed"
	// Conflict: the executor refused because of the state of the world (the
	// order was already refunded); retrying the same call will not help.
	Conflict Code = "conflict"
	// BatchAborted: the call was valid but not run, because another call of
	// its batch was refused.
	BatchAborted Code = "batch_aborted"
	// ReplayUnavailable: the call was not run because the replay store
	// could not check or record its ID (the store is full, failed or
	// panicked). Category System: the call may be retried later.
	ReplayUnavailable Code = "replay_unavailable"
	// InvalidResult: the executor ran, but its result broke the tool's
	// result schema (outputSchema) and was withheld. Category System: the
	// tool is at fault, not the call. The Violations are kept for the
	// service and its auditor; the JSON for the model leaves them out (they
	// describe the withheld values), and so does Error.
	InvalidResult Code = "invalid_result"
)

// Category groups codes by who has to act: the model (validation), the
// caller's rights (permission), the state of the world (conflict), a person
// who must approve the call (approval) or the system itself.
type Category string

// The categories.
const (
	Validation    Category = "validation"
	Permission    Category = "permission"
	StateConflict Category = "conflict"
	System        Category = "system"
)

// Category returns the category of c. Unknown codes are system errors.
func (c Code) Category() Category {
	switch c {
	case InvalidJSON, InvalidArguments, UnknownTool, IncompleteCall, DuplicateCall, BatchAborted:
		return Validation
	case Unauthorized:
		return Permission
	case Conflict:
		return StateConflict
	}
	if cat, ok := approvalCategory(c); ok {
		return cat
	}
	return System
}

// MaxViolations is the default cap on the number of violations collected
// for one call. Decoding goes on past the cap (a later syntax error still
// turns the result into InvalidJSON) but no more violations are recorded,
// and Truncated is set.
const MaxViolations = 32

// MaxJSONBytes bounds the JSON that MarshalJSON produces: what a refusal
// puts in front of the model is at most 8 KiB, however large or hostile the
// arguments, the call ID or a reason.
const MaxJSONBytes = 8 << 10

// Violation is one broken rule of the schema.
type Violation struct {
	// Keyword is the JSON Schema keyword that failed, such as "required",
	// "enum" or "additionalProperties".
	Keyword string `json:"keyword"`
	// InstancePath is an RFC 6901 JSON pointer to the offending value in the
	// arguments ("" is the whole argument object).
	InstancePath string `json:"instancePath"`
	// SchemaPath is an RFC 6901 JSON pointer to the keyword in the tool's
	// effective schema.
	SchemaPath string `json:"schemaPath"`
	// Message is a sentence built from a fixed template, written for the
	// model: "amountInCents must be at most 100000; received 100001".
	Message string `json:"message"`
}

// Error is a refused tool call.
type Error struct {
	Code Code   `json:"code"`
	Tool string `json:"tool,omitempty"`
	// CallID is the ID of the refused call, where the gate knows it.
	CallID string `json:"callId,omitempty"`
	// Offset is the byte offset of a JSON syntax problem (InvalidJSON only).
	Offset int `json:"offset"`
	// Reason says what is wrong for codes other than InvalidArguments.
	Reason string `json:"reason,omitempty"`
	// Truncated is set when more violations existed than were recorded. In
	// the JSON it is also set when violations were left out to keep it
	// within MaxJSONBytes.
	Truncated bool `json:"truncated,omitempty"`
	// Approval describes the pending call (ApprovalRequired only).
	Approval *PendingApproval `json:"approval,omitempty"`
	// Err is the underlying error (a policy's denial, an executor's
	// failure), kept for the service's logs. It is never marshalled: what
	// the model sees is Code, Reason and Violations.
	Err error `json:"-"`

	// violations lists the broken rules (see Violations): nil for none.
	violations ViolationSource
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// wire is the JSON form of an Error.
type wire struct {
	Code       Code             `json:"code"`
	Category   Category         `json:"category"`
	Tool       string           `json:"tool,omitempty"`
	CallID     string           `json:"callId,omitempty"`
	Message    string           `json:"message"`
	Offset     *int             `json:"offset,omitempty"`
	Reason     string           `json:"reason,omitempty"`
	Violations []Violation      `json:"violations,omitempty"`
	Truncated  bool             `json:"truncated,omitempty"`
	Approval   *PendingApproval `json:"approval,omitempty"`
}

// MarshalJSON writes the error for the model: the code, the tool, a
// one-line message, and the offset (invalid_json), reason and violations
// where they apply.
//
// The result is at most MaxJSONBytes long. An error that would be longer
// keeps the violations that fit, in order, and says "truncated": true;
// should the tool, call ID, message or reason alone be too long, each is
// cut to a share of the bound, the cut marked with "…". An error that fits
// is written in full, unchanged.
func (e *Error) MarshalJSON() ([]byte, error) {
	w := wire{Code: e.Code, Category: e.Code.Category(), Tool: e.Tool, CallID: e.CallID, Message: e.Error(), Reason: e.Reason, Violations: e.Violations(), Truncated: e.Truncated, Approval: e.Approval}
	if e.Code == InvalidResult {
		w.Violations, w.Truncated = nil, false
	}
	if e.Code == InvalidJSON {
		w.Offset = &e.Offset
	}
	data, err := json.Marshal(w)
	if err != nil || len(data) <= MaxJSONBytes {
		return data, err
	}
	return w.bounded()
}

// The shares of MaxJSONBytes that the strings of a cut error may take,
// JSON-encoded; together with the fixed members they leave room for at
// least one violation of ordinary size.
const (
	maxToolJSON    = 256
	maxCallIDJSON  = 256
	maxMessageJSON = 2 << 10
	maxReasonJSON  = 1 << 10
)

// bounded marshals w within MaxJSONBytes: the strings cut to their shares,
// then as many violations as fit.
func (w wire) bounded() ([]byte, error) {
	w.Tool = cutJSON(w.Tool, maxToolJSON)
	w.CallID = cutJSON(w.CallID, maxCallIDJSON)
	w.Message = cutJSON(w.Message, maxMessageJSON)
	w.Reason = cutJSON(w.Reason, maxReasonJSON)
	if a := w.Approval; a != nil {
		// The pending ID, digest and expiry are the gate's own and short;
		// the version may come from a tool file.
		cp := *a
		cp.PendingID, cp.Version = cutJSON(a.PendingID, maxToolJSON), cutJSON(a.Version, maxToolJSON)
		cp.ArgsDigest, cp.ExpiresAt = cutJSON(a.ArgsDigest, maxToolJSON), cutJSON(a.ExpiresAt, maxToolJSON)
		w.Approval = &cp
	}
	w.Truncated = true
	all := w.Violations
	w.Violations = nil
	base, err := json.Marshal(w)
	if err != nil {
		return nil, err
	}
	// The violations add `,"violations":[` ... `]` before "truncated".
	size := len(base) + len(`,"violations":[]`)
	n := 0
	for _, v := range all {
		item, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		extra := len(item)
		if n > 0 {
			extra++ // the comma
		}
		if size+extra > MaxJSONBytes {
			break
		}
		size += extra
		n++
	}
	w.Violations = all[:n]
	return json.Marshal(w)
}

// cutJSON cuts s so that its JSON encoding (as encoding/json writes it,
// quotes included) takes at most max bytes, marking a cut with "…".
func cutJSON(s string, max int) string {
	if jsonLen(s) <= max {
		return s
	}
	budget := max - len(`""`) - len("…")
	n := 0
	for i, r := range s {
		w := runeJSONLen(r)
		if n+w > budget {
			return strings.ToValidUTF8(s[:i], "") + "…"
		}
		n += w
	}
	return s
}

// jsonLen is the length of s encoded by encoding/json, quotes included.
func jsonLen(s string) int {
	n := len(`""`)
	for _, r := range s {
		n += runeJSONLen(r)
	}
	return n
}

// runeJSONLen is how many bytes encoding/json writes for r: escapes for
// control characters, quotes, backslashes, <, >, & and U+2028/U+2029, and
// \ufffd for invalid UTF-8.
func runeJSONLen(r rune) int {
	switch {
	case r == '"' || r == '\\' || r == '\n' || r == '\r' || r == '\t':
		return 2
	case r < 0x20 || r == '<' || r == '>' || r == '&' || r == '\u2028' || r == '\u2029' || r == utf8.RuneError:
		return 6
	}
	return utf8.RuneLen(r)
}

// Error renders a one-line summary: the code, the tool and the first
// violation or reason.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Code))
	if e.Tool != "" {
		b.WriteString(" for tool ")
		b.WriteString(e.Tool)
	}
	switch {
	case e.Code == InvalidJSON:
		fmt.Fprintf(&b, ": at byte %d: %s", e.Offset, e.Reason)
	case e.Reason != "":
		b.WriteString(": ")
		b.WriteString(e.Reason)
	}
	if vs := e.Violations(); len(vs) > 0 && e.Code != InvalidResult {
		n := len(vs)
		b.WriteString(": ")
		b.WriteString(vs[0].Message)
		if n > 1 || e.Truncated {
			more := fmt.Sprint(n - 1)
			if e.Truncated {
				more += "+"
			}
			unit := "problems"
			if more == "1" {
				unit = "problem"
			}
			fmt.Fprintf(&b, " (and %s more %s)", more, unit)
		}
	}
	return b.String()
}
