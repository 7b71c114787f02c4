// Package mcp stubs the mcp-go types.
package mcp

type CallToolParams struct {
	Name      string
	Arguments any
}

type CallToolRequest struct {
	Params CallToolParams
}

func (r CallToolRequest) GetArguments() map[string]any {
	m, _ := r.Params.Arguments.(map[string]any)
	return m
}

func (r CallToolRequest) GetRawArguments() any { return r.Params.Arguments }

func (r CallToolRequest) BindArguments(target any) error { return nil }

func (r CallToolRequest) RequireString(key string) (string, error) { return "", nil }

func (r CallToolRequest) GetInt(key string, def int) int { return def }

// GetName is no argument.
func (r CallToolRequest) GetName() string { return r.Params.Name }
