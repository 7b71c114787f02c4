package gen_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// bfclMutations returns the ground-truth call args of the tool (index i,
// file tool) and its mutations: each required member dropped, each member
// given a value of another JSON type, each member with an enum given a
// value outside it, and an unknown member added.
func bfclMutations(t *testing.T, i int, call string, tool, args []byte) []bfclInput {
	var def struct{ Parameters json.RawMessage }
	if err := json.Unmarshal(tool, &def); err != nil {
		t.Fatal(err)
	}
	params, err := jsonval.Parse(def.Parameters)
	if err != nil {
		t.Fatal(err)
	}
	base, err := jsonval.Parse(args)
	if err != nil {
		t.Fatal(err)
	}
	out := []bfclInput{{i, call, "the ground truth", args}}
	with := func(what string, edit func(v *jsonval.Value)) {
		v := base.Clone()
		edit(v)
		out = append(out, bfclInput{i, call, what, v.Marshal()})
	}
	if req := params.Get("required"); req != nil {
		for _, r := range req.Items {
			if base.Has(r.Str) {
				with(fmt.Sprintf("required %q dropped", r.Str), func(v *jsonval.Value) { v.Delete(r.Str) })
			}
		}
	}
	for _, m := range base.Members {
		other := otherType(m.Value)
		with(fmt.Sprintf("%q as %s", m.Key, other.Kind), func(v *jsonval.Value) { v.Set(m.Key, other) })
	}
	props := params.Get("properties")
	if props != nil {
		for _, p := range props.Members {
			if outside := outsideEnum(p.Value); outside != nil {
				with(fmt.Sprintf("%q outside its enum", p.Key), func(v *jsonval.Value) { v.Set(p.Key, outside) })
			}
		}
	}
	const unknown = "toolgate_unknown_member"
	if props == nil || !props.Has(unknown) {
		with("an unknown member added", func(v *jsonval.Value) { v.Set(unknown, &jsonval.Value{Kind: jsonval.Number, Str: "1"}) })
	}
	return out
}

// otherType returns a value of another JSON type than v.
func otherType(v *jsonval.Value) *jsonval.Value {
	switch v.Kind {
	case jsonval.String:
		return &jsonval.Value{Kind: jsonval.Number, Str: "1"}
	case jsonval.Number:
		return &jsonval.Value{Kind: jsonval.String, Str: v.Str}
	case jsonval.Bool:
		return &jsonval.Value{Kind: jsonval.String, Str: fmt.Sprint(v.Bool)}
	case jsonval.Array:
		return &jsonval.Value{Kind: jsonval.Object}
	}
	return &jsonval.Value{Kind: jsonval.Array}
}

// outsideEnum returns a value outside the enum of s (or of its items, for
// an array), or nil when s has none.
func outsideEnum(s *jsonval.Value) *jsonval.Value {
	enum := s.Get("enum")
	array := false
	if enum == nil {
		if items := s.Get("items"); items != nil && items.Kind == jsonval.Object {
			enum, array = items.Get("enum"), true
		}
	}
	if enum == nil || enum.Kind != jsonval.Array {
		return nil
	}
	v := &jsonval.Value{Kind: jsonval.String, Str: "toolgate-not-in-enum"}
	for _, e := range enum.Items {
		if jsonval.Equal(e, v) {
			return nil
		}
	}
	if array {
		return &jsonval.Value{Kind: jsonval.Array, Items: []*jsonval.Value{v}}
	}
	return v
}

// TestBFCLMutations: a call's mutations drop each required member it has,
// give each member a value of another type, put each enum member (of the
// value or of an array's items) outside its enum, and add an unknown
// member.
func TestBFCLMutations(t *testing.T) {
	tool := `{"name":"f","parameters":{"type":"object","properties":{` +
		`"s":{"type":"string","enum":["a","b"]},"n":{"type":"integer"},` +
		`"l":{"type":"array","items":{"type":"string","enum":["x"]}},"o":{"type":"object"},"r":{"type":"string"}},` +
		`"required":["s","n","r"]}}`
	got := bfclMutations(t, 7, "id", []byte(tool), []byte(`{"s":"a","n":1,"b":true,"o":{}}`))
	want := []string{
		`the ground truth {"s":"a","n":1,"b":true,"o":{}}`,
		`required "s" dropped {"n":1,"b":true,"o":{}}`,
		`required "n" dropped {"s":"a","b":true,"o":{}}`,
		`"s" as number {"s":1,"n":1,"b":true,"o":{}}`,
		`"n" as string {"s":"a","n":"1","b":true,"o":{}}`,
		`"b" as string {"s":"a","n":1,"b":"true","o":{}}`,
		`"o" as array {"s":"a","n":1,"b":true,"o":[]}`,
		`"s" outside its enum {"s":"toolgate-not-in-enum","n":1,"b":true,"o":{}}`,
		`"l" outside its enum {"s":"a","n":1,"b":true,"o":{},"l":["toolgate-not-in-enum"]}`,
		`an unknown member added {"s":"a","n":1,"b":true,"o":{},"toolgate_unknown_member":1}`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d inputs, want %d: %v", len(got), len(want), got)
	}
	for i, in := range got {
		if s := fmt.Sprintf("%s %s", in.what, in.input); s != want[i] || in.tool != 7 || in.call != "id" {
			t.Errorf("input %d = %s (tool %d, call %s), want %s", i, s, in.tool, in.call, want[i])
		}
	}
}
