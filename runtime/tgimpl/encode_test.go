package tgimpl

import (
	"encoding/json"
	"testing"
)

// TestMembers: each typed member helper appends what Member and the
// matching Append function append, separators included.
func TestMembers(t *testing.T) {
	b := []byte(`{`)
	b = StringMember(b, 0, "s", "a\"b")
	b = IntMember(b, 0, "i", -7)
	b = FloatMember(b, 0, "f", 0.1)
	b = BoolMember(b, 0, "b", true)
	b = append(b, '}')
	if want := `{"s":"a\"b","i":-7,"f":0.1,"b":true}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
}

// TestAppendRaw: raw JSON that is exactly one value is written as it is;
// anything else is written as notOneValue, so that none of its text
// reaches the document and the document is not JSON.
func TestAppendRaw(t *testing.T) {
	tests := []struct {
		raw  string
		want string // the member's value as written
	}{
		{`null`, `null`},
		{`{"a":1}`, `{"a":1}`},
		{` [1, "<a&b>"] `, ` [1, "<a&b>"] `},
		{`null,"ratio":5`, notOneValue},
		{``, notOneValue},
		{`1 2`, notOneValue},
		{`{"a":1}x`, notOneValue},
		{`{"a":1,"a":2}`, notOneValue},
		{`"\ud800"`, notOneValue},
		{`[`, notOneValue},
	}
	for _, tt := range tests {
		b := AppendRaw(Member([]byte(`{`), 0, "x"), json.RawMessage(tt.raw))
		b = append(b, '}')
		if want := `{"x":` + tt.want + `}`; string(b) != want {
			t.Errorf("AppendRaw(%q): %s, want %s", tt.raw, b, want)
		}
		if valid := json.Valid(b); valid != (tt.want != notOneValue) {
			t.Errorf("AppendRaw(%q): %s is valid JSON: %v", tt.raw, b, valid)
		}
	}
}
