package mcpgogate

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/toolgate/toolgate/runtime/adapter"
	"github.com/toolgate/toolgate/runtime/gate"
)

// Result is the tools/call result of a gate result: adapter.Content as
// the text content; a refusal or failure (approval_required included) is
// an isError result whose structured content is the *toolerr.Error, and a
// typed result (Result.JSON, checked against the tool's outputSchema) is
// the structured content byte for byte. It fails only when the executor's
// value cannot be marshalled.
func Result(res gate.Result) (*mcp.CallToolResult, error) {
	text, _, err := adapter.Content(res)
	if err != nil {
		return nil, err
	}
	out := &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(string(text))}}
	switch {
	case res.Err != nil:
		out.IsError = true
		out.RawStructuredContent = json.RawMessage(text)
	case res.JSON != nil:
		out.RawStructuredContent = json.RawMessage(res.JSON)
	}
	return out, nil
}
