// Package mcp stubs the MCP go-sdk types.
package mcp

import "encoding/json"

type CallToolParams struct {
	Name      string
	Arguments any
}

type CallToolParamsRaw struct {
	Name      string
	Arguments json.RawMessage
}

type CallToolRequest struct {
	Params *CallToolParamsRaw
}
