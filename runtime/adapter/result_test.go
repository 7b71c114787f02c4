package adapter

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

var (
	okResult  = gate.Result{CallID: "call_1", Tool: "get_order", Value: map[string]string{"status": "shipped"}, Executed: true}
	errResult = gate.Result{CallID: "call_2", Tool: "get_order", Err: &toolerr.Error{Code: toolerr.IncompleteCall, Tool: "get_order", CallID: "call_2", Reason: "the call is incomplete"}}
	errJSON   = `{"code":"incomplete_call","category":"validation","tool":"get_order","callId":"call_2","message":"incomplete_call for tool get_order: the call is incomplete","reason":"the call is incomplete"}`
)

func TestResultBuilders(t *testing.T) {
	join := func(ms []json.RawMessage, err error) (string, error) {
		var s []string
		for _, m := range ms {
			s = append(s, string(m))
		}
		return strings.Join(s, "\n"), err
	}
	one := func(m json.RawMessage, err error) (string, error) { return string(m), err }
	gemOK := okResult
	gemOK.CallID = GeminiIDPrefix + "r:0:0"
	tests := []struct {
		name string
		got  func() (string, error)
		want string
	}{
		{"openai chat", func() (string, error) { return join(OpenAIChatResults([]gate.Result{okResult, errResult})) },
			`{"role":"tool","tool_call_id":"call_1","content":"{\"status\":\"shipped\"}"}` + "\n" +
				`{"role":"tool","tool_call_id":"call_2","content":` + js(errJSON) + `}`},
		{"openai responses", func() (string, error) { return join(OpenAIResponsesResults([]gate.Result{okResult, errResult})) },
			`{"type":"function_call_output","call_id":"call_1","output":"{\"status\":\"shipped\"}"}` + "\n" +
				`{"type":"function_call_output","call_id":"call_2","output":` + js(errJSON) + `}`},
		{"anthropic", func() (string, error) { return one(AnthropicResults([]gate.Result{okResult, errResult})) },
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","content":"{\"status\":\"shipped\"}"},` +
				`{"type":"tool_result","tool_use_id":"call_2","content":` + js(errJSON) + `,"is_error":true}]}`},
		{"gemini", func() (string, error) { return one(GeminiResults([]gate.Result{gemOK, errResult})) },
			`{"role":"user","parts":[{"functionResponse":{"name":"get_order","response":{"output":{"status":"shipped"}}}},` +
				`{"functionResponse":{"id":"call_2","name":"get_order","response":{"error":` + errJSON + `}}}]}`},
		{"mcp ok", func() (string, error) {
			r := okResult
			r.CallID = `"req-7"`
			return one(MCPResult(r))
		}, `{"jsonrpc":"2.0","id":"req-7","result":{"content":[{"type":"text","text":"{\"status\":\"shipped\"}"}],"structuredContent":{"status":"shipped"}}}`},
		{"mcp error", func() (string, error) {
			r := errResult
			r.CallID = "7"
			return one(MCPResult(r))
		}, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":` + js(errJSON) + `}],"isError":true}}`},
	}
	for _, tt := range tests {
		got, err := tt.got()
		if err != nil || got != tt.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", tt.name, got, err, tt.want)
		}
	}
}

func TestResultUnmarshallable(t *testing.T) {
	bad := gate.Result{CallID: "c", Value: func() {}, Executed: true}
	if _, err := OpenAIChatResults([]gate.Result{bad}); err == nil {
		t.Error("a value that cannot be marshalled gave no error")
	}
	if _, err := AnthropicResults([]gate.Result{bad}); err == nil {
		t.Error("a value that cannot be marshalled gave no error")
	}
	if _, err := MCPResult(bad); err == nil {
		t.Error("a value that cannot be marshalled gave no error")
	}
}

// TestApprovalResults: a call that awaits approval reaches the model as a
// result to relay, not a failure: no error flag (Gemini: under output),
// except MCP, whose isError result carries the JSON as structuredContent.
func TestApprovalResults(t *testing.T) {
	pending := gate.Result{CallID: "call_3", Tool: "refund_order", Err: &toolerr.Error{
		Code: toolerr.ApprovalRequired, Tool: "refund_order", CallID: "call_3", Reason: "refund_order awaits approval",
		Approval: &toolerr.PendingApproval{PendingID: "P1", Version: "v1", ArgsDigest: "sha256:ab", ExpiresAt: "2026-03-02T11:00:00Z"},
	}, Approval: &gate.Ticket{PendingID: "P1"}}
	const pj = `{"code":"approval_required","category":"approval","tool":"refund_order","callId":"call_3","message":"approval_required for tool refund_order: refund_order awaits approval","reason":"refund_order awaits approval","approval":{"pendingId":"P1","version":"v1","argsDigest":"sha256:ab","expiresAt":"2026-03-02T11:00:00Z"}}`
	one := func(m json.RawMessage, err error) (string, error) { return string(m), err }
	first := func(ms []json.RawMessage, err error) (string, error) { return string(ms[0]), err }
	tests := []struct {
		name string
		got  func() (string, error)
		want string
	}{
		{"openai chat", func() (string, error) { return first(OpenAIChatResults([]gate.Result{pending})) },
			`{"role":"tool","tool_call_id":"call_3","content":` + js(pj) + `}`},
		{"openai responses", func() (string, error) { return first(OpenAIResponsesResults([]gate.Result{pending})) },
			`{"type":"function_call_output","call_id":"call_3","output":` + js(pj) + `}`},
		{"anthropic", func() (string, error) { return one(AnthropicResults([]gate.Result{pending})) },
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_3","content":` + js(pj) + `}]}`},
		{"gemini", func() (string, error) { return one(GeminiResults([]gate.Result{pending})) },
			`{"role":"user","parts":[{"functionResponse":{"id":"call_3","name":"refund_order","response":{"output":` + pj + `}}}]}`},
		{"mcp", func() (string, error) {
			r := pending
			r.CallID = "9"
			return one(MCPResult(r))
		}, `{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":` + js(pj) + `}],"structuredContent":` + pj + `,"isError":true}}`},
	}
	for _, tt := range tests {
		got, err := tt.got()
		if err != nil || got != tt.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", tt.name, got, err, tt.want)
		}
	}
	if _, isErr, _ := Content(pending); isErr {
		t.Error("Content flags a pending call as an error")
	}
}

// TestCheckedBytesVerbatim: a typed result's checked bytes (Result.JSON)
// reach the envelopes that embed JSON — MCP's structuredContent, Gemini's
// response.output — byte for byte: not escaped again (<, > and & stay), not
// compacted; a Result whose JSON is not JSON is an error, not a broken
// envelope.
func TestCheckedBytesVerbatim(t *testing.T) {
	for _, checked := range []string{`{"note":"<a&b>"}`, `{"note": "<a&b>",  "n": [1, 2]}`, `["\u2028<a&b>"]`} {
		typed := gate.Result{CallID: `"req-1"`, Tool: "get_order", Value: struct{}{}, JSON: []byte(checked), Executed: true}
		mcp, err := MCPResult(typed)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Result struct {
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal(mcp, &m); err != nil || !json.Valid(mcp) {
			t.Fatalf("MCPResult is not JSON: %s (%v)", mcp, err)
		}
		if want := `,"structuredContent":` + checked + `}}`; !strings.HasSuffix(string(mcp), want) {
			t.Errorf("MCPResult %s does not end with the checked bytes %s", mcp, want)
		}
		typed.CallID = GeminiIDPrefix + "r:0:0"
		gem, err := GeminiResults([]gate.Result{typed})
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"role":"user","parts":[{"functionResponse":{"name":"get_order","response":{"output":` + checked + `}}}]}`; string(gem) != want || !json.Valid(gem) {
			t.Errorf("GeminiResults:\n got %s\nwant %s", gem, want)
		}
	}
	broken := gate.Result{CallID: "1", Tool: "get_order", JSON: []byte(`{"a":1}x`), Executed: true}
	if b, err := MCPResult(broken); err == nil {
		t.Errorf("MCPResult embedded bytes that are not JSON: %s", b)
	}
	if b, err := GeminiResults([]gate.Result{broken}); err == nil {
		t.Errorf("GeminiResults embedded bytes that are not JSON: %s", b)
	}
	if b, err := MCPResult(gate.Result{CallID: "1 2", Value: 1}); err == nil {
		t.Errorf("MCPResult accepted a call ID that is not one JSON value: %s", b)
	}
}
