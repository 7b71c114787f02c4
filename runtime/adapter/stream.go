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
	key    int // provider index: tool_calls[].index, output_index, content block index
	id     string
	name   string
	args   []byte // a copy: events are not retained
	closed bool   // the provider marked the call itself complete
	status string
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

// streamState is what every assembler keeps.
type streamState struct {
	calls   []*pending // in order of key
	text    []byte
	refusal []byte
	stop    string
	ended   bool // the provider's end of turn was seen
	err     *Error
}

// call returns the pending call with key k, or nil.
func (s *streamState) call(k int) *pending {
	i, ok := slices.BinarySearchFunc(s.calls, k, func(c *pending, k int) int { return cmp.Compare(c.key, k) })
	if !ok {
		return nil
	}
	return s.calls[i]
}

// add inserts a new pending call with key k, keeping key order: a key below
// one already seen is allowed (parallel calls may start in any order).
func (s *streamState) add(k int) *pending {
	c := &pending{key: k}
	i, _ := slices.BinarySearchFunc(s.calls, k, func(c *pending, k int) int { return cmp.Compare(c.key, k) })
	s.calls = slices.Insert(s.calls, i, c)
	return c
}

// push runs read on one event and makes its error sticky.
func (s *streamState) push(d gate.Dialect, event []byte, read func(p *parser)) error {
	if s.err != nil {
		return s.err
	}
	p := newParser(d, event)
	read(p)
	if err := p.finish(); err != nil {
		s.err = err
		return err
	}
	return nil
}

// turn builds the turn. complete is the dialect's verdict on the turn's
// end; a call not closed by the provider makes the whole turn incomplete.
// After the end, a call without ID or name is an error.
func (s *streamState) turn(d gate.Dialect, complete, truncated, toolStop bool) (Turn, error) {
	if s.err != nil {
		return Turn{Dialect: d}, s.err
	}
	t := Turn{Dialect: d, Text: string(s.text), Refusal: string(s.refusal), StopReason: s.stop, Truncated: truncated}
	for _, c := range s.calls {
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
