package adapter

import (
	"github.com/toolgate/toolgate/runtime/gate"
)

// respEventMembers are the members of the events the Responses assembler
// reads (see object).
var respEventMembers = []string{"type", "item", "output_index", "item_id", "delta", "arguments", "response", "message"}

// OpenAIResponsesStream assembles a streamed Responses API turn from its
// events. A function call starts with response.output_item.added (its item
// id, call_id, name and output_index), grows by
// response.function_call_arguments.delta events keyed by item_id, and is
// closed by response.output_item.done; the arguments of
// response.function_call_arguments.done and of the done item, and the
// done item's call_id and name, must equal what was assembled (a .done
// that follows no delta, for an item added with empty arguments, carries
// the arguments). Calls are
// reported in output_index order. The turn ends with response.completed,
// response.incomplete or response.failed, whose response lists the output
// items again: when it lists any, its function calls must be the assembled
// ones (call IDs, names, and the arguments of every closed call), else the
// stream is invalid_stream. The calls are complete only when
// the final status is "completed" and every call's done item has status
// "completed". An error event is a provider_error. Other event types are
// ignored (the provider adds event types; a call cannot start without
// output_item.added). The zero value is ready to use.
type OpenAIResponsesStream struct {
	s          streamState
	byItem     map[string]*pending
	incomplete string // incomplete_details.reason of the final response
}

// Push feeds the payload of one event.
func (st *OpenAIResponsesStream) Push(event []byte) error {
	s := &st.s
	return s.push(gate.OpenAIResponses, event, func(p *parser) {
		if s.ended {
			p.failf(InvalidStream, 0, "an event after the end of the stream")
			return
		}
		m := p.fields("the event", respEventMembers)
		typ := p.fieldStr(m, "type", "the event's")
		if !p.ok() || !p.require(m, "type", "the event", 0) {
			return
		}
		switch typ {
		case "response.output_item.added":
			st.added(p, m)
		case "response.function_call_arguments.delta":
			if c := st.item(p, m); c != nil {
				frag, _ := p.fieldBytes(m, "delta", "the event's")
				c.streamed = true
				s.growArgs(p, m.at("delta").off, c, frag)
			}
		case "response.function_call_arguments.done":
			if c := st.item(p, m); c != nil && p.require(m, "arguments", "the event", 0) {
				args, _ := p.fieldBytes(m, "arguments", "the event's")
				st.doneArgs(p, m.at("arguments").off, c, args)
			}
		case "response.output_item.done":
			st.itemDone(p, m)
		case "response.output_text.delta":
			text, _ := p.fieldBytes(m, "delta", "the event's")
			s.growText(p, m.at("delta").off, &s.text, text)
		case "response.refusal.delta":
			text, _ := p.fieldBytes(m, "delta", "the event's")
			s.growText(p, m.at("delta").off, &s.refusal, text)
		case "response.completed", "response.incomplete", "response.failed":
			if p.require(m, "response", "the event", 0) {
				var final build
				listed := false
				p.sub(m.at("response"), func(q *parser) {
					q.object("the response", respResponseMembers, func(name string) {
						switch name {
						case "status":
							s.stop = q.optStr("status")
						case "incomplete_details":
							st.incomplete = q.incompleteReason()
						case "output":
							q.array("output", func(int) {
								listed = true
								q.responsesItem(&final)
							})
						default:
							q.r.Skip()
						}
					})
				})
				if listed {
					st.sameCalls(p, m.at("response").off, final.Calls)
				}
				s.ended = true
			}
		case "error":
			p.failf(ProviderError, 0, "the provider reported an error: %q", p.fieldStr(m, "message", "the error's"))
		}
	})
}

// added registers the item of response.output_item.added.
func (st *OpenAIResponsesStream) added(p *parser, m fieldSet) {
	s := &st.s
	if !p.require(m, "item", "the event", 0) || !p.require(m, "output_index", "the event", 0) {
		return
	}
	var k int
	p.sub(m.at("output_index"), func(q *parser) { k = q.index("output_index") })
	var t build
	var id string
	p.sub(m.at("item"), func(q *parser) {
		// The item is read as in a whole response, then its item id.
		at := q.r.Offset()
		im := q.fields("the item", respItemMembers)
		q.responsesItemOf(&t, im, at)
		id = q.fieldStr(im, "id", "the item's")
	})
	if !p.ok() || len(t.Calls) == 0 {
		return
	}
	if id == "" {
		p.failf(InvalidEnvelope, m.at("item").off, "a function_call item has no id; its deltas could not be matched")
		return
	}
	if st.byItem[id] != nil || s.call(k) != nil {
		p.failf(InvalidStream, m.at("item").off, "item %s or output_index %d was already added", quote(id), k)
		return
	}
	if st.byItem == nil {
		st.byItem = make(map[string]*pending)
	}
	c := s.add(p, m.at("item").off, k)
	if c == nil {
		return
	}
	c.id, c.name = t.Calls[0].ID, t.Calls[0].Name
	s.growArgs(p, m.at("item").off, c, t.Calls[0].Args)
	st.byItem[id] = c
}

// item returns the open call named by the event's item_id. An unknown or
// closed item is invalid_stream.
func (st *OpenAIResponsesStream) item(p *parser, m fieldSet) *pending {
	if !p.require(m, "item_id", "the event", 0) {
		return nil
	}
	id := p.fieldStr(m, "item_id", "the event's")
	c := st.byItem[id]
	switch {
	case !p.ok():
		return nil
	case c == nil:
		p.failf(InvalidStream, m.at("item_id").off, "item %s was never added as a function_call", quote(id))
		return nil
	case c.closed:
		p.failf(InvalidStream, m.at("item_id").off, "item %s is already done", quote(id))
		return nil
	}
	return c
}

// itemDone closes the call of response.output_item.done, checking the done
// item against what was assembled.
func (st *OpenAIResponsesStream) itemDone(p *parser, m fieldSet) {
	if !p.require(m, "item", "the event", 0) {
		return
	}
	var t build
	var id, status string
	p.sub(m.at("item"), func(q *parser) {
		at := q.r.Offset()
		im := q.fields("the item", respItemMembers)
		status, _ = q.responsesItemOf(&t, im, at)
		id = q.fieldStr(im, "id", "the item's")
	})
	if !p.ok() || len(t.Calls) == 0 {
		return
	}
	c := st.byItem[id]
	switch {
	case c == nil:
		p.failf(InvalidStream, m.at("item").off, "item %s was never added as a function_call", quote(id))
		return
	case c.closed:
		p.failf(InvalidStream, m.at("item").off, "item %s is already done", quote(id))
		return
	}
	at := m.at("item").off
	st.same(p, at, "call_id", t.Calls[0].ID, c.id)
	st.same(p, at, "name", t.Calls[0].Name, c.name)
	st.doneArgs(p, at, c, t.Calls[0].Args)
	c.closed, c.status = true, status
}

// doneArgs applies the arguments of a .done event (arguments.done or
// output_item.done) to call c: after deltas they must equal what was
// assembled; when no delta came (and the added item had none), the done
// event carries the arguments.
func (st *OpenAIResponsesStream) doneArgs(p *parser, at int, c *pending, args []byte) {
	if !c.streamed && len(c.args) == 0 {
		st.s.growArgs(p, at, c, args)
	} else {
		st.same(p, at, "arguments", string(args), string(c.args))
	}
	c.streamed = true
}

// sameCalls checks the function calls the final response lists against the
// calls the stream assembled: the same call IDs in the same order, the same
// names, and the same arguments for every call the stream closed. A final
// output that contradicts the stream is invalid_stream, whichever is right.
func (st *OpenAIResponsesStream) sameCalls(p *parser, at int, final []gate.Call) {
	if !p.ok() {
		return
	}
	calls := st.s.ordered()
	if len(final) != len(calls) {
		p.failf(InvalidStream, at, "the final response lists %d function calls; the stream assembled %d", len(final), len(calls))
		return
	}
	byID := make(map[string]gate.Call, len(final))
	for _, f := range final {
		byID[f.ID] = f
	}
	for _, c := range calls {
		f, ok := byID[c.id]
		switch {
		case !ok:
			p.failf(InvalidStream, at, "the final response does not list the streamed call %s", quote(c.id))
		case f.Name != c.name:
			p.failf(InvalidStream, at, "the final response names call %s %s; the stream named it %s", quote(c.id), quote(f.Name), quote(c.name))
		case c.closed && string(f.Args) != string(c.args):
			p.failf(InvalidStream, at, "the final response's arguments of call %s differ from the streamed ones", quote(c.id))
		default:
			continue
		}
		return
	}
}

// same reports a done event that contradicts the deltas.
func (st *OpenAIResponsesStream) same(p *parser, at int, what, done, assembled string) {
	if p.ok() && done != assembled {
		p.failf(InvalidStream, at, "the done event's %s differ from what the stream assembled", what)
	}
}

// Turn returns the turn assembled so far.
func (st *OpenAIResponsesStream) Turn() (Turn, error) {
	complete := st.s.stop == "completed"
	for _, c := range st.s.calls {
		complete = complete && c.status == "completed"
	}
	truncated := st.s.stop == "incomplete" && st.incomplete == "max_output_tokens"
	return st.s.turn(gate.OpenAIResponses, complete, truncated, false)
}
