package contract

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// TestRepresentationOnly: a refusal counts as the deliberate divergence
// only when every violation is a bound the exact value keeps and its
// float64 breaks, or a type refusal of a number the Go type cannot hold
// that keeps every bound.
func TestRepresentationOnly(t *testing.T) {
	const schema = `{"type":"object","properties":{
		"pos":{"type":"number","exclusiveMinimum":0},
		"unit":{"type":"number","exclusiveMaximum":1},
		"min":{"type":"number","minimum":0.3},
		"n":{"type":"integer"},
		"capped":{"type":"integer","maximum":1000},
		"f":{"type":"number"},
		"s":{"type":"string"}}}`
	sch, err := jsonval.Parse([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	v := func(kw, member string) toolerr.Violation {
		sp := "/properties/" + member + "/" + kw
		return toolerr.Violation{Keyword: kw, InstancePath: "/" + member, SchemaPath: sp}
	}
	tests := []struct {
		name     string
		instance string
		vs       []toolerr.Violation
		want     bool
	}{
		{"underflow onto an exclusive minimum", `{"pos":1e-400}`, []toolerr.Violation{v("exclusiveMinimum", "pos")}, true},
		{"rounding onto an exclusive maximum", `{"unit":0.99999999999999999999}`, []toolerr.Violation{v("exclusiveMaximum", "unit")}, true},
		{"rounding below an inclusive minimum that is no float64", `{"min":0.3000000000000000000001}`, []toolerr.Violation{v("minimum", "min")}, true},
		{"rounding that stays above an inclusive minimum", `{"min":0.30000000000000005}`, []toolerr.Violation{v("minimum", "min")}, false},
		{"the exact value breaks the bound", `{"pos":0}`, []toolerr.Violation{v("exclusiveMinimum", "pos")}, false},
		{"the float64 keeps the bound", `{"pos":1e-300}`, []toolerr.Violation{v("exclusiveMinimum", "pos")}, false},
		{"integer beyond int64", `{"n":98765432109876543210}`, []toolerr.Violation{v("type", "n")}, true},
		{"integer in int64", `{"n":1e2}`, []toolerr.Violation{v("type", "n")}, false},
		{"a fraction is no integer", `{"n":1.5}`, []toolerr.Violation{v("type", "n")}, false},
		{"beyond int64 and above the maximum", `{"capped":98765432109876543210}`, []toolerr.Violation{v("type", "capped")}, false},
		{"beyond float64", `{"f":1e400}`, []toolerr.Violation{v("type", "f")}, true},
		{"within float64", `{"f":1e300}`, []toolerr.Violation{v("type", "f")}, false},
		{"another keyword", `{"s":"x"}`, []toolerr.Violation{v("pattern", "s")}, false},
		{"one of two is real", `{"pos":1e-400,"n":1.5}`, []toolerr.Violation{v("exclusiveMinimum", "pos"), v("type", "n")}, false},
		{"a pointer that does not resolve", `{"pos":1e-400}`, []toolerr.Violation{{Keyword: "exclusiveMinimum", InstancePath: "/*", SchemaPath: "/properties/pos/exclusiveMinimum"}}, false},
		{"keyword and schema path differ", `{"pos":1e-400}`, []toolerr.Violation{{Keyword: "exclusiveMinimum", InstancePath: "/pos", SchemaPath: "/properties/pos/type"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := (&toolerr.Error{Code: toolerr.InvalidArguments}).SetViolations(tt.vs)
			if got := RepresentationOnly(sch, []byte(tt.instance), err); got != tt.want {
				t.Errorf("RepresentationOnly = %v, want %v", got, tt.want)
			}
		})
	}
	if RepresentationOnly(sch, []byte(`{"pos":1e-400}`), &toolerr.Error{Code: toolerr.InvalidJSON}) {
		t.Error("an invalid_json refusal counts as the divergence")
	}
}

// TestDifferentialAllowsRepresentationOnly: the differential check accepts
// a refusal of an integer beyond int64 that the oracle accepts (logged as
// by design), and still fails one it accepts for any other reason (the
// hand-written decoder refuses 1e2, an integer in int64).
func TestDifferentialAllowsRepresentationOnly(t *testing.T) {
	instances := []Instance{
		{Name: "n", JSON: []byte(`{"n":1}`), Valid: true},
		{Name: "beyond int64", JSON: []byte(`{"n":98765432109876543210}`), Valid: true},
		{Name: "exponent", JSON: []byte(`{"n":1e2}`), Valid: true},
	}
	defs := project(t, nmSchema, provider.MCP)
	tool := nmTool(nmSchema, defs, defs, []provider.Provider{provider.MCP}, false)
	errs, logs := differentialErrors(tool, instances, compileSchema)
	if len(errs) != 1 || !strings.Contains(errs[0], "instance exponent") {
		t.Errorf("errors %q, want exactly the one for instance exponent", errs)
	}
	if !slices.ContainsFunc(logs, func(l string) bool {
		return strings.Contains(l, "instance beyond int64") && strings.Contains(l, "by design")
	}) {
		t.Errorf("no log of the deliberate divergence in %q", logs)
	}
}

// TestRepresentationOnlyInBranches: inside a branch, a number the Go type
// cannot hold fails the branch, and the keyword's violation is reported;
// it counts as the divergence at a value that holds such a number, at any
// depth, and nowhere else.
func TestRepresentationOnlyInBranches(t *testing.T) {
	const schema = `{"type":"object","properties":{
		"comments":{"type":"array","items":{"anyOf":[
			{"type":"object","properties":{"position":{"type":"number"}},"required":["position"]},
			{"type":"object","properties":{"line":{"type":"number"}},"required":["line"]}],
			"unevaluatedProperties":false}},
		"pick":{"oneOf":[{"type":"integer"},{"type":"string"}]},
		"s":{"type":"string","minLength":2}}}`
	sch, err := jsonval.Parse([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	anyOf := toolerr.Violation{Keyword: "anyOf", InstancePath: "/comments/0", SchemaPath: "/properties/comments/items/anyOf"}
	unevaluated := toolerr.Violation{Keyword: "unevaluatedProperties", InstancePath: "/comments/0", SchemaPath: "/properties/comments/items/unevaluatedProperties"}
	oneOf := toolerr.Violation{Keyword: "oneOf", InstancePath: "/pick", SchemaPath: "/properties/pick/oneOf"}
	tests := []struct {
		name     string
		instance string
		vs       []toolerr.Violation
		want     bool
	}{
		{"beyond float64 in a branch of an item", `{"comments":[{"position":1e400}]}`, []toolerr.Violation{anyOf, unevaluated}, true},
		{"below float64's precision", `{"comments":[{"position":1e-400}]}`, []toolerr.Violation{anyOf}, true},
		{"more digits than float64 holds", `{"comments":[{"position":1.00000000000000000000001}]}`, []toolerr.Violation{anyOf}, true},
		{"integer beyond int64", `{"pick":98765432109876543210}`, []toolerr.Violation{oneOf}, true},
		{"a number float64 holds as its nearest", `{"comments":[{"position":0.1}]}`, []toolerr.Violation{anyOf}, false},
		{"an ordinary number", `{"comments":[{"position":12}]}`, []toolerr.Violation{anyOf}, false},
		{"the number is in another item", `{"comments":[{"position":1},{"position":1e400}]}`, []toolerr.Violation{anyOf}, false},
		{"the number is beside, not inside", `{"comments":[{"position":"x"}],"s":1e400}`, []toolerr.Violation{anyOf}, false},
		{"a rule that is no branch's verdict", `{"s":"x","comments":[{"position":1e400}]}`, []toolerr.Violation{{Keyword: "minLength", InstancePath: "", SchemaPath: "/properties/s/minLength"}}, false},
		{"a branch keyword the schema does not have there", `{"comments":[{"position":1e400}]}`, []toolerr.Violation{{Keyword: "oneOf", InstancePath: "/comments/0", SchemaPath: "/properties/comments/items/oneOf"}}, false},
		{"one of two is real", `{"comments":[{"position":1e400}],"s":"x"}`, []toolerr.Violation{anyOf, {Keyword: "minLength", InstancePath: "/s", SchemaPath: "/properties/s/minLength"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := (&toolerr.Error{Code: toolerr.InvalidArguments}).SetViolations(tt.vs)
			if got := RepresentationOnly(sch, []byte(tt.instance), err); got != tt.want {
				t.Errorf("RepresentationOnly = %v, want %v", got, tt.want)
			}
		})
	}
}
