package adapter

import (
	"bytes"

	"github.com/toolgate/toolgate/runtime/gate"
)

// The members of a chunk the Chat assembler reads beyond a whole
// response's (see object).
var (
	chatChunkChoiceMembers = []string{"index", "delta", "finish_reason"}
	chatDeltaCallMembers   = []string{"index", "type", "id", "function"}
)

// OpenAIChatStream assembles a streamed Chat Completions turn from its
// chunks (object "chat.completion.chunk"). Tool call deltas are keyed by
// tool_calls[].index, never by arrival order: fragments of parallel calls
// may interleave, and an index below one already seen is allowed (calls are
// reported in index order). The id, type and name of a call may arrive in
// any of its deltas, once; a repeat must be equal. The calls are complete
// when the choice's finish_reason arrives and is "tool_calls" or "stop".
// A "[DONE]" payload is accepted and means nothing more. The zero value is
// ready to use.
type OpenAIChatStream struct{ s streamState }

// Push feeds the payload of one event.
func (st *OpenAIChatStream) Push(event []byte) error {
	s := &st.s
	if s.err == nil && bytes.Equal(bytes.TrimSpace(event), []byte("[DONE]")) {
		return nil
	}
	return s.push(gate.OpenAIChat, event, func(p *parser) {
		p.object("the chunk", chatResponseMembers, func(name string) {
			switch name {
			case "choices":
				p.array("choices", func(int) { st.choice(p) })
			case "error":
				p.providerError(name)
			default:
				p.r.Skip()
			}
		})
	})
}

// choice reads one choice of a chunk. Its finish_reason is applied after
// its delta, wherever it is written in the object.
func (st *OpenAIChatStream) choice(p *parser) {
	s := &st.s
	at := p.r.Offset()
	if s.stop != "" {
		p.failf(InvalidStream, at, "a choice after finish_reason %s", quote(s.stop))
		return
	}
	finish := ""
	p.object("a choice", chatChunkChoiceMembers, func(name string) {
		switch name {
		case "index":
			if off := p.r.Offset(); p.index("choice index") != 0 {
				p.failf(InvalidEnvelope, off, "choice index is not 0; request n=1 (one turn per response)")
			}
		case "delta":
			p.object("the delta", chatMessageMembers, func(name string) {
				switch name {
				case "content":
					at := p.r.Offset()
					s.growText(p, at, &s.text, p.optBytes("content"))
				case "refusal":
					at := p.r.Offset()
					s.growText(p, at, &s.refusal, p.optBytes("refusal"))
				case "tool_calls":
					if !p.nullable() {
						p.array("tool_calls", func(int) { st.toolCall(p) })
					}
				case "function_call":
					p.legacyFunctionCall()
				default:
					p.r.Skip()
				}
			})
		case "finish_reason":
			finish = p.optStr("finish_reason")
		default:
			p.r.Skip()
		}
	})
	if finish != "" && p.ok() {
		s.stop, s.ended = finish, true
		for _, c := range s.calls {
			c.closed = true
		}
	}
}

// toolCall applies one tool call delta.
func (st *OpenAIChatStream) toolCall(p *parser) {
	s := &st.s
	at := p.r.Offset()
	m := p.fields("a tool call delta", chatDeltaCallMembers)
	if !p.ok() || !p.require(m, "index", "a tool call delta", at) {
		return
	}
	var k int
	p.sub(m.at("index"), func(q *parser) { k = q.index("tool_calls[].index") })
	if typ := p.fieldStr(m, "type", "a tool call delta's"); typ != "" && typ != "function" {
		p.failf(UnknownType, m.at("type").off, "tool call type %q is not supported; only function calls reach the gate", typ)
	}
	id := p.fieldStr(m, "id", "a tool call delta's")
	var name string
	var frag []byte
	if f, ok := m.get("function"); ok {
		p.sub(f, func(q *parser) {
			q.object("function", chatFunctionMembers, func(n string) {
				switch n {
				case "name":
					name = q.optStr("function.name")
				case "arguments":
					if !q.nullable() {
						frag = q.bytes("function.arguments")
					}
				default:
					q.r.Skip()
				}
			})
		})
	}
	if !p.ok() {
		return
	}
	c := s.call(k)
	if c == nil {
		if c = s.add(p, at, k); c == nil {
			return
		}
	}
	setOnce(p, at, &c.id, id, "ID")
	setOnce(p, at, &c.name, name, "name")
	s.growArgs(p, at, c, frag)
}

// Turn returns the turn assembled so far.
func (st *OpenAIChatStream) Turn() (Turn, error) {
	class := classify(gate.OpenAIChat, st.s.stop)
	return st.s.turn(gate.OpenAIChat, class == stopDone, class == stopTruncated, st.s.stop == "tool_calls")
}
