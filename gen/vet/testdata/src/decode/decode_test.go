package decode

import (
	"encoding/json"
	"testing"

	openai "github.com/openai/openai-go/v3"
)

// A test may decode a call's arguments to look at them: no report.
func TestArguments(t *testing.T) {
	call := openai.ChatCompletionMessageToolCallUnion{}
	call.Function.Arguments = `{"orderId":"A-1"}`
	var m map[string]any
	if err := json.Unmarshal([]byte(call.Function.Arguments), &m); err != nil {
		t.Fatal(err)
	}
}

// Nor when it hands them to a helper of the package that decodes them.
func TestHelper(t *testing.T) {
	call := openai.ChatCompletionMessageToolCallUnion{}
	if _, err := decodeForTests([]byte(call.Function.Arguments)); err != nil {
		t.Fatal(err)
	}
}
