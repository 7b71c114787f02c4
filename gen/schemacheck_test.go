package gen

import (
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

func TestIsSchemaPlace(t *testing.T) {
	doc, err := jsonval.Parse([]byte(`{
		"properties": {"a": {"type": "x"}, "properties": {"items": 5}},
		"allOf": [3],
		"items": 4,
		"$defs": {"d": 1},
		"required": [1],
		"dependentRequired": {"a": 2},
		"x-ext": {"a": {}}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	doc7, err := jsonval.Parse([]byte(`{"items": [1, {"not": 2}], "definitions": {"d": 1}, "$defs": {"d": 1}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		doc    *jsonval.Value
		draft7 bool
		ptr    string
		want   bool
	}{
		{doc, false, "/properties/a", true},
		{doc, false, "/properties/a/type", false},
		{doc, false, "/properties", false},
		{doc, false, "/properties/properties", true},
		{doc, false, "/properties/properties/items", true},
		{doc, false, "/allOf/0", true},
		{doc, false, "/items", true},
		{doc, false, "/$defs/d", true},
		{doc, false, "/required/0", false},
		{doc, false, "/dependentRequired/a", false},
		{doc, false, "/x-ext/a", false},
		{doc, false, "/nowhere", false},
		{doc7, true, "/items/0", true},
		{doc7, true, "/items/1/not", true},
		{doc7, true, "/definitions/d", true},
		{doc7, true, "/$defs/d", false}, // not a draft-07 keyword
	}
	for _, tt := range tests {
		if got := isSchemaPlace(tt.doc, tt.ptr, tt.draft7); got != tt.want {
			t.Errorf("isSchemaPlace(%s, draft7 %v) = %v, want %v", tt.ptr, tt.draft7, got, tt.want)
		}
	}
}

func TestTakeOut(t *testing.T) {
	tests := []struct {
		name, doc, ptr string
		wantAt, want   string
	}{
		{"a keyword", `{"type":"object","properties":{"a":{"type":"integr","minimum":1}}}`, "/properties/a/type", "/properties/a/type", `{"type":"object","properties":{"a":{"minimum":1}}}`},
		{"a schema", `{"properties":{"a":5,"b":{}}}`, "/properties/a", "/properties/a", `{"properties":{"a":true,"b":{}}}`},
		{"an item: the keyword holding it", `{"required":["a",1],"type":"object"}`, "/required/1", "/required", `{"type":"object"}`},
		{"the root: nothing", `5`, "", "", `5`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := jsonval.Parse([]byte(tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			at, ok := takeOut(v, tt.ptr, false)
			if at != tt.wantAt || ok != (tt.wantAt != "") || string(v.Marshal()) != tt.want {
				t.Errorf("takeOut(%s) = %q, %v, leaving %s; want %q, leaving %s", tt.ptr, at, ok, v.Marshal(), tt.wantAt, tt.want)
			}
		})
	}
}
