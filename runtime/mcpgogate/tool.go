package mcpgogate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// definition is an MCP definition as generated: the members mcp-go's Tool
// carries, the schemas kept raw.
type definition struct {
	Name         string              `json:"name"`
	Title        string              `json:"title"`
	Description  string              `json:"description"`
	InputSchema  json.RawMessage     `json:"inputSchema"`
	OutputSchema json.RawMessage     `json:"outputSchema"`
	Annotations  *mcp.ToolAnnotation `json:"annotations"`
	Meta         *mcp.Meta           `json:"_meta"`
}

// Tool builds mcp-go's Tool from a generated MCP definition, with the
// input and output schemas as raw JSON (byte for byte, key order
// included). A definition with a member the Tool cannot carry is an error,
// rather than a tool listed without it.
func Tool(def string) (mcp.Tool, error) {
	var d definition
	dec := json.NewDecoder(strings.NewReader(def))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return mcp.Tool{}, fmt.Errorf("mcpgogate: MCP definition: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return mcp.Tool{}, errors.New("mcpgogate: MCP definition: data after the object")
	}
	if d.Name == "" || len(d.InputSchema) == 0 {
		return mcp.Tool{}, errors.New("mcpgogate: MCP definition without a name or an inputSchema")
	}
	t := mcp.Tool{Name: d.Name, Title: d.Title, Description: d.Description, RawInputSchema: d.InputSchema, RawOutputSchema: d.OutputSchema, Meta: d.Meta}
	if d.Annotations != nil {
		t.Annotations = *d.Annotations
	}
	return t, nil
}
