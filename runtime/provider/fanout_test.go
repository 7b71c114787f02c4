package provider_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/schema"
)

// fanoutTool is a tool whose definition di refers to d(i+1) twice, down to
// d(depth): linear in depth as written, 2^depth copies of the last
// definition with its references expanded. Its schema is the effective
// one (closed).
func fanoutTool(t *testing.T, depth int) provider.Tool {
	t.Helper()
	var defs strings.Builder
	for i := range depth {
		fmt.Fprintf(&defs, `"d%d":{"type":"object","properties":{"a":{"$ref":"#/$defs/d%d"},"b":{"$ref":"#/$defs/d%d"}},"required":["a","b"]},`, i, i+1, i+1)
	}
	fmt.Fprintf(&defs, `"d%d":{"type":"object","properties":{"leaf":{"type":"string"}},"required":["leaf"]}`, depth)
	canonical, err := jsonval.Parse([]byte(`{"type":"object","properties":{"root":{"$ref":"#/$defs/d0"}},"required":["root"],"$defs":{` + defs.String() + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	return provider.Tool{Name: "fanout", Description: "A tool.", Schema: string(schema.Effective(canonical, false).Marshal())}
}

// TestRefFanoutLinear: a provider that takes references keeps them, so the
// definition grows linearly with the depth of the fan-out (twice the depth,
// about twice the bytes, where expanding would square them); Gemini's
// legacy subset, which has none, inlines each definition once in the work
// and refuses the tool once the inlined schema would pass its bound.
func TestRefFanoutLinear(t *testing.T) {
	for _, p := range []provider.Provider{provider.OpenAIChat, provider.OpenAIResponses, provider.Anthropic, provider.Gemini, provider.MCP} {
		t.Run(string(p), func(t *testing.T) {
			sizes := map[int]int{}
			for _, depth := range []int{20, 40} {
				def, err := provider.Project(p, fanoutTool(t, depth))
				if err != nil {
					t.Fatalf("depth %d: %v", depth, err)
				}
				sizes[depth] = len(def.JSON)
			}
			if sizes[40] > 3*sizes[20] {
				t.Errorf("definition of %d bytes at depth 40 against %d at depth 20: not linear", sizes[40], sizes[20])
			}
		})
	}
	t.Run("gemini-legacy", func(t *testing.T) {
		leaves := func(depth int) int {
			def, err := provider.Project(provider.GeminiLegacy, fanoutTool(t, depth))
			if err != nil {
				t.Fatalf("depth %d: %v", depth, err)
			}
			return strings.Count(def.JSON, `"leaf"`)
		}
		if one, eight := leaves(0), leaves(8); eight != 256*one {
			t.Errorf("%d leaf mentions inlined at depth 8, want 2^8 × %d", eight, one)
		}
		for _, depth := range []int{20, 40} {
			_, err := provider.Project(provider.GeminiLegacy, fanoutTool(t, depth))
			var refused *provider.RefusedError
			if !errors.As(err, &refused) || !strings.Contains(refused.Reason, "inlined") {
				t.Errorf("depth %d: %v, want a refusal for the inlined size", depth, err)
			}
		}
	})
}

// TestClosureFanoutLinear: closing a schema whose definitions are each an
// anyOf of two references to the next asks each definition once whether it
// describes objects (40 levels would be 2^40 questions otherwise), and the
// answers are those of the rules (gen/COMPOSITION.md): d0, which a member
// refers to alone, is closed when the last definition is an object, and
// left alone when it is a string; the others, which branches refer to, are
// not closed where they are defined.
func TestClosureFanoutLinear(t *testing.T) {
	const depth = 40
	for _, tc := range []struct {
		leaf   string
		closed int // definitions given unevaluatedProperties: false
	}{
		{`{"type":"object","properties":{"leaf":{"type":"string"}}}`, 1},
		{`{"type":"string"}`, 0},
	} {
		var defs strings.Builder
		for i := range depth {
			fmt.Fprintf(&defs, `"d%d":{"anyOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]},`, i, i+1, i+1)
		}
		fmt.Fprintf(&defs, `"d%d":%s`, depth, tc.leaf)
		canonical, err := jsonval.Parse([]byte(`{"type":"object","properties":{"root":{"$ref":"#/$defs/d0"}},"$defs":{` + defs.String() + `}}`))
		if err != nil {
			t.Fatal(err)
		}
		eff := schema.Effective(canonical, false)
		closed := 0
		for _, d := range eff.Get("$defs").Members {
			if u := d.Value.Get("unevaluatedProperties"); u != nil && u.Kind == jsonval.Bool && !u.Bool {
				if d.Key != "d0" {
					t.Errorf("leaf %s: %s is closed", tc.leaf, d.Key)
				}
				closed++
			}
		}
		if closed != tc.closed {
			t.Errorf("leaf %s: %d definitions closed with unevaluatedProperties, want %d", tc.leaf, closed, tc.closed)
		}
	}
}
