package mcpgogate

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// TestResult: refusals are isError with the toolerr JSON as text and
// structured content (approval_required too); a typed result is its
// checked bytes as both; a plain value is text only; a value that cannot
// be marshalled is an error.
func TestResult(t *testing.T) {
	refused := &toolerr.Error{Code: toolerr.InvalidArguments, Tool: "refund_order", Reason: "amountInCents must be an integer"}
	pending := &toolerr.Error{Code: toolerr.ApprovalRequired, Tool: "refund_order", Reason: "needs approval"}
	text := func(e *toolerr.Error) string { b, _ := json.Marshal(e); return string(b) }
	typed := `{"orderId":"BOB-1","status":"dispatched"}`
	cases := []struct {
		name       string
		res        gate.Result
		text       string
		isError    bool
		structured string // "" for none
		fails      bool
	}{
		{name: "refused", res: gate.Result{Err: refused}, text: text(refused), isError: true, structured: text(refused)},
		{name: "awaits approval", res: gate.Result{Err: pending}, text: text(pending), isError: true, structured: text(pending)},
		{name: "typed", res: gate.Result{JSON: []byte(typed), Value: "ignored"}, text: typed, structured: typed},
		{name: "plain", res: gate.Result{Value: map[string]any{"done": true}}, text: `{"done":true}`},
		{name: "unmarshallable", res: gate.Result{Value: func() {}}, fails: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Result(tc.res)
			if tc.fails {
				if err == nil {
					t.Fatalf("no error for %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Content) != 1 || got.Content[0].(mcp.TextContent).Text != tc.text || got.IsError != tc.isError || string(got.RawStructuredContent) != tc.structured {
				t.Errorf("%+v, want text %s, isError %v, structured %q", got, tc.text, tc.isError, tc.structured)
			}
		})
	}
}
