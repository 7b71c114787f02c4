package gate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

func TestNewRegistryRefusesUnbound(t *testing.T) {
	var c spyCounts
	good := payBinding(&c, nil, nil)
	spec := func(name string) Spec[payArgs] { s := paySpec(&c); s.Name = name; return s }
	tests := []struct {
		name  string
		tools []*Tool
		want  []string // substrings of the error
	}{
		{"nil policy", []*Tool{Bind(spec("pay"), Binding[payArgs]{Execute: good.Execute})}, []string{`"pay"`, "no policy"}},
		{"nil executor", []*Tool{Bind(spec("pay"), Binding[payArgs]{Policy: good.Policy})}, []string{`"pay"`, "no executor"}},
		{"both nil", []*Tool{Bind(spec("pay"), Binding[payArgs]{})}, []string{`"pay"`, "not bound"}},
		{"nil decoder", []*Tool{Bind(Spec[payArgs]{Name: "pay"}, good)}, []string{`"pay"`, "no decoder"}},
		{"bound twice", []*Tool{Bind(spec("pay"), good), Bind(spec("pay"), good)}, []string{`"pay"`, "bound twice"}},
		{"nil tool", []*Tool{nil}, []string{"nil tool"}},
		{"not made by Bind", []*Tool{{Name: "pay", Schema: `{"type":"object"}`}}, []string{`"pay"`, "not made by Bind"}},
		{"every offender named", []*Tool{
			Bind(spec("a"), good),
			Bind(spec("b"), Binding[payArgs]{Execute: good.Execute}),
			Bind(spec("c"), Binding[payArgs]{Policy: good.Policy}),
			Bind(spec("a"), good),
		}, []string{`"b"`, `"c"`, `"a" is bound twice`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRegistry(tt.tools)
			if err == nil || r != nil {
				t.Fatalf("NewRegistry = %v, %v; want an error", r, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
	if c.decodes.Load()+c.policies.Load()+c.execs.Load() != 0 {
		t.Errorf("building registries ran something: %+v", &c)
	}
}

// TestToolsAreCopies: the export list cannot be used to loosen dispatch.
func TestToolsAreCopies(t *testing.T) {
	var c spyCounts
	spec := paySpec(&c)
	spec.Roles = []string{"finance"}
	bound := Bind(spec, payBinding(&c, nil, nil))
	r := mustRegistry(t, []*Tool{bound})
	fin := Principal{ID: "f", Roles: []string{"finance"}}
	list := r.Tools(fin)
	if len(list) != 1 {
		t.Fatalf("Tools(finance) = %d tools", len(list))
	}
	list[0].Roles[0] = "anyone"
	list[0].Roles = nil
	bound.Roles = nil
	nobody := Caller{Principal: Principal{ID: "n"}, Scope: "s"}
	if got := r.Tools(nobody.Principal); len(got) != 0 {
		t.Errorf("after mutating copies, Tools(no roles) = %d tools", len(got))
	}
	_, err := r.Dispatch(context.Background(), nobody, Call{ID: "c1", Name: "pay", Args: []byte(goodPay), Complete: true})
	wantCode(t, err, toolerr.UnknownTool, toolerr.Validation)
	if c.decodes.Load() != 0 || c.execs.Load() != 0 {
		t.Errorf("decodes %d, execs %d; want 0, 0", c.decodes.Load(), c.execs.Load())
	}
}

// TestSensitiveIsBound: the spec's sensitive pointers reach the bound tool
// and the registry's copies of it (a call recorder masks what they name),
// and a copy's slice is its own.
func TestSensitiveIsBound(t *testing.T) {
	var c spyCounts
	spec := paySpec(&c)
	spec.Sensitive = []string{"/properties/card"}
	bound := Bind(spec, payBinding(&c, nil, nil))
	if !slices.Equal(bound.Sensitive, spec.Sensitive) {
		t.Fatalf("bound tool Sensitive = %q, want %q", bound.Sensitive, spec.Sensitive)
	}
	r := mustRegistry(t, []*Tool{bound})
	list := r.Tools(Principal{ID: "p"})
	if len(list) != 1 || !slices.Equal(list[0].Sensitive, spec.Sensitive) {
		t.Fatalf("Tools() = %v, want the tool with Sensitive %q", list, spec.Sensitive)
	}
	list[0].Sensitive[0] = "/changed"
	if again := r.Tools(Principal{ID: "p"}); again[0].Sensitive[0] != "/properties/card" {
		t.Errorf("a copy's Sensitive changed the registry's: %q", again[0].Sensitive)
	}
}
