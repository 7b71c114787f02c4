package synth

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestTool: a tool is valid JSON with 5 to 15 members, the same bytes for
// the same seed and number, and different tools differ.
func TestTool(t *testing.T) {
	for i := range 200 {
		data := Tool(1, i)
		if !bytes.Equal(data, Tool(1, i)) {
			t.Fatalf("tool %d differs between two calls", i)
		}
		if bytes.Equal(data, Tool(1, i+1)) || bytes.Equal(data, Tool(2, i)) {
			t.Fatalf("tool %d equals another tool", i)
		}
		var tool struct {
			Parameters struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"parameters"`
		}
		if err := json.Unmarshal(data, &tool); err != nil {
			t.Fatalf("tool %d: %v", i, err)
		}
		if n := len(tool.Parameters.Properties); n < 5 || n > 15 {
			t.Errorf("tool %d has %d members, want 5 to 15", i, n)
		}
	}
}
