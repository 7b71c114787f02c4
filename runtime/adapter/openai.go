package adapter

import (
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonread"
)

// The members the OpenAI adapters read, level by level (see object).
var (
	chatResponseMembers = []string{"choices", "error"}
	chatChoiceMembers   = []string{"message", "finish_reason"}
	chatMessageMembers  = []string{"content", "refusal", "tool_calls", "function_call"}
	chatToolCallMembers = []string{"type", "id", "function"}
	chatFunctionMembers = []string{"name", "arguments"}
	errorMembers        = []string{"message"}
	respResponseMembers = []string{"status", "incomplete_details", "output"}
	respDetailsMembers  = []string{"reason"}
	respItemMembers     = []string{"type", "id", "call_id", "name", "arguments", "status", "content"}
	respContentMembers  = []string{"type", "text", "refusal"}
)

// ParseOpenAIChat reads an OpenAI Chat Completions response body
// (object "chat.completion"): the tool calls of choices[0].message, its
// content and refusal, and the choice's finish_reason. A body with more
// than one choice is refused (request n=1: one turn per response), and so
// is one without choices.
//
// Arguments are the contents of each call's arguments string, unquoted
// once; they alias body when the string has no escapes.
func ParseOpenAIChat(body []byte) (Turn, error) {
	p := newParser(gate.OpenAIChat, body)
	t := Turn{Dialect: gate.OpenAIChat}
	hasChoices := false
	p.object("the response", chatResponseMembers, func(name string) {
		switch name {
		case "choices":
			hasChoices = true
			p.array("choices", func(i int) {
				if i > 0 {
					p.failf(InvalidEnvelope, p.r.Offset(), "the response has more than one choice; request n=1 (one turn per response)")
					return
				}
				p.chatChoice(&t)
			})
		case "error":
			p.providerError(name)
		default:
			p.r.Skip()
		}
	})
	p.r.Finish()
	if p.ok() && !hasChoices {
		p.failf(InvalidEnvelope, 0, "the response has no \"choices\" member")
	}
	if err := p.result(); err != nil {
		return done(t, err)
	}
	class := classify(gate.OpenAIChat, t.StopReason)
	t.Truncated = class == stopTruncated
	return done(t, seal(&t, class == stopDone, t.StopReason == "tool_calls"))
}

// chatChoice reads choices[0] of a whole response.
func (p *parser) chatChoice(t *Turn) {
	p.object("a choice", chatChoiceMembers, func(name string) {
		switch name {
		case "message":
			p.object("the message", chatMessageMembers, func(name string) {
				switch name {
				case "content":
					t.Text = p.optStr("content")
				case "refusal":
					t.Refusal = p.optStr("refusal")
				case "tool_calls":
					if p.nullable() {
						return
					}
					p.array("tool_calls", func(int) {
						p.chatToolCall(t)
					})
				case "function_call":
					p.legacyFunctionCall()
				default:
					p.r.Skip()
				}
			})
		case "finish_reason":
			t.StopReason = p.optStr("finish_reason")
		default:
			p.r.Skip()
		}
	})
}

// legacyFunctionCall refuses a non-null function_call member (the
// deprecated functions API): it is a call without an ID.
func (p *parser) legacyFunctionCall() {
	if p.nullable() {
		return
	}
	p.failf(UnknownType, p.r.Offset(), "function_call (the deprecated functions API) is not supported; send tools instead")
}

// chatToolCall reads one entry of message.tool_calls.
func (p *parser) chatToolCall(t *Turn) {
	at := p.r.Offset()
	m := p.fields("a tool call", chatToolCallMembers)
	typ := p.fieldStr(m, "type", "a tool call's")
	if !p.ok() || !p.require(m, "type", "a tool call", at) {
		return
	}
	if typ != "function" {
		p.failf(UnknownType, m.at("type").off, "tool call type %q is not supported; only function calls reach the gate", typ)
		return
	}
	c := gate.Call{ID: p.fieldStr(m, "id", "a tool call's")}
	p.requireID(c.ID, "a tool call", at)
	if !p.require(m, "function", "a function tool call", at) {
		return
	}
	f := m.at("function")
	p.sub(f, func(q *parser) {
		var hasName, hasArgs bool
		q.object("function", chatFunctionMembers, func(name string) {
			switch name {
			case "name":
				c.Name, hasName = q.str("function.name"), true
			case "arguments":
				c.Args, hasArgs = q.bytes("function.arguments"), true
			default:
				q.r.Skip()
			}
		})
		switch {
		case !q.ok():
		case !hasName:
			q.failf(InvalidEnvelope, 0, "function has no \"name\" member")
		case !hasArgs:
			q.failf(InvalidEnvelope, 0, "function has no \"arguments\" member")
		default:
			q.requireName(c.Name, "function", 0)
		}
	})
	t.Calls = append(t.Calls, c)
}

// providerError refuses a body that is an error report: a non-null member
// named name holding the provider's error.
func (p *parser) providerError(name string) {
	if p.nullable() {
		return
	}
	at := p.r.Offset()
	msg := ""
	if p.r.Peek() == jsonread.Object {
		m := p.fields(name, errorMembers)
		msg = p.fieldStr(m, "message", "the error's")
	} else {
		p.r.Skip()
	}
	if p.ok() {
		p.failf(ProviderError, at, "the provider reported an error: %q", msg)
	}
}

// responsesHosted are the Responses output item types that the provider
// runs itself (or that carry no call): they are skipped.
var responsesHosted = map[string]bool{
	"reasoning": true, "web_search_call": true, "file_search_call": true,
	"code_interpreter_call": true, "image_generation_call": true,
	"mcp_call": true, "mcp_list_tools": true,
}

// ParseOpenAIResponses reads an OpenAI Responses API response body (object
// "response"): the function_call items of output[], the text and refusal
// of message items, and the response's status. A body without output is
// refused: it would read as a turn without calls. The calls are complete
// only when the response status is "completed" and every function_call
// item's status is "completed" (an item without status takes the
// response's).
func ParseOpenAIResponses(body []byte) (Turn, error) {
	p := newParser(gate.OpenAIResponses, body)
	b := build{Turn: Turn{Dialect: gate.OpenAIResponses}}
	itemsDone, hasOutput := true, false
	var incomplete string
	p.object("the response", respResponseMembers, func(name string) {
		switch name {
		case "status":
			b.StopReason = p.optStr("status")
		case "incomplete_details":
			incomplete = p.incompleteReason()
		case "output":
			hasOutput = true
			p.array("output", func(int) {
				if status, call := p.responsesItem(&b); call && status != "completed" && status != "" {
					itemsDone = false
				}
			})
		default:
			p.r.Skip()
		}
	})
	p.r.Finish()
	if p.ok() && !hasOutput {
		p.failf(InvalidEnvelope, 0, "the response has no \"output\" member")
	}
	t := b.turn()
	if err := p.result(); err != nil {
		return done(t, err)
	}
	t.Truncated = t.StopReason == "incomplete" && incomplete == "max_output_tokens"
	return done(t, seal(&t, itemsDone && t.StopReason == "completed", false))
}

// incompleteReason reads incomplete_details (object or null) and returns
// its reason.
func (p *parser) incompleteReason() string {
	reason := ""
	if p.nullable() {
		return reason
	}
	p.object("incomplete_details", respDetailsMembers, func(name string) {
		if name == "reason" {
			reason = p.optStr("incomplete_details.reason")
			return
		}
		p.r.Skip()
	})
	return reason
}

// responsesItem reads one output item. A function_call is appended to
// b.Calls and reported with its status ("" when absent); message text and
// refusals are appended to b.
func (p *parser) responsesItem(b *build) (status string, call bool) {
	at := p.r.Offset()
	return p.responsesItemOf(b, p.fields("an output item", respItemMembers), at)
}

// responsesItemOf is responsesItem for an item whose members m were
// captured at offset at.
func (p *parser) responsesItemOf(b *build, m fieldSet, at int) (status string, call bool) {
	typ := p.fieldStr(m, "type", "an output item's")
	if !p.ok() || !p.require(m, "type", "an output item", at) {
		return "", false
	}
	switch {
	case typ == "function_call":
		c := gate.Call{ID: p.fieldStr(m, "call_id", "a function_call's"), Name: p.fieldStr(m, "name", "a function_call's")}
		var hasArgs bool
		c.Args, hasArgs = p.fieldBytes(m, "arguments", "a function_call's")
		status = p.fieldStr(m, "status", "a function_call's")
		if p.require(m, "name", "a function_call", at) {
			p.requireName(c.Name, "a function_call", at)
		}
		if !hasArgs {
			p.require(m, "arguments", "a function_call", at)
		}
		p.requireID(c.ID, "a function_call", at)
		b.Calls = append(b.Calls, c)
		return status, true
	case typ == "message":
		if f, ok := m.get("content"); ok {
			p.sub(f, func(q *parser) {
				q.array("message content", func(int) { q.responsesContent(b) })
			})
		}
	case !responsesHosted[typ]:
		p.failf(UnknownType, m.at("type").off, "output item type %q is not supported: it is not a function_call the gate can run", typ)
	}
	return "", false
}

// responsesContent reads one content part of a message item.
func (p *parser) responsesContent(b *build) {
	at := p.r.Offset()
	m := p.fields("a content part", respContentMembers)
	typ := p.fieldStr(m, "type", "a content part's")
	if !p.ok() || !p.require(m, "type", "a content part", at) {
		return
	}
	switch typ {
	case "output_text":
		text, _ := p.fieldBytes(m, "text", "an output_text part's")
		b.text = append(b.text, text...)
	case "refusal":
		refusal, _ := p.fieldBytes(m, "refusal", "a refusal part's")
		b.refusal = append(b.refusal, refusal...)
	default:
		p.failf(UnknownType, m.at("type").off, "message content type %q is not known", typ)
	}
}
