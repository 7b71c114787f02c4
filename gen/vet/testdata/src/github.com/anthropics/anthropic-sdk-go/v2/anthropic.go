// Package anthropic stubs the anthropic-sdk-go types.
package anthropic

import "encoding/json"

type ToolUseBlock struct {
	ID    string
	Input json.RawMessage
	Name  string
}
