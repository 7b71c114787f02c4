package decode

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/internal/violation"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// TestDecoderQuoteText: the decoder's Quote and Text, which write into its
// arena or view the input, render exactly as the package's Quote and Text,
// for values in the input and values in the reader's scratch buffer
// (escaped strings).
func TestDecoderQuoteText(t *testing.T) {
	values := []string{
		"GBP", "", "two words", "orderId\u200b", "línea", "a/b:c@d+e-f_g.h",
		strings.Repeat("a", violation.MaxEcho), strings.Repeat("a", violation.MaxEcho+1), strings.Repeat("é", violation.MaxEcho+1),
	}
	for _, v := range values {
		for _, escaped := range []bool{false, true} {
			lit := `"` + v + `"`
			if escaped {
				lit = `"\u0041` + v + `"`
			}
			data := []byte(`{"s":` + lit + `,"n":-12.5e3}`)
			var d Decoder
			d.Reset("t", data)
			d.R.ObjectStart()
			d.R.NextMember()
			s := d.R.String()
			if got, want := d.Quote(s), violation.Quote(s); got != want {
				t.Errorf("Decoder.Quote(%q) = %q, Quote = %q", s, got, want)
			}
			d.R.NextMember()
			raw := d.R.Number()
			if got, want := d.Text(raw), violation.Text(raw); got != want {
				t.Errorf("Decoder.Text(%q) = %q, Text = %q", raw, got, want)
			}
		}
	}
	long := []byte(`{"n":` + strings.Repeat("7", 200) + `}`)
	var d Decoder
	d.Reset("t", long)
	d.R.ObjectStart()
	d.R.NextMember()
	raw := d.R.Number()
	if got := d.Text(raw); got != strings.Repeat("7", violation.MaxEcho)+"…" {
		t.Errorf("Decoder.Text of 200 digits = %q", got)
	}
}

// TestArenaKeepsEveryViolation: the violations' pointers and messages view
// one arena that grows as they are written; every one still reads as
// written once the arena has moved, many times, and past MaxViolations the
// error says it is truncated.
func TestArenaKeepsEveryViolation(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	n := toolerr.MaxViolations + 8
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"m%02d%s":"v%d %s"`, i, strings.Repeat("x", i*3), i, strings.Repeat("y", i))
	}
	b.WriteString("}")
	var d Decoder
	d.Reset("t", []byte(b.String()))
	d.Object()
	d.R.ObjectStart()
	for {
		if _, ok := d.R.NextMember(); !ok {
			break
		}
		d.PushName()
		s := d.R.String()
		d.Pattern("/properties/m/pattern", "^v$", d.Quote(s))
		d.Pop()
	}
	err := d.Finish()
	e, ok := toolErr(err)
	if !ok || len(e.Violations()) != toolerr.MaxViolations || !e.Truncated {
		t.Fatalf("error %v", err)
	}
	for i, v := range e.Violations() {
		name := fmt.Sprintf("m%02d%s", i, strings.Repeat("x", i*3))
		want := name + ` must match the pattern ^v$; received ` + violation.Quote([]byte(fmt.Sprintf("v%d %s", i, strings.Repeat("y", i))))
		if v.InstancePath != "/"+name || v.Message != want || v.Keyword != "pattern" || v.SchemaPath != "/properties/m/pattern" {
			t.Errorf("violation %d = %+v, want %s: %s", i, v, "/"+name, want)
		}
	}
}

// TestValue: Value copies like String until the decode has a violation,
// then returns "" without copying: the refused call's result is dropped.
func TestValue(t *testing.T) {
	data := []byte(`{"a":"kept","b":"dropped"}`)
	var d Decoder
	d.Reset("t", data)
	d.R.ObjectStart()
	d.R.NextMember()
	if got := d.Value(d.R.String()); got != "kept" {
		t.Errorf("Value before any violation = %q", got)
	}
	d.R.NextMember()
	d.PushName()
	s := d.R.String()
	d.Pattern("/p", "^x$", d.Quote(s))
	d.Pop()
	if got := d.Value(s); got != "" {
		t.Errorf("Value after a violation = %q, want \"\"", got)
	}
	if got := View(s); got != "dropped" {
		t.Errorf("View = %q", got)
	}
}

// TestValueOwnsItsBytes: the strings Value returns do not change when the
// caller reuses the input buffer.
func TestValueOwnsItsBytes(t *testing.T) {
	data := []byte(`{"a":"kept"}`)
	var d Decoder
	d.Reset("t", data)
	d.R.ObjectStart()
	d.R.NextMember()
	got := d.Value(d.R.String())
	copy(data, `{"a":"LOST"}`)
	if got != "kept" {
		t.Errorf("Value = %q after the input was overwritten", got)
	}
}

func TestOwn(t *testing.T) {
	if got := Own([]int{}); got != nil {
		t.Errorf("Own(empty) = %#v, want nil", got)
	}
	var buf [4]int
	items := append(buf[:0], 1, 2, 3)
	got := Own(items)
	buf[0] = 9
	if fmt.Sprint(got) != "[1 2 3]" || len(got) != 3 {
		t.Errorf("Own = %v", got)
	}
}

// TestFirstDuplicateStrings: the direct comparison of plain strings finds
// the same first pair as the pairwise definition (Equal), escaped strings
// and lists past pairwiseItems included.
func TestFirstDuplicateStrings(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	forms := map[string][]string{
		"a": {`"a"`, `"\u0061"`},
		"b": {`"b"`},
		"é": {`"é"`, `"\u00e9"`},
		"":  {`""`},
	}
	keys := []string{"a", "b", "é", ""}
	for range 2000 {
		n := rng.IntN(2*pairwiseItems + 2)
		plain := rng.IntN(2) == 0
		var items [][]byte
		for range n {
			k := keys[rng.IntN(len(keys))]
			f := forms[k][0]
			if !plain {
				f = forms[k][rng.IntN(len(forms[k]))]
			}
			if rng.IntN(3) == 0 {
				f = fmt.Sprintf(`"%d"`, rng.IntN(1000))
			}
			items = append(items, []byte(f))
		}
		wi, wj, wdup := 0, 0, false
	search:
		for j := range items {
			for i := range j {
				if Equal(items[i], items[j]) {
					wi, wj, wdup = i, j, true
					break search
				}
			}
		}
		if i, j, dup := firstDuplicate(items); i != wi || j != wj || dup != wdup {
			t.Fatalf("%s: firstDuplicate = %d, %d, %v; pairwise = %d, %d, %v", items, i, j, dup, wi, wj, wdup)
		}
	}
}

// TestDrop: once the call is known to be refused (an array past maxItems),
// Value stops copying, with no violation recorded yet.
func TestDrop(t *testing.T) {
	var d Decoder
	d.Reset("t", []byte(`{"a":"x"}`))
	d.R.ObjectStart()
	d.R.NextMember()
	d.Drop()
	if got := d.Value(d.R.String()); got != "" {
		t.Errorf("Value after Drop = %q", got)
	}
	d.Reset("t", []byte(`{"a":"x"}`))
	d.R.ObjectStart()
	d.R.NextMember()
	if got := d.Value(d.R.String()); got != "x" {
		t.Errorf("Value after Reset = %q", got)
	}
}
