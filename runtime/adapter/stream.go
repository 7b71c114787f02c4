package adapter

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/toolgate/toolgate/runtime/gate"
)

// Stream assembles the tool calls of one streamed model turn from the
// JSON payloads of its server-sent events (the data: contents, in order, as
// the SDKs deliver them), buffering every call until the provider marks it
// complete.
//
// Push feeds one event. Errors are sticky: after Push returns an error,
// every later Push and Turn return it too, and nothing of the turn may run.
// Turn may be called at any time; before the stream's end every call is
// incomplete (Complete false), so the gate refuses it with incomplete_call.
type Stream interface {
	Push(event []byte) error
	Turn() (Turn, error)
}

// NewStream returns the assembler for dialect d: OpenAI Chat, OpenAI
// Responses or Anthropic. Gemini streams whole calls in each chunk and MCP
// does not stream calls, so they have none.
func NewStream(d gate.Dialect) (Stream, error) {
	switch d {
	case gate.OpenAIChat:
		return new(OpenAIChatStream), nil
	case gate.OpenAIResponses:
		return new(OpenAIResponsesStream), nil
	case gate.Anthropic:
		return new(AnthropicStream), nil
	}
	return nil, &Error{Code: InvalidEnvelope, Dialect: d, Offset: -1, Reason: "no stream assembler for dialect " + quote(string(d))}
}

// pending is a streamed call being assembled.
type pending struct {
	key      int // provider index: tool_calls[].index, output_index, content block index
	id       string
	name     string
	args     []byte // a copy: events are not retained
	streamed bool   // argument deltas (or a .done event) arrived
	closed   bool   // the provider marked the call itself complete
	status   string
}

// setOnce sets *dst to v. A call's ID and name arrive once; a repeat must
// say the same, or the event would swap the call under the gate.
func setOnce(p *parser, at int, dst *string, v, what string) {
	switch {
	case v == "" || *dst == v:
	case *dst == "":
		*dst = v
	default:
		p.failf(InvalidStream, at, "the call's %s changes from %s to %s", what, quote(*dst), quote(v))
	}
}

// streamState is what every assembler keeps. Everything it buffers is
// capped (MaxCallBytes, MaxStreamCalls, MaxStreamBytes): past a cap the
// stream fails with limit_exceeded and buffers nothing more.
type streamState struct {
	calls   []*pending // in arrival order; sorted by key when sorted is set
	sorted  bool
	byKey   map[int]*pending
	text    []byte
	refusal []byte
	size    int     // bytes buffered: arguments, text and refusal
	p       *parser // reused for every event, with its buffers
	stop    string
	ended   bool // the provider's end of turn was seen
	err     *Error
}

// call returns the pending call with key k, or nil.
func (s *streamState) call(k int) *pending { return s.byKey[k] }

// add registers a new pending call with key k, or fails with
// limit_exceeded at offset at past MaxStreamCalls. A key below one already
// seen is allowed (parallel calls may start in any order): the calls are
// sorted by key when the turn is built, so any order costs the same.
func (s *streamState) add(p *parser, at, k int) *pending {
	if len(s.calls) >= MaxStreamCalls {
		p.failf(LimitExceeded, at, "the stream has more than %d calls", MaxStreamCalls)
		return nil
	}
	if s.byKey == nil {
		s.byKey = make(map[int]*pending)
		s.sorted = true
	}
	c := &pending{key: k}
	if n := len(s.calls); n > 0 && s.calls[n-1].key > k {
		s.sorted = false
	}
	s.calls = append(s.calls, c)
	s.byKey[k] = c
	return c
}

// ordered returns the calls in key order.
func (s *streamState) ordered() []*pending {
	if !s.sorted {
		slices.SortFunc(s.calls, func(a, b *pending) int { return cmp.Compare(a.key, b.key) })
		s.sorted = true
	}
	return s.calls
}

// growArgs appends an argument fragment to call c, or fails with
// limit_exceeded at offset at and appends nothing: past the cap of one
// call's arguments (MaxCallBytes) or of the whole stream (MaxStreamBytes).
func (s *streamState) growArgs(p *parser, at int, c *pending, frag []byte) {
	if p.ok() && len(c.args)+len(frag) > MaxCallBytes {
		p.failf(LimitExceeded, at, "the call's arguments pass %d bytes", MaxCallBytes)
		return
	}
	s.growText(p, at, &c.args, frag)
}

// growText appends frag to *dst (the stream's text or refusal, or a call's
// arguments), or fails with limit_exceeded at offset at and appends
// nothing past MaxStreamBytes.
func (s *streamState) growText(p *parser, at int, dst *[]byte, frag []byte) {
	if s.charge(p, at, len(frag)) {
		*dst = append(*dst, frag...)
	}
}

// charge counts n bytes against MaxStreamBytes and reports whether they
// fit; past the cap it fails with limit_exceeded at offset at.
func (s *streamState) charge(p *parser, at, n int) bool {
	switch {
	case !p.ok():
		return false
	case s.size+n > MaxStreamBytes:
		p.failf(LimitExceeded, at, "the stream buffers more than %d bytes", MaxStreamBytes)
		return false
	}
	s.size += n
	return true
}

// push runs read on one event and makes its error sticky.
func (s *streamState) push(d gate.Dialect, event []byte, read func(p *parser)) error {
	if s.err != nil {
		return s.err
	}
	if s.p == nil {
		s.p = new(parser)
	}
	p := s.p
	p.reset(d, event, 0)
	read(p)
	err := p.finish()
	s.release(len(event))
	if err != nil {
		s.err = err
		return err
	}
	return nil
}

// release lets go of the event just read: the parsers keep no reference
// to it, and after a large event (its escapes may have grown the readers'
// scratch buffers to its size) the parsers themselves go.
func (s *streamState) release(n int) {
	if n > 64<<10 {
		s.p = nil
		return
	}
	for q := s.p; q != nil; q = q.spare {
		q.r.Reset(nil, limits)
	}
}

// turn builds the turn. complete is the dialect's verdict on the turn's
// end; a call not closed by the provider makes the whole turn incomplete.
// After the end, a call without ID or name is an error.
func (s *streamState) turn(d gate.Dialect, complete, truncated, toolStop bool) (Turn, error) {
	if s.err != nil {
		return Turn{Dialect: d}, s.err
	}
	t := Turn{Dialect: d, Text: string(s.text), Refusal: string(s.refusal), StopReason: s.stop, Truncated: truncated}
	t.Calls = make([]gate.Call, 0, len(s.calls))
	for _, c := range s.ordered() {
		complete = complete && c.closed
		t.Calls = append(t.Calls, gate.Call{ID: c.id, Name: c.name, Args: slices.Clip(c.args)})
	}
	if s.ended {
		for i, c := range s.calls {
			switch {
			case c.id == "":
				return done(t, &Error{Code: MissingCallID, Dialect: d, Offset: -1, Reason: "streamed call " + strconv.Itoa(i) + " ended without a call ID"})
			case c.name == "":
				return done(t, &Error{Code: InvalidEnvelope, Dialect: d, Offset: -1, Reason: "streamed call " + strconv.Itoa(i) + " ended without a name"})
			}
		}
	} else {
		toolStop = false
	}
	return done(t, seal(&t, s.ended && complete, toolStop))
}
