package tgimpl

import "testing"

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
