// Package mcp stubs the MCP go-sdk types.
package mcp

import (
	"context"
	"encoding/json"
)

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

type Server struct{}

type Tool struct{ Name string }

type CallToolResult struct{}

type ToolHandler func(context.Context, *CallToolRequest) (*CallToolResult, error)

type ToolHandlerFor[In, Out any] func(context.Context, *CallToolRequest, In) (*CallToolResult, Out, error)

func (s *Server) AddTool(t *Tool, h ToolHandler) {}

func AddTool[In, Out any](s *Server, t *Tool, h ToolHandlerFor[In, Out]) {}
