package gen_test

import (
	"path/filepath"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
)

// leftOutTest runs in the generated package: math.factorial went, with
// default flags, to every provider that can carry a dotted name (Gemini
// and MCP). A call in the dialect of a provider it was left out of is
// unknown_tool and runs nothing; in the others it runs.
const leftOutTest = `package tools

import (
	"context"
	"errors"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

func TestLeftOutDialects(t *testing.T) {
	runs := 0
	reg, err := NewRegistry(Bindings{MathFactorial: gate.Binding[MathFactorialArgs]{
		Policy:  func(context.Context, gate.Principal, MathFactorialArgs) error { return nil },
		Execute: func(context.Context, MathFactorialArgs) (any, error) { runs++; return nil, nil },
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range []struct {
		dialect gate.Dialect
		runs    bool
	}{
		{gate.OpenAIChat, false}, {gate.OpenAIResponses, false}, {gate.Anthropic, false},
		{gate.Gemini, true}, {gate.MCP, true}, {gate.Plain, true},
	} {
		before := runs
		_, err := reg.Dispatch(context.Background(), gate.Caller{Scope: "s"}, gate.Call{ID: string(rune('a' + i)), Name: "math.factorial", Args: []byte(` + "`" + `{"n": 5}` + "`" + `), Complete: true, Dialect: tt.dialect})
		var te *toolerr.Error
		switch {
		case tt.runs && (err != nil || runs != before+1):
			t.Errorf("%q: err %v, runs %d; want one run", tt.dialect, err, runs-before)
		case !tt.runs && (!errors.As(err, &te) || te.Code != toolerr.UnknownTool || runs != before):
			t.Errorf("%q: err %v, runs %d; want unknown_tool and no run", tt.dialect, err, runs-before)
		}
	}
}
`

// TestLeftOutProviderIsUnknownTool generates, with default flags, a tool
// OpenAI and Anthropic cannot carry (a dotted name), and checks in the
// compiled package that calls in their dialects are unknown_tool while
// Gemini's and MCP's run; its contract test passes too.
func TestLeftOutProviderIsUnknownTool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a generated package; skipped with -short")
	}
	mod := gobuild.Module(t, "leftout")
	gobuild.WriteFiles(t, mod, "schemas", map[string][]byte{"f.json": []byte(`{"name": "math.factorial", "description": "Factorial.", "parameters": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"]}}`)})
	tools, err := gen.Load(filepath.Join(mod, "schemas"))
	if err != nil {
		t.Fatal(err)
	}
	var notices []gen.Notice
	files, err := gen.Generate(tools, gen.Options{Package: "tools", OutDir: filepath.Join(mod, "tools"), Notice: func(n gen.Notice) { notices = append(notices, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(notices) != 3 {
		t.Errorf("notices %v; want openai-chat, openai-responses and anthropic", notices)
	}
	out := map[string][]byte{"leftout_test.go": []byte(leftOutTest)}
	for _, f := range files {
		out[f.Name] = f.Data
	}
	gobuild.WriteFiles(t, mod, "tools", out)
	if got, err := gobuild.Go(t, mod, "test", "./tools"); err != nil {
		t.Fatalf("the generated package's tests fail:\n%s", got)
	}
}
