package adapter

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Turn is what one model response says: its tool calls, in the order the
// model wrote them, and the turn-level facts a service acts on.
type Turn struct {
	// Dialect is the provider format the turn was read from.
	Dialect gate.Dialect
	// Calls are the tool calls in order, with Dialect set. Each call's
	// Complete is false unless the provider finished the turn normally and
	// marked the call complete; a service passes Calls to
	// gate.Registry.DispatchBatch as they are.
	Calls []gate.Call
	// Text is the visible text of the turn (reasoning and thought text
	// excluded), concatenated in order.
	Text string
	// Refusal is the refusal text (OpenAI), or "".
	Refusal string
	// StopReason is the provider's finish reason as received: OpenAI Chat
	// finish_reason, Responses status, Anthropic stop_reason, Gemini
	// finishReason; "" when absent.
	StopReason string
	// Truncated reports a response cut by a token limit; every call of a
	// truncated turn is incomplete.
	Truncated bool
}

// build is a turn being read. Text and refusal are gathered as bytes and
// converted once, so a turn of many text blocks is read in linear time.
type build struct {
	Turn
	text, refusal []byte
}

// turn returns the turn with its text and refusal.
func (b *build) turn() Turn {
	b.Text, b.Refusal = string(b.text), string(b.refusal)
	return b.Turn
}

// The codes of adapter errors. They extend toolerr's set; a duplicate call
// ID within one response uses toolerr.DuplicateCall.
const (
	// InvalidEnvelope: the body or event is not strict JSON (syntax,
	// duplicate member names, invalid UTF-8, limits) or not the documented
	// shape (a required member missing, a member of the wrong type).
	InvalidEnvelope toolerr.Code = "invalid_envelope"
	// UnknownType: an output item, content block, part or delta type the
	// adapter does not know or cannot turn into a gate call.
	UnknownType toolerr.Code = "unknown_type"
	// MissingCalls: the stop reason says the model called tools, but the
	// content holds no call.
	MissingCalls toolerr.Code = "missing_calls"
	// MissingCallID: a provider that requires call IDs sent a call without
	// one (or with an empty one).
	MissingCallID toolerr.Code = "missing_call_id"
	// InvalidStream: stream events out of order or contradicting each other
	// (a delta for a call never started or already finished, a call ID or
	// name that changes, a .done event whose arguments differ from the
	// deltas, an event after the end of the stream).
	InvalidStream toolerr.Code = "invalid_stream"
	// ProviderError: the body or stream is the provider's error report.
	ProviderError toolerr.Code = "provider_error"
	// FailedCall: the provider's finish reason says the model's tool call
	// failed (Gemini MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL,
	// TOO_MANY_TOOL_CALLS): the turn has no call to run, and it is not the
	// model's answer either.
	FailedCall toolerr.Code = "failed_call"
	// LimitExceeded: a stream passed one of its caps (MaxCallBytes for one
	// call's arguments, MaxStreamCalls calls, MaxStreamBytes buffered in
	// all); the assembler stops buffering.
	LimitExceeded toolerr.Code = "limit_exceeded"
)

// The caps of a stream assembler. A whole body is bounded by its size
// (64 MiB); a stream is bounded by these, whatever its number of events.
const (
	// MaxCallBytes caps one streamed call's arguments: the argument
	// decoders' input limit (jsonread.DefaultLimits.MaxBytes), past which
	// the gate would refuse the call anyway.
	MaxCallBytes = 1 << 20
	// MaxStreamCalls caps the calls of one stream.
	MaxStreamCalls = 4096
	// MaxStreamBytes caps what one stream buffers in all: arguments, text
	// and refusal together (and 64 bytes per Anthropic content block, for
	// its bookkeeping), the size limit of a whole body.
	MaxStreamBytes = 64 << 20
)

// Error is a response or stream event the adapter refuses. Nothing of the
// turn should be executed.
type Error struct {
	Code    toolerr.Code
	Dialect gate.Dialect
	// Offset is the byte offset of the problem in the body or event, or -1
	// when the problem has no single place (a missing tool call).
	Offset int
	// Reason says what is wrong, in a fixed phrase.
	Reason string
}

// Error returns e.g. "adapter: anthropic: invalid_envelope at byte 12:
// duplicate member name \"name\"".
func (e *Error) Error() string {
	s := "adapter: " + string(e.Dialect) + ": " + string(e.Code)
	if e.Offset >= 0 {
		s += " at byte " + strconv.Itoa(e.Offset)
	}
	return s + ": " + e.Reason
}

// limits bound one body or event: provider bodies can be far larger than
// one tool call's arguments (long texts, many items), and the arguments
// nest inside the envelope, so the depth allows the argument decoders'
// 64 levels plus the envelope's own.
var limits = jsonread.Limits{MaxBytes: MaxStreamBytes, MaxDepth: 64 + 16}

// parser reads one body or event strictly. It records the first error and
// stops the reader, so callers run straight-line code and check once.
type parser struct {
	r       jsonread.Reader
	dialect gate.Dialect
	base    int // offset of r's data in the original input
	err     *Error
	spare   *parser // for sub, kept with its reader's buffers
}

func newParser(d gate.Dialect, data []byte) *parser {
	p := new(parser)
	p.reset(d, data, 0)
	return p
}

// reset points p at data, which starts at offset base of the original
// input, and clears its error; the reader keeps its scratch buffers.
func (p *parser) reset(d gate.Dialect, data []byte, base int) {
	p.dialect, p.base, p.err = d, base, nil
	p.r.Reset(data, limits)
}

// failf records an error with code at offset off of p's data and stops the
// reader.
func (p *parser) failf(code toolerr.Code, off int, format string, args ...any) {
	if p.err == nil && p.r.Err() == nil {
		p.err = &Error{Code: code, Dialect: p.dialect, Offset: p.base + off, Reason: fmt.Sprintf(format, args...)}
	}
	p.r.Fail(off, jsonread.ErrStopped, "stopped")
}

// ok reports whether no error has been recorded.
func (p *parser) ok() bool { return p.err == nil && p.r.Err() == nil }

// result returns the recorded error, or nil.
func (p *parser) result() *Error {
	if p.err != nil {
		return p.err
	}
	if e := p.r.Err(); e != nil {
		return &Error{Code: InvalidEnvelope, Dialect: p.dialect, Offset: p.base + e.Offset, Reason: e.Reason}
	}
	return nil
}

// finish checks that nothing follows the top-level value and returns the
// result.
func (p *parser) finish() *Error {
	p.r.Finish()
	return p.result()
}

// expect checks that the next value is of kind k.
func (p *parser) expect(k jsonread.Kind, what string) bool {
	got := p.r.Peek()
	if got == jsonread.Invalid {
		return false
	}
	if got != k {
		p.failf(InvalidEnvelope, p.r.Offset(), "%s must be %s %s, not %s", what, article(k), k, got)
		return false
	}
	return true
}

func article(k jsonread.Kind) string {
	if k == jsonread.Array || k == jsonread.Object {
		return "an"
	}
	return "a"
}

// object walks the object at the reader's position; fn consumes the value
// of each member. A repeated member name is an error, whatever the member.
// read lists the member names the caller reads at this level: a member
// whose name equals one of them under encoding/json's matching (ASCII case
// and Unicode simple folding, as bytes.EqualFold: "Name" or "NAME" for
// "name", "ſtatus" with a long s for "status") without being it is an error,
// beside the exact member or alone. A layer that reads the same body with
// encoding/json would take that member for the one the adapter reads, and
// see another value (or one the adapter does not see).
func (p *parser) object(what string, read []string, fn func(name string)) {
	if !p.expect(jsonread.Object, what) {
		return
	}
	p.r.ObjectStart()
	var seen []string
	var many map[string]bool
	for name, ok := p.r.NextMember(); ok; name, ok = p.r.NextMember() {
		if v := variantOf(name, read); v != "" {
			p.failf(InvalidEnvelope, p.r.NameOffset(), "member name %q in %s is a case variant of %q: encoding/json would read it as that member", name, what, v)
			return
		}
		n := string(name)
		dup := false
		if many != nil {
			dup = many[n]
			many[n] = true
		} else {
			dup = slices.Contains(seen, n)
			seen = append(seen, n)
			if len(seen) > 16 {
				many = make(map[string]bool, 32)
				for _, s := range seen {
					many[s] = true
				}
			}
		}
		if dup {
			p.failf(InvalidEnvelope, p.r.NameOffset(), "duplicate member name %q in %s", n, what)
			return
		}
		fn(n)
	}
}

// variantOf returns the member of read that name matches under
// encoding/json's case-insensitive matching without being it, or "".
func variantOf(name []byte, read []string) string {
	for _, r := range read {
		if string(name) != r && bytes.EqualFold(name, []byte(r)) {
			return r
		}
	}
	return ""
}

// array walks the array at the reader's position; fn consumes item i.
func (p *parser) array(what string, fn func(i int)) {
	if !p.expect(jsonread.Array, what) {
		return
	}
	p.r.ArrayStart()
	for i := 0; p.r.NextItem(); i++ {
		fn(i)
	}
}

// nullable consumes a null and reports true, or reports false and leaves
// any other value.
func (p *parser) nullable() bool {
	if p.r.Peek() == jsonread.Null {
		p.r.Null()
		return true
	}
	return false
}

// bytes reads a string and returns its unescaped content: a slice of the
// input when the string has no escapes, a fresh copy otherwise.
func (p *parser) bytes(what string) []byte {
	if !p.expect(jsonread.String, what) {
		return nil
	}
	start := p.r.Offset()
	b := p.r.String()
	if !p.ok() {
		return nil
	}
	if raw := p.r.Capture(start); len(raw) == len(b)+2 {
		// Every escape is longer than what it stands for, so equal
		// lengths mean no escape: alias the input.
		return raw[1 : len(raw)-1 : len(raw)-1]
	}
	return slices.Clone(b)
}

// str reads a string.
func (p *parser) str(what string) string { return string(p.bytes(what)) }

// optStr reads a string or null ("").
func (p *parser) optStr(what string) string {
	if p.nullable() {
		return ""
	}
	return p.str(what)
}

// optBytes reads a string or null (nil), as bytes.
func (p *parser) optBytes(what string) []byte {
	if p.nullable() {
		return nil
	}
	return p.bytes(what)
}

// raw reads any value and returns its bytes, a slice of the input.
func (p *parser) raw() []byte {
	start := p.r.Offset()
	p.r.Skip()
	return p.r.Capture(start)
}

// args reads an embedded argument value (Anthropic input, Gemini args, MCP
// params.arguments) and returns its bytes, a slice of the input. It is
// checked as strictly as raw, except for repeated member names: arguments
// with a duplicate member are returned as they are, and the tool's decoder
// refuses that one call (invalid_json) instead of the whole envelope.
func (p *parser) args() []byte {
	p.r.Peek()
	start := p.r.Offset()
	p.walk()
	return p.r.Capture(start)
}

// walk consumes one value without the duplicate member check. Its
// recursion is bounded by the reader's depth limit.
func (p *parser) walk() {
	switch p.r.Peek() {
	case jsonread.Object:
		p.r.ObjectStart()
		for _, ok := p.r.NextMember(); ok; _, ok = p.r.NextMember() {
			p.walk()
		}
	case jsonread.Array:
		p.r.ArrayStart()
		for p.r.NextItem() {
			p.walk()
		}
	case jsonread.String:
		p.r.String()
	case jsonread.Number:
		p.r.Number()
	case jsonread.Bool:
		p.r.Bool()
	case jsonread.Null:
		p.r.Null()
	}
}

// index reads a non-negative integer below 1<<20 (an array or stream index).
func (p *parser) index(what string) int {
	if !p.expect(jsonread.Number, what) {
		return 0
	}
	off := p.r.Offset()
	n, err := strconv.Atoi(string(p.r.Number()))
	if p.ok() && (err != nil || n < 0 || n >= 1<<20) {
		p.failf(InvalidEnvelope, off, "%s must be an integer from 0 to %d", what, 1<<20-1)
	}
	return n
}

// field is a member value captured for later reading, when the object's
// type member (which may come last) is known.
type field struct {
	off int    // offset of the value in p's data
	raw []byte // the value, a slice of the input
}

// fieldSet holds the members of an object captured by fields.
type fieldSet []namedField

type namedField struct {
	name string
	field
}

// get returns the member called name.
func (m fieldSet) get(name string) (field, bool) {
	for _, f := range m {
		if f.name == name {
			return f.field, true
		}
	}
	return field{}, false
}

// at returns the member called name, or the zero field.
func (m fieldSet) at(name string) field {
	f, _ := m.get(name)
	return f
}

// fields captures the members of the object at the reader's position that
// the caller reads (read, checked as by object), for union objects whose
// meaning depends on a type member; the others are validated and skipped.
// The members in argsOf are argument values, read with args.
func (p *parser) fields(what string, read []string, argsOf ...string) fieldSet {
	m := make(fieldSet, 0, len(read))
	p.object(what, read, func(name string) {
		if !slices.Contains(read, name) {
			p.r.Skip()
			return
		}
		p.r.Peek()
		f := namedField{name: name, field: field{off: p.r.Offset()}}
		if slices.Contains(argsOf, name) {
			f.raw = p.args()
		} else {
			f.raw = p.raw()
		}
		m = append(m, f)
	})
	return m
}

// sub reads a captured field with the same rules; its errors are p's, at
// their offset in p's input.
func (p *parser) sub(f field, read func(q *parser)) {
	if !p.ok() {
		return
	}
	q := p.spare
	if q == nil {
		q = new(parser)
	}
	p.spare = nil // a sub inside read on p itself takes another
	q.reset(p.dialect, f.raw, p.base+f.off)
	read(q)
	if err := q.finish(); err != nil {
		p.err = err
		p.r.Fail(f.off, jsonread.ErrStopped, "stopped")
	}
	p.spare = q
}

// fieldStr returns the string in field name of m, "" when absent; a
// non-string value is an error.
func (p *parser) fieldStr(m fieldSet, name, what string) string {
	var s string
	if f, ok := m.get(name); ok {
		p.sub(f, func(q *parser) { s = q.str(what + " " + name) })
	}
	return s
}

// fieldBytes is fieldStr for argument strings: the unescaped bytes, a
// slice of the input when there are no escapes.
func (p *parser) fieldBytes(m fieldSet, name, what string) (b []byte, present bool) {
	f, ok := m.get(name)
	if ok {
		p.sub(f, func(q *parser) { b = q.bytes(what + " " + name) })
	}
	return b, ok
}

// require records an error when member name is absent from m, and reports
// whether it is present.
func (p *parser) require(m fieldSet, name, what string, at int) bool {
	if _, ok := m.get(name); ok {
		return true
	}
	p.failf(InvalidEnvelope, at, "%s has no %q member", what, name)
	return false
}

// requireName records an error for a call whose name is present but
// empty: it names no tool, as an absent one does not.
func (p *parser) requireName(name, what string, at int) {
	if name == "" && p.ok() {
		p.failf(InvalidEnvelope, at, "%s has an empty name", what)
	}
}

// requireID is require for call IDs: a missing or empty ID is
// missing_call_id.
func (p *parser) requireID(id string, what string, at int) {
	if id == "" && p.ok() {
		p.failf(MissingCallID, at, "%s has no call ID; without one the result cannot be matched to the call and the replay guard cannot work", what)
	}
}

// stop classifies a provider's stop reason.
type stop uint8

const (
	stopOther     stop = iota // unknown, absent, filtered, paused: calls incomplete
	stopDone                  // finished normally: calls complete
	stopTruncated             // token limit: calls incomplete, Truncated set
)

// classify maps a dialect's stop reason to its class; see the package
// documentation for the table.
func classify(d gate.Dialect, reason string) stop {
	switch d {
	case gate.OpenAIChat:
		switch reason {
		case "stop", "tool_calls":
			return stopDone
		case "length":
			return stopTruncated
		}
	case gate.Anthropic:
		switch reason {
		case "end_turn", "tool_use", "stop_sequence":
			return stopDone
		case "max_tokens", "model_context_window_exceeded":
			return stopTruncated
		}
	case gate.Gemini:
		switch reason {
		case "STOP":
			return stopDone
		case "MAX_TOKENS":
			return stopTruncated
		}
	}
	return stopOther
}

// seal finishes a turn's calls: it sets Dialect and Complete on every call,
// turns an empty argument string of a complete call into {}, and rejects a
// call ID used twice. toolStop reports a stop reason that promises calls.
func seal(t *Turn, complete, toolStop bool) *Error {
	if toolStop && len(t.Calls) == 0 {
		return &Error{Code: MissingCalls, Dialect: t.Dialect, Offset: -1, Reason: fmt.Sprintf("stop reason %q says the model called tools, but the response holds no tool call", t.StopReason)}
	}
	seen := make(map[string]int, len(t.Calls))
	for i := range t.Calls {
		c := &t.Calls[i]
		c.Dialect = t.Dialect
		c.Complete = complete
		if complete && len(c.Args) == 0 {
			c.Args = []byte("{}")
		}
		if c.ID == "" {
			continue
		}
		if j, dup := seen[c.ID]; dup {
			return &Error{Code: toolerr.DuplicateCall, Dialect: t.Dialect, Offset: -1, Reason: fmt.Sprintf("call ID %q is used by calls %d and %d of one response", c.ID, j, i)}
		}
		seen[c.ID] = i
	}
	return nil
}

// Parse reads a whole response body (for MCP, a tools/call request) of the
// given dialect. It returns an error for gate.Plain or an unknown dialect.
func Parse(d gate.Dialect, body []byte) (Turn, error) {
	switch d {
	case gate.OpenAIChat:
		return ParseOpenAIChat(body)
	case gate.OpenAIResponses:
		return ParseOpenAIResponses(body)
	case gate.Anthropic:
		return ParseAnthropic(body)
	case gate.Gemini:
		return ParseGemini(body)
	case gate.MCP:
		return ParseMCP(body)
	}
	return Turn{}, &Error{Code: InvalidEnvelope, Dialect: d, Offset: -1, Reason: fmt.Sprintf("no adapter for dialect %q", d)}
}

// done converts a parse outcome to the (Turn, error) pair, never returning
// a typed nil error.
func done(t Turn, err *Error) (Turn, error) {
	if err != nil {
		return Turn{Dialect: t.Dialect}, err
	}
	return t, nil
}

// quote renders a provider-supplied value in a reason.
func quote(s string) string { return strconv.Quote(s) }
