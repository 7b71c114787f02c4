package main

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
)

func TestOpenAITurn(t *testing.T) {
	a, err := newAgent()
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := a.openAITurn(context.Background(), []byte(openAIResponse))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"role":"tool","tool_call_id":"call_1","content":"{\"orderId\":\"A-19\",\"status\":\"dispatched\",\"updatedAt\":\"2026-01-02T09:30:00Z\"}"}`
	if len(msgs) != 1 || string(msgs[0]) != want {
		t.Errorf("tool messages = %s, want [%s]", msgs, want)
	}
	if !slices.Equal(a.ran, []string{"get_order_status A-19"}) {
		t.Errorf("executors run: %v", a.ran)
	}
}

// toolResult is the part of an Anthropic tool_result block the test checks;
// content holds the toolerr JSON.
type toolResult struct {
	Role    string `json:"role"`
	Content []struct {
		Type      string `json:"type"`
		ToolUseID string `json:"tool_use_id"`
		Content   string `json:"content"`
		IsError   bool   `json:"is_error"`
	} `json:"content"`
}

func TestAnthropicTurns(t *testing.T) {
	a, err := newAgent()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		body, id, code string
	}{
		{anthropicResponse, "toolu_01", "invalid_arguments"},
		{anthropicTruncated, "toolu_02", "incomplete_call"},
	} {
		msg, err := a.anthropicTurn(context.Background(), []byte(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		var m toolResult
		if err := json.Unmarshal(msg, &m); err != nil {
			t.Fatal(err)
		}
		if m.Role != "user" || len(m.Content) != 1 || m.Content[0].Type != "tool_result" || m.Content[0].ToolUseID != tt.id || !m.Content[0].IsError {
			t.Fatalf("message = %s", msg)
		}
		var e struct{ Code string }
		if err := json.Unmarshal([]byte(m.Content[0].Content), &e); err != nil || e.Code != tt.code {
			t.Errorf("tool_result content = %s, want the toolerr JSON with code %s", m.Content[0].Content, tt.code)
		}
	}
	if len(a.ran) != 0 {
		t.Errorf("refused calls ran executors: %v", a.ran)
	}
}
