package adapter

import (
	"encoding/json"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonread"
)

// The members the MCP adapter reads, level by level (see object).
var (
	mcpRequestMembers = []string{"jsonrpc", "method", "id", "params"}
	mcpParamsMembers  = []string{"name", "arguments"}
)

// ParseMCP reads an MCP tools/call request (one JSON-RPC 2.0 request
// object; batches are refused): params.name and params.arguments. The call
// ID is the JSON-RPC id in JSON form — a number as written (7), a string
// quoted ("req-7") — so that a number and a string never collide and
// MCPResult can echo the id exactly. The arguments are the raw bytes of
// params.arguments, a slice of body, or {} when it is absent (the member is
// optional in MCP). A request is always complete. Arguments with a
// duplicate member are returned as they are: the tool's decoder refuses
// the call (invalid_json), and MCPResult answers with an isError result
// the model can correct, not a JSON-RPC error.
func ParseMCP(body []byte) (Turn, error) {
	p := newParser(gate.MCP, body)
	t := Turn{Dialect: gate.MCP}
	var c gate.Call
	var version, method string
	hasID, hasParams, hasName := false, false, false
	p.object("the request", mcpRequestMembers, func(name string) {
		switch name {
		case "jsonrpc":
			version = p.str("jsonrpc")
		case "method":
			method = p.str("method")
		case "id":
			hasID = true
			switch p.r.Peek() {
			case jsonread.Number:
				c.ID = string(p.r.Number())
			case jsonread.String:
				b, _ := json.Marshal(p.str("id"))
				c.ID = string(b)
			default:
				p.failf(InvalidEnvelope, p.r.Offset(), "id must be a string or a number")
			}
		case "params":
			hasParams = true
			p.object("params", mcpParamsMembers, func(name string) {
				switch name {
				case "name":
					c.Name, hasName = p.str("params.name"), true
				case "arguments":
					c.Args = p.args()
				default:
					p.r.Skip()
				}
			})
		default:
			p.r.Skip()
		}
	})
	if err := p.finish(); err != nil {
		return done(t, err)
	}
	var reason string
	switch {
	case version != "2.0":
		reason = "jsonrpc must be \"2.0\""
	case method != "tools/call":
		return done(t, &Error{Code: UnknownType, Dialect: gate.MCP, Offset: 0, Reason: "method " + quote(method) + " is not tools/call"})
	case !hasID:
		return done(t, &Error{Code: MissingCallID, Dialect: gate.MCP, Offset: 0, Reason: "tools/call must be a request with an id, not a notification"})
	case !hasParams || !hasName:
		reason = "tools/call has no params.name"
	case c.Name == "":
		reason = "tools/call has an empty params.name"
	}
	if reason != "" {
		return done(t, &Error{Code: InvalidEnvelope, Dialect: gate.MCP, Offset: 0, Reason: reason})
	}
	t.Calls = []gate.Call{c}
	return done(t, seal(&t, true, false))
}
