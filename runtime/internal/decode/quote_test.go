package decode

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/internal/violation"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

func TestShowName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"orderId", "orderId"},
		{"line_items", "line_items"},
		{"größe", "größe"},
		{"$ref", "$ref"},
		{"", `""`},
		{"a.b", `"a.b"`},
		{"a b", `"a b"`},
		{"orderId\u200b", `"orderId\u200b"`},
		{"e\u0301", "\"e\u0301\""}, // a combining mark shows, on the e
	}
	for _, tt := range tests {
		name, _ := json.Marshal(tt.in)
		vs := violations(t, `{`+string(name)+`:"v"}`, func(d *Decoder) {
			d.Pattern("/p", "^x$", d.Quote(d.R.String()))
		})
		if len(vs) != 1 || !strings.HasPrefix(vs[0].Message, tt.want+" must match") {
			t.Errorf("name %q shown in %v, want %q", tt.in, vs, tt.want)
		}
	}
}

// allocated returns the bytes f allocates, on average over n calls.
func allocated(n int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(n)
}

// TestViolationCostsWhatIsShown: recording a pattern violation for a
// 1 MiB string, through the decoder, allocates O(shown).
func TestViolationCostsWhatIsShown(t *testing.T) {
	data := []byte(`{"v":"` + strings.Repeat("x", 1<<20-16) + `"}`)
	var d Decoder
	n := allocated(10, func() {
		d.Reset("t", data)
		d.Object()
		d.R.ObjectStart()
		d.R.NextMember()
		d.PushName()
		s := d.R.String()
		d.Pattern("/properties/v/pattern", "^[0-9]+$", violation.Quote(s))
		d.Pop()
		d.R.NextMember()
	})
	if n > 4096 {
		t.Errorf("%d bytes allocated to refuse a 1 MiB value", n)
	}
	t.Logf("%d bytes allocated to refuse a 1 MiB value", n)
	if err := d.Finish(); err == nil || !strings.Contains(err.Error(), "received "+strings.Repeat("x", violation.MaxEcho)+"…") {
		t.Errorf("error %v", err)
	}
}

// TestNamesQuotedInMessages: a name that is not a plain word is quoted and
// its invisible characters escaped, in the message; the pointer keeps the
// name itself.
func TestNamesQuotedInMessages(t *testing.T) {
	tests := []struct{ data, ptr, msg string }{
		{`{"orderId\u200b":1}`, "/orderId\u200b", `"orderId\u200b" is not a known field; the fields are a`},
		{`{"":1}`, "/", `"" is not a known field; the fields are a`},
		{`{"a.b":{"c d":1}}`, "/a.b/c d", `"a.b"."c d" is not a known field; the fields are a`},
	}
	for _, tt := range tests {
		_, err := readUnknown(t, tt.data)
		e, ok := toolErr(err)
		if !ok || len(e.Violations()) != 1 {
			t.Fatalf("%s: %v", tt.data, err)
		}
		if v := e.Violations()[0]; v.InstancePath != tt.ptr || v.Message != tt.msg {
			t.Errorf("%s: (%q, %q), want (%q, %q)", tt.data, v.InstancePath, v.Message, tt.ptr, tt.msg)
		}
	}
}

// TestPathBounded: a deep path through long names is cut at eagerMaxPathText
// bytes, marked, in the pointer and the message; the error's JSON stays
// within toolerr.MaxJSONBytes.
func TestPathBounded(t *testing.T) {
	name := strings.Repeat("n", 500)
	data := strings.Repeat(`{"`+name+`":`, 60) + `{}` + strings.Repeat("}", 60)
	var d Decoder
	d.Reset("t", []byte(data))
	d.Object()
	var descend func()
	descend = func() {
		d.R.ObjectStart()
		for {
			if _, ok := d.R.NextMember(); !ok {
				return
			}
			d.PushName()
			descend()
			for range toolerr.MaxViolations {
				d.MaxLength("/maxLength", 1, 2)
			}
			d.Pop()
		}
	}
	descend()
	err := d.Finish()
	e, ok := toolErr(err)
	if !ok || len(e.Violations()) != toolerr.MaxViolations {
		t.Fatalf("error %v", err)
	}
	v := e.Violations()[0]
	if len(v.InstancePath) > eagerMaxPathText+len("/")+len(name)+len("/…") || !strings.HasSuffix(v.InstancePath, "/…") {
		t.Errorf("pointer of %d bytes: %.80q…", len(v.InstancePath), v.InstancePath)
	}
	if !strings.Contains(v.Message, "… must be at most 1 character long") || len(v.Message) > 2*eagerMaxPathText {
		t.Errorf("message of %d bytes: %.80q", len(v.Message), v.Message)
	}
	out, _ := json.Marshal(e)
	if len(out) > toolerr.MaxJSONBytes {
		t.Errorf("%d bytes of JSON", len(out))
	}
	t.Logf("%d bytes of arguments, 60 deep: %d violations, %d bytes of JSON", len(data), len(e.Violations()), len(out))
}

// TestSensitiveScope: between BeginSensitive and EndSensitive no value is
// repeated and undeclared names read are "*", in pointers and messages,
// and a duplicate of one is refused without its name; declared names and
// the values after EndSensitive are shown.
func TestSensitiveScope(t *testing.T) {
	var d Decoder
	d.Reset("t", []byte(`{"creds":{"password":"Hunter2","Key-SECRET":{"x":"Hunter2"}},"after":"shown"}`))
	d.Object()
	d.R.ObjectStart()
	d.R.NextMember() // creds
	d.PushName()
	d.BeginSensitive()
	mark := d.ObjectNames()
	d.R.ObjectStart()
	d.R.NextMember() // password: declared
	d.PushName()
	d.Pattern("/pattern", "^x$", violation.Quote(d.R.String()))
	d.Pop()
	name, _ := d.R.NextMember() // Key-SECRET: undeclared
	d.PushName()
	if !d.Extra(mark, name) {
		t.Fatal("first undeclared name refused")
	}
	d.R.ObjectStart()
	d.R.NextMember() // x
	d.PushName()
	d.Enum("/enum", "a", violation.Quote(d.R.String()))
	d.Pop()
	d.R.NextMember()
	d.Pop()
	d.R.NextMember()
	d.EndObject(mark)
	d.EndSensitive()
	d.Pop()
	d.R.NextMember() // after
	d.PushName()
	d.Const("/const", "x", violation.Quote(d.R.String()))
	d.Pop()
	d.R.NextMember()
	e, ok := toolErr(d.Finish())
	if !ok || len(e.Violations()) != 3 {
		t.Fatalf("error %v", e)
	}
	want := []struct{ ptr, msg string }{
		{"/creds/password", "creds.password must match the pattern ^x$"},
		{"/creds/*/x", "creds.*.x must be one of a"},
		{"/after", "after must be x; received shown"},
	}
	for i, w := range want {
		if v := e.Violations()[i]; v.InstancePath != w.ptr || v.Message != w.msg {
			t.Errorf("violation %d: (%q, %q), want (%q, %q)", i, v.InstancePath, v.Message, w.ptr, w.msg)
		}
	}

	d.Reset("t", []byte(`{"m":{"Key-SECRET":1,"Key-SECRET":2}}`))
	d.Object()
	d.R.ObjectStart()
	d.R.NextMember()
	d.PushName()
	d.BeginSensitive()
	mark = d.ObjectNames()
	d.R.ObjectStart()
	for {
		name, ok := d.R.NextMember()
		if !ok {
			break
		}
		d.PushName()
		if d.Extra(mark, name) {
			d.R.Skip()
		}
		d.Pop()
	}
	err := d.Finish()
	if err == nil || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), "duplicate member name") {
		t.Errorf("duplicate in a sensitive map: %v", err)
	}
	if !utf8.ValidString(err.Error()) {
		t.Error("invalid UTF-8")
	}

	// A duplicate the reader finds while skipping a sensitive value (kept
	// raw) is not named either; one outside a sensitive value is.
	for _, tt := range []struct {
		sensitive bool
		want      string
	}{{true, hiddenDuplicate}, {false, `duplicate member name "Key-SECRET"`}} {
		d.Reset("t", []byte(`{"raw":{"x":[{"Key-SECRET":1,"Key-SECRET":2}]},"after":1}`))
		d.Object()
		d.R.ObjectStart()
		d.R.NextMember()
		d.PushName()
		if tt.sensitive {
			d.BeginSensitive()
		}
		d.Raw()
		if tt.sensitive {
			d.EndSensitive()
		}
		d.Pop()
		for {
			if _, ok := d.R.NextMember(); !ok {
				break
			}
			d.R.Skip()
		}
		e, ok := toolErr(d.Finish())
		if !ok || e.Code != toolerr.InvalidJSON || e.Reason != tt.want {
			t.Errorf("sensitive %v: %v, want reason %q", tt.sensitive, e, tt.want)
		}
	}
}
