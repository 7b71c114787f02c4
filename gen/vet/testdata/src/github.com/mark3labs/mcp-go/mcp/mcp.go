// Package mcp stubs the mcp-go types.
package mcp

type CallToolParams struct {
	Name      string
	Arguments any
}

type CallToolRequest struct {
	Params CallToolParams
}
