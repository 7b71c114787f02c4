package provider

import (
	"reflect"
	"strings"
	"testing"
)

// TestMustDefinitions: the definitions are Project's, in the order asked;
// a provider that refuses the tool panics.
func TestMustDefinitions(t *testing.T) {
	tool := Tool{Name: "get_order", Description: "Get an order.", Schema: `{"type":"object","properties":{"id":{"type":"string","pattern":"^[A-Z]{3}$"}},"required":["id"],"additionalProperties":false}`}
	ps := []Provider{MCP, Gemini, OpenAIChat}
	defs := MustDefinitions(tool, ps...)
	if len(defs) != len(ps) {
		t.Fatalf("%d definitions, want %d", len(defs), len(ps))
	}
	for i, p := range ps {
		want, err := Project(p, tool)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(defs[i], want) {
			t.Errorf("%s: %+v, want %+v", p, defs[i], want)
		}
	}
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "get order") {
			t.Errorf("panic %q, want the refusal of the name", msg)
		}
	}()
	tool.Name = "get order"
	MustDefinitions(tool, OpenAIChat)
	t.Error("no panic for a refused tool")
}
