package adapter

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Content returns what a gate result tells the model, as JSON text: the
// executor's value on success (for a tool with a result schema, the
// checked bytes of its typed result, gate.Result.JSON), the *toolerr.Error (code, category, message,
// violations) when the call was refused or failed; isError reports the
// latter. A call that awaits approval (approval_required) is not an error
// to repair or retry but news for the user: its toolerr JSON says so, and
// isError is false. It fails only when the executor's value cannot be
// marshalled.
func Content(res gate.Result) (text []byte, isError bool, err error) {
	if res.Err != nil {
		b, err := json.Marshal(res.Err)
		return b, !awaitsApproval(res), err
	}
	if res.JSON != nil {
		return res.JSON, false, nil // a typed result, checked against its schema
	}
	b, err := json.Marshal(res.Value)
	return b, false, err
}

// OpenAIChatResults returns one Chat Completions tool message per result,
// in order: {"role":"tool","tool_call_id":...,"content":"<Content>"}. Chat
// has no error flag; an error result's content is the toolerr JSON.
func OpenAIChatResults(results []gate.Result) ([]json.RawMessage, error) {
	type message struct {
		Role       string `json:"role"`
		ToolCallID string `json:"tool_call_id"`
		Content    string `json:"content"`
	}
	return each(results, func(r gate.Result, text []byte, _ bool) any {
		return message{Role: "tool", ToolCallID: r.CallID, Content: string(text)}
	})
}

// OpenAIResponsesResults returns one Responses input item per result, in
// order: {"type":"function_call_output","call_id":...,"output":"<Content>"}.
func OpenAIResponsesResults(results []gate.Result) ([]json.RawMessage, error) {
	type item struct {
		Type   string `json:"type"`
		CallID string `json:"call_id"`
		Output string `json:"output"`
	}
	return each(results, func(r gate.Result, text []byte, _ bool) any {
		return item{Type: "function_call_output", CallID: r.CallID, Output: string(text)}
	})
}

// AnthropicResults returns the user message that answers a turn's tool_use
// blocks: {"role":"user","content":[{"type":"tool_result","tool_use_id":...,
// "content":"<Content>","is_error":true}, ...]}, one block per result in
// order; is_error is present only for error results.
func AnthropicResults(results []gate.Result) (json.RawMessage, error) {
	type block struct {
		Type      string `json:"type"`
		ToolUseID string `json:"tool_use_id"`
		Content   string `json:"content"`
		IsError   bool   `json:"is_error,omitempty"`
	}
	blocks, err := each(results, func(r gate.Result, text []byte, isErr bool) any {
		return block{Type: "tool_result", ToolUseID: r.CallID, Content: string(text), IsError: isErr}
	})
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}{"user", blocks})
}

// GeminiResults returns the content that answers a turn's functionCall
// parts: {"role":"user","parts":[{"functionResponse":{"id":...,"name":...,
// "response":{"output":<value>}}}, ...]}, with {"error":<toolerr>} as the
// response of an error result. The value is Content's bytes as they are
// (for a typed result, the checked bytes, not encoded again). The id is
// left out when the adapter synthesized it (GeminiIDPrefix): Gemini did not
// send one.
func GeminiResults(results []gate.Result) (json.RawMessage, error) {
	b := []byte(`{"role":"user","parts":[`)
	for i, r := range results {
		text, isErr, err := embeddable(r)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"functionResponse":{`...)
		if r.CallID != "" && !strings.HasPrefix(r.CallID, GeminiIDPrefix) {
			b = append(appendMember(b, "id", jsonString(r.CallID)), ',')
		}
		b = append(appendMember(b, "name", jsonString(r.Tool)), `,"response":{`...)
		switch {
		case len(text) == 0:
		case isErr:
			b = appendMember(b, "error", text)
		default:
			b = appendMember(b, "output", text)
		}
		b = append(b, "}}}"...)
	}
	return append(b, "]}"...), nil
}

// MCPResult returns the JSON-RPC response to a tools/call request read by
// ParseMCP: {"jsonrpc":"2.0","id":<id>,"result":{"content":[{"type":"text",
// "text":"<Content>"}],"isError":true}}, with structuredContent holding a
// successful value that is a JSON object, or any typed result (checked
// against the tool's outputSchema: Result.JSON, byte for byte). Every
// refusal, unknown_tool included, is a tool result with isError rather than
// a JSON-RPC error, so that the model sees the toolerr JSON and can correct
// its call. A call that awaits approval is an isError result too, with the
// toolerr JSON (code approval_required) also as structuredContent. It fails
// when the executor's value cannot be marshalled or the call ID is not one
// JSON value.
func MCPResult(res gate.Result) (json.RawMessage, error) {
	out, isErr, err := embeddable(res)
	if err != nil {
		return nil, err
	}
	id := []byte(res.CallID)
	if len(id) == 0 {
		id = []byte("null")
	} else if err := jsonread.Valid(id, jsonread.DefaultLimits); err != nil {
		return nil, fmt.Errorf("adapter: the MCP call ID %q is not one JSON value: %w", res.CallID, err)
	}
	var structured []byte
	switch {
	case awaitsApproval(res):
		isErr, structured = true, out
	case !isErr && (res.JSON != nil || len(out) > 0 && out[0] == '{'):
		structured = out
	}
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	b = append(b, `,"result":{"content":[{"type":"text","text":`...)
	b = append(b, jsonString(string(out))...)
	b = append(b, "}]"...)
	if len(structured) > 0 {
		b = appendMember(append(b, ','), "structuredContent", structured)
	}
	if isErr {
		b = append(b, `,"isError":true`...)
	}
	return append(b, "}}"...), nil
}

// embeddable is Content for the envelopes that embed it as JSON rather
// than as a string: it also fails when the text is not JSON (a Result
// built by hand), which would break the envelope around it.
func embeddable(res gate.Result) (text []byte, isError bool, err error) {
	text, isError, err = Content(res)
	if err == nil && len(text) > 0 && jsonread.Valid(text, jsonread.DefaultLimits) != nil {
		err = fmt.Errorf("adapter: the result of call %q is not JSON", res.CallID)
	}
	return text, isError, err
}

// appendMember appends "name":value to b, where value is JSON.
func appendMember(b []byte, name string, value []byte) []byte {
	b = append(jsonval.AppendString(b, name), ':')
	return append(b, value...)
}

// jsonString is s as a JSON string, escaped as encoding/json escapes it
// (the other envelopes' strings are).
func jsonString(s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

// awaitsApproval reports whether res is a call stored to await approval.
func awaitsApproval(res gate.Result) bool {
	return res.Err != nil && res.Err.Code == toolerr.ApprovalRequired
}

// each marshals msg(result, Content, isError) for every result.
func each(results []gate.Result, msg func(r gate.Result, text []byte, isErr bool) any) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(results))
	for _, r := range results {
		text, isErr, err := Content(r)
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(msg(r, text, isErr))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}
