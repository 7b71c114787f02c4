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

// ParseAnthropic reads an Anthropic Messages response body (type
// "message"): the tool_use blocks of content[], the text blocks, and
// stop_reason. Each call's arguments are the raw bytes of its input value,
// a slice of body. A body of type "error" is a provider_error.
func ParseAnthropic(body []byte) (Turn, error) {
	p := newParser(gate.Anthropic, body)
	t := Turn{Dialect: gate.Anthropic}
	typ := ""
	p.object("the response", func(name string) {
		switch name {
		case "type":
			typ = p.str("type")
		case "content":
			p.array("content", func(int) { p.anthropicBlock(&t) })
		case "stop_reason":
			t.StopReason = p.optStr("stop_reason")
		case "error":
			p.providerError(name)
		default:
			p.r.Skip()
		}
	})
	if err := p.finish(); err != nil {
		return done(t, err)
	}
	if typ != "message" {
		return done(t, &Error{Code: InvalidEnvelope, Dialect: t.Dialect, Offset: 0, Reason: "the response's type is " + quote(typ) + ", not \"message\""})
	}
	class := classify(gate.Anthropic, t.StopReason)
	t.Truncated = class == stopTruncated
	return done(t, seal(&t, class == stopDone, t.StopReason == "tool_use"))
}

// anthropicBlock reads one content block of a whole message.
func (p *parser) anthropicBlock(t *Turn) {
	at := p.r.Offset()
	p.anthropicBlockOf(t, p.fields("a content block"), at)
}

// anthropicBlockOf is anthropicBlock for a block whose members m were
// captured at offset at.
func (p *parser) anthropicBlockOf(t *Turn, m map[string]field, at int) {
	typ := p.fieldStr(m, "type", "a content block's")
	if !p.ok() || !p.require(m, "type", "a content block", at) {
		return
	}
	switch {
	case typ == "tool_use":
		c := gate.Call{ID: p.fieldStr(m, "id", "a tool_use block's"), Name: p.fieldStr(m, "name", "a tool_use block's")}
		p.requireID(c.ID, "a tool_use block", at)
		if p.require(m, "name", "a tool_use block", at) && p.require(m, "input", "a tool_use block", at) {
			c.Args = m["input"].raw
		}
		t.Calls = append(t.Calls, c)
	case typ == "text":
		t.Text += p.fieldStr(m, "text", "a text block's")
	case !anthropicSkipped[typ]:
		p.failf(UnknownType, m["type"].off, "content block type %q is not known", typ)
	}
}
