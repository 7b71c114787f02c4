package gen_test

import (
	"fmt"
	"testing"
)

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
