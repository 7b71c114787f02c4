package adapter

import (
	"github.com/toolgate/toolgate/runtime/gate"
)

// anthropicSkipped are the Anthropic content block types that carry no
// call for the gate: reasoning, and the server tools that Anthropic runs
// itself. They are skipped; any other type but text and tool_use is
// unknown_type.
var anthropicSkipped = map[string]bool{
	"thinking": true, "redacted_thinking": true,
	"server_tool_use": true, "web_search_tool_result": true, "web_fetch_tool_result": true,
	"code_execution_tool_result": true, "bash_code_execution_tool_result": true,
	"text_editor_code_execution_tool_result": true, "mcp_tool_use": true, "mcp_tool_result": true,
	"container_upload": true,
}

// The members the Anthropic adapter reads, level by level (see object).
var (
	anthropicResponseMembers = []string{"type", "content", "stop_reason", "error"}
	anthropicBlockMembers    = []string{"type", "id", "name", "input", "text"}
)

// ParseAnthropic reads an Anthropic Messages response body (type
// "message"): the tool_use blocks of content[], the text blocks, and
// stop_reason. Each call's arguments are the raw bytes of its input value,
// a slice of body. A body of type "error" is a provider_error; a message
// without content is refused.
func ParseAnthropic(body []byte) (Turn, error) {
	p := newParser(gate.Anthropic, body)
	b := build{Turn: Turn{Dialect: gate.Anthropic}}
	typ := ""
	hasContent := false
	p.object("the response", anthropicResponseMembers, func(name string) {
		switch name {
		case "type":
			typ = p.str("type")
		case "content":
			hasContent = true
			p.array("content", func(int) { p.anthropicBlock(&b) })
		case "stop_reason":
			b.StopReason = p.optStr("stop_reason")
		case "error":
			p.providerError(name)
		default:
			p.r.Skip()
		}
	})
	t := b.turn()
	if err := p.finish(); err != nil {
		return done(t, err)
	}
	switch {
	case typ != "message":
		return done(t, &Error{Code: InvalidEnvelope, Dialect: t.Dialect, Offset: 0, Reason: "the response's type is " + quote(typ) + ", not \"message\""})
	case !hasContent:
		return done(t, &Error{Code: InvalidEnvelope, Dialect: t.Dialect, Offset: 0, Reason: "the message has no \"content\" member"})
	}
	class := classify(gate.Anthropic, t.StopReason)
	t.Truncated = class == stopTruncated
	return done(t, seal(&t, class == stopDone, t.StopReason == "tool_use"))
}

// anthropicBlock reads one content block of a whole message.
func (p *parser) anthropicBlock(b *build) {
	at := p.r.Offset()
	p.anthropicBlockOf(b, p.fields("a content block", anthropicBlockMembers, "input"), at)
}

// anthropicBlockOf is anthropicBlock for a block whose members m were
// captured at offset at.
func (p *parser) anthropicBlockOf(b *build, m fieldSet, at int) {
	typ := p.fieldStr(m, "type", "a content block's")
	if !p.ok() || !p.require(m, "type", "a content block", at) {
		return
	}
	switch {
	case typ == "tool_use":
		c := gate.Call{ID: p.fieldStr(m, "id", "a tool_use block's"), Name: p.fieldStr(m, "name", "a tool_use block's")}
		p.requireID(c.ID, "a tool_use block", at)
		if p.require(m, "name", "a tool_use block", at) && p.require(m, "input", "a tool_use block", at) {
			p.requireName(c.Name, "a tool_use block", at)
			c.Args = m.at("input").raw
		}
		b.Calls = append(b.Calls, c)
	case typ == "text":
		text, _ := p.fieldBytes(m, "text", "a text block's")
		b.text = append(b.text, text...)
	case !anthropicSkipped[typ]:
		p.failf(UnknownType, m.at("type").off, "content block type %q is not known", typ)
	}
}
