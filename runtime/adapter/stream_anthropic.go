package adapter

import (
	"github.com/toolgate/toolgate/runtime/gate"
)

// The members of the events the Anthropic assembler reads (see object).
var (
	anthropicEventMembers   = []string{"type", "error", "message", "index", "content_block", "delta"}
	anthropicMessageMembers = []string{"content"}
	anthropicStopMembers    = []string{"stop_reason"}
	anthropicDeltaMembers   = []string{"type", "partial_json", "text"}
)

// AnthropicStream assembles a streamed Messages turn from its events:
// message_start, then per content block content_block_start,
// content_block_delta and content_block_stop (keyed by index), then
// message_delta (the stop_reason) and message_stop.
//
// A tool_use block's input in content_block_start is a placeholder and must
// be the empty object {}; the arguments are the concatenated partial_json
// of its input_json_delta events, and a block whose deltas are all empty
// (a tool without parameters) has the arguments {}. A content block index
// may be started once; indexes need not arrive in order, and calls are
// reported in index order. The calls are complete when message_stop has
// arrived, every tool_use block was stopped, and the stop_reason is
// tool_use, end_turn or stop_sequence. An error event is a provider_error;
// ping and unknown event types are ignored, as Anthropic's versioning policy
// asks. The zero value is ready to use.
type AnthropicStream struct {
	s       streamState
	started bool
	blocks  map[int]*block
}

// blockCost is what a content block's bookkeeping counts against
// MaxStreamBytes, so that a stream of empty blocks is bounded too.
const blockCost = 64

// block is a content block of the stream.
type block struct {
	typ  string
	open bool
	call *pending // for tool_use blocks
}

// Push feeds the payload of one event.
func (st *AnthropicStream) Push(event []byte) error {
	s := &st.s
	return s.push(gate.Anthropic, event, func(p *parser) {
		m := p.fields("the event", anthropicEventMembers)
		typ := p.fieldStr(m, "type", "the event's")
		if !p.ok() || !p.require(m, "type", "the event", 0) {
			return
		}
		switch typ {
		case "ping":
			return
		case "error":
			msg := ""
			if f, ok := m.get("error"); ok {
				p.sub(f, func(q *parser) { msg = q.fieldStr(q.fields("the error", errorMembers), "message", "the error's") })
			}
			p.failf(ProviderError, 0, "the provider reported an error: %q", msg)
			return
		}
		switch {
		case s.ended:
			p.failf(InvalidStream, 0, "event %s after message_stop", quote(typ))
		case typ == "message_start":
			st.messageStart(p, m)
		case !st.started && isMessageEvent(typ):
			p.failf(InvalidStream, 0, "event %s before message_start", quote(typ))
		case typ == "content_block_start":
			st.blockStart(p, m)
		case typ == "content_block_delta":
			st.blockDelta(p, m)
		case typ == "content_block_stop":
			if b := st.openBlock(p, m); b != nil {
				b.open = false
				if b.call != nil {
					b.call.closed = true
				}
			}
		case typ == "message_delta":
			if p.require(m, "delta", "message_delta", 0) {
				p.sub(m.at("delta"), func(q *parser) {
					q.object("the delta", anthropicStopMembers, func(name string) {
						if name == "stop_reason" {
							if r := q.optStr("delta.stop_reason"); r != "" {
								s.stop = r
							}
							return
						}
						q.r.Skip()
					})
				})
			}
		case typ == "message_stop":
			s.ended = true
		}
	})
}

// isMessageEvent reports the event types that belong inside a message.
func isMessageEvent(typ string) bool {
	switch typ {
	case "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop":
		return true
	}
	return false
}

// messageStart checks message_start: once, with an empty content array
// (content arrives in content blocks).
func (st *AnthropicStream) messageStart(p *parser, m fieldSet) {
	if st.started {
		p.failf(InvalidStream, 0, "a second message_start")
		return
	}
	st.started = true
	if !p.require(m, "message", "message_start", 0) {
		return
	}
	p.sub(m.at("message"), func(q *parser) {
		q.object("the message", anthropicMessageMembers, func(name string) {
			if name != "content" {
				q.r.Skip()
				return
			}
			q.array("message.content", func(int) {
				q.failf(InvalidStream, q.r.Offset(), "message_start carries content; content must arrive in content blocks")
			})
		})
	})
}

// blockIndex reads the event's index.
func blockIndex(p *parser, m fieldSet, event string) (int, bool) {
	if !p.require(m, "index", event, 0) {
		return 0, false
	}
	var k int
	p.sub(m.at("index"), func(q *parser) { k = q.index("index") })
	return k, p.ok()
}

// blockStart registers a content block.
func (st *AnthropicStream) blockStart(p *parser, m fieldSet) {
	k, ok := blockIndex(p, m, "content_block_start")
	if !ok || !p.require(m, "content_block", "content_block_start", 0) {
		return
	}
	if st.blocks[k] != nil {
		p.failf(InvalidStream, m.at("index").off, "content block %d was already started", k)
		return
	}
	if !st.s.charge(p, m.at("index").off, blockCost) {
		return
	}
	b := &block{open: true}
	var t build
	p.sub(m.at("content_block"), func(q *parser) {
		at := q.r.Offset()
		bm := q.fields("the content block", anthropicBlockMembers, "input")
		b.typ = q.fieldStr(bm, "type", "the content block's")
		if !q.ok() || !q.require(bm, "type", "the content block", at) {
			return
		}
		if b.typ == "tool_use" && q.require(bm, "input", "a tool_use block", at) {
			q.sub(bm.at("input"), func(r *parser) {
				r.object("the input placeholder", nil, func(string) {
					r.failf(InvalidStream, 0, "a tool_use block's input in content_block_start must be the empty placeholder {}")
				})
			})
		}
		q.anthropicBlockOf(&t, bm, at)
	})
	if !p.ok() {
		return
	}
	if st.blocks == nil {
		st.blocks = make(map[int]*block)
	}
	st.blocks[k] = b
	switch b.typ {
	case "tool_use":
		if b.call = st.s.add(p, m.at("index").off, k); b.call != nil {
			b.call.id, b.call.name = t.Calls[0].ID, t.Calls[0].Name
		}
	case "text":
		st.s.growText(p, m.at("content_block").off, &st.s.text, t.text)
	}
}

// openBlock returns the open block named by the event's index.
func (st *AnthropicStream) openBlock(p *parser, m fieldSet) *block {
	k, ok := blockIndex(p, m, "the event")
	if !ok {
		return nil
	}
	b := st.blocks[k]
	switch {
	case b == nil:
		p.failf(InvalidStream, m.at("index").off, "content block %d was never started", k)
	case !b.open:
		p.failf(InvalidStream, m.at("index").off, "content block %d is already stopped", k)
	default:
		return b
	}
	return nil
}

// blockDelta applies a content_block_delta.
func (st *AnthropicStream) blockDelta(p *parser, m fieldSet) {
	b := st.openBlock(p, m)
	if b == nil || !p.require(m, "delta", "content_block_delta", 0) {
		return
	}
	p.sub(m.at("delta"), func(q *parser) {
		dm := q.fields("the delta", anthropicDeltaMembers)
		typ := q.fieldStr(dm, "type", "the delta's")
		if !q.ok() || !q.require(dm, "type", "the delta", 0) {
			return
		}
		switch {
		case b.call != nil && typ == "input_json_delta":
			if q.require(dm, "partial_json", "an input_json_delta", 0) {
				frag, _ := q.fieldBytes(dm, "partial_json", "an input_json_delta's")
				st.s.growArgs(q, dm.at("partial_json").off, b.call, frag)
			}
		case b.call != nil:
			q.failf(UnknownType, dm.at("type").off, "delta type %q on a tool_use block is not known", typ)
		case b.typ == "text" && typ == "text_delta":
			text, _ := q.fieldBytes(dm, "text", "a text_delta's")
			st.s.growText(q, dm.at("text").off, &st.s.text, text)
		}
	})
}

// Turn returns the turn assembled so far.
func (st *AnthropicStream) Turn() (Turn, error) {
	class := classify(gate.Anthropic, st.s.stop)
	return st.s.turn(gate.Anthropic, class == stopDone, class == stopTruncated, st.s.stop == "tool_use")
}
