package wire

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/opt"
)

// TestMCPTypedResult: over the go-sdk client, get_order_status (which
// declares an outputSchema) is listed with exactly its effective result
// schema as outputSchema, and a call returns structuredContent with its
// text serialization in content. The SDK's own output validator
// (google/jsonschema-go, which the SDK's server applies to typed tools'
// results) accepts the structured content against the listed schema, and
// the text decodes with DecodeGetOrderStatusResult to the executor's value.
// A result that breaks the schema arrives as an isError invalid_result
// without the withheld value, and the same validator refuses that value,
// so the check can fail. Tools without a result schema list no
// outputSchema.
func TestMCPTypedResult(t *testing.T) {
	reg, s := newSpiedRegistry(t)
	cs, log := connectGate(t, reg, allRoles)
	ctx := context.Background()
	lr, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw := wireListedTools(t, log.String())
	var listed struct {
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if err := json.Unmarshal(raw["get_order_status"], &listed); err != nil {
		t.Fatal(err)
	}
	if string(listed.OutputSchema) != generated.GetOrderStatusResultSchema {
		t.Fatalf("outputSchema on the wire %s, want %s", listed.OutputSchema, generated.GetOrderStatusResultSchema)
	}
	for _, tool := range lr.Tools {
		if (tool.OutputSchema != nil) != (tool.Name == "get_order_status") {
			t.Errorf("tool %s: outputSchema %v", tool.Name, tool.OutputSchema)
		}
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(listed.OutputSchema, &schema); err != nil {
		t.Fatal(err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_order_status", Arguments: json.RawMessage(`{"orderId":"A-19"}`)})
	if err != nil || res.IsError || res.StructuredContent == nil || len(res.Content) != 1 {
		t.Fatalf("call: %v %+v", err, res)
	}
	if err := resolved.Validate(res.StructuredContent); err != nil {
		t.Errorf("the SDK's validator refuses the structured content %v: %v", res.StructuredContent, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	want := s.status(generated.GetOrderStatusArgs{OrderID: "A-19"})
	got, err := generated.DecodeGetOrderStatusResult([]byte(text))
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("text content %s decodes to %+v (%v), want %+v", text, got, err, want)
	}
	var fromText any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil || !reflect.DeepEqual(fromText, res.StructuredContent) {
		t.Errorf("text %s and structured content %v differ", text, res.StructuredContent)
	}

	// A result that breaks the schema: withheld.
	bad := want
	bad.TrackingRef = opt.Some("dpd 42")
	s.mu.Lock()
	s.statusResult = func(generated.GetOrderStatusArgs) generated.GetOrderStatusResult { return bad }
	s.mu.Unlock()
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_order_status", Arguments: json.RawMessage(`{"orderId":"A-19"}`)})
	if err != nil || !res.IsError {
		t.Fatalf("an invalid result was not an error: %v %+v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `"code":"invalid_result"`) || strings.Contains(text, "dpd 42") || strings.Contains(text, "trackingRef") {
		t.Errorf("invalid result text %s", text)
	}
	var unchecked any
	b, _ := bad.MarshalJSON()
	if err := json.Unmarshal(b, &unchecked); err != nil {
		t.Fatal(err)
	}
	if resolved.Validate(unchecked) == nil {
		t.Errorf("the SDK's validator accepts the withheld value %s: the test cannot tell", b)
	}
	if runs := s.count()["get_order_status"]; runs != 2 {
		t.Errorf("get_order_status ran %d times, want 2", runs)
	}
}
