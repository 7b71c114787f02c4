package decode

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// walkObjects reads the object d is at as generated decode loops do: it
// descends into every member whose value is an object, and hands every
// other member, with its object's mark, to member (which consumes the
// value).
func walkObjects(d *Decoder, member func(mark int, name []byte)) {
	mark := d.ObjectNames()
	d.R.ObjectStart()
	for {
		name, ok := d.R.NextMember()
		if !ok {
			break
		}
		d.PushName()
		if d.R.Peek() == jsonread.Object {
			walkObjects(d, member)
		} else {
			member(mark, name)
		}
		d.Pop()
	}
	d.EndObject(mark)
}

// readUnknown reads an object whose members are all undeclared, as a
// closed object's decode loop does, and returns the decode's error.
func readUnknown(t *testing.T, data string) (*Decoder, error) {
	t.Helper()
	var d Decoder
	d.Reset("t", []byte(data))
	if d.Object() {
		walkObjects(&d, func(mark int, name []byte) {
			d.Additional("/additionalProperties", mark, name, "a")
			if len(d.sets) > 1 {
				t.Errorf("%d name sets for one object", len(d.sets))
			}
		})
	}
	return &d, d.Finish()
}

func TestUndeclaredDuplicates(t *testing.T) {
	members := func(n int, extra ...string) string {
		parts := make([]string, 0, n+len(extra))
		for i := range n {
			parts = append(parts, fmt.Sprintf(`"u%d":0`, i))
		}
		parts = append(parts, extra...)
		return "{" + strings.Join(parts, ",") + "}"
	}
	tests := []struct {
		name string
		data string
		code toolerr.Code
	}{
		{"few, distinct", members(3), toolerr.InvalidArguments},
		{"few, repeated", members(3, `"u1":1`), toolerr.InvalidJSON},
		{"few, repeated escaped", members(3, `"\u0075\u0031":1`), toolerr.InvalidJSON},
		{"at the indexing threshold, repeated", members(linearNames, `"u0":1`), toolerr.InvalidJSON},
		{"many, distinct", members(5000), toolerr.InvalidArguments},
		{"many, repeated first", members(5000, `"u0":1`), toolerr.InvalidJSON},
		{"many, repeated last", members(5000, `"u4999":1`), toolerr.InvalidJSON},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := readUnknown(t, tt.data)
			e, ok := toolErr(err)
			if !ok || e.Code != tt.code {
				t.Fatalf("error %v, want code %s", err, tt.code)
			}
			if len(d.sets) != 0 || d.nUnknown != 0 || len(d.more) != 0 {
				t.Errorf("EndObject left %d sets and %d names", len(d.sets), d.nUnknown)
			}
			if tt.code == toolerr.InvalidArguments && (len(e.Violations()) != min(strings.Count(tt.data, ":"), toolerr.MaxViolations) || e.Truncated != (strings.Count(tt.data, ":") > toolerr.MaxViolations)) {
				t.Errorf("%d violations (truncated %v)", len(e.Violations()), e.Truncated)
			}
		})
	}
}

// TestNestedObjectsKeepTheirOwnNames: a name in an inner object is not a
// duplicate of the same name in the outer one, indexed or not.
func TestNestedObjectsKeepTheirOwnNames(t *testing.T) {
	for _, n := range []int{2, linearNames + 5} {
		var outer, inner []string
		for i := range n {
			outer = append(outer, fmt.Sprintf(`"u%d":0`, i))
			inner = append(inner, fmt.Sprintf(`"u%d":0`, i))
		}
		data := "{" + strings.Join(outer, ",") + `,"in":{` + strings.Join(inner, ",") + "}}"
		var d Decoder
		d.Reset("t", []byte(data))
		d.Object()
		walkObjects(&d, func(mark int, name []byte) {
			if d.Extra(mark, name) {
				d.R.Skip()
			}
		})
		if err := d.Finish(); err != nil {
			t.Errorf("%d names: %v", n, err)
		}
	}
}

// readStrings reads the object d is at, whose members are all strings, and
// appends their raw contents (views of the input or of the reader's
// scratch buffer) to raw and their String copies to got.
func readStrings(d *Decoder, raw [][]byte, got []string) ([][]byte, []string) {
	d.R.ObjectStart()
	for {
		if _, ok := d.R.NextMember(); !ok {
			return raw, got
		}
		s := d.R.String()
		raw = append(raw, s)
		got = append(got, d.String(s))
	}
}

// TestStringCopies: the first string of a call is copied alone and the
// others share one copy, escaped ones included; none changes when the
// caller reuses the input or the reader its scratch buffer; a string
// copied again out of order is right too.
func TestStringCopies(t *testing.T) {
	data := []byte(`{"a":"one","b":"x\u0041","c":"three","d":"\u00e9\n","e":""}`)
	var d Decoder
	raw := make([][]byte, 0, 5)
	got := make([]string, 0, 5)
	allocs := testing.AllocsPerRun(100, func() {
		d.Reset("t", data)
		raw, got = readStrings(&d, raw[:0], got[:0])
	})
	if allocs != 2 {
		t.Errorf("%v allocations for five strings, want 2", allocs)
	}
	again := d.String(raw[0])
	copy(data, strings.Repeat("#", len(data)))
	d.R.Reset([]byte(`"\u0042\u0042\u0042\u0042\u0042\u0042"`), jsonread.Limits{})
	d.R.String()
	if fmt.Sprint(got) != "[one xA three é\n ]" || again != "one" {
		t.Errorf("strings %q, %q after the input and the scratch buffer were overwritten", got, again)
	}
}

// TestStringCopiesOfALargeInput: past arenaMax bytes, the strings share
// copies of at most arenaMax bytes, and a string longer than a quarter of
// that has its own, so that a short value keeps at most arenaMax bytes
// alive.
func TestStringCopiesOfALargeInput(t *testing.T) {
	long := strings.Repeat("L", arenaMax/4+1)
	var b strings.Builder
	b.WriteString(`{"long":"` + long + `"`)
	const n = 3000
	for i := range n {
		fmt.Fprintf(&b, `,"m%d":"value %d"`, i, i)
	}
	b.WriteString("}")
	data := []byte(b.String())
	var d Decoder
	raw := make([][]byte, 0, n+1)
	got := make([]string, 0, n+1)
	allocs := testing.AllocsPerRun(10, func() {
		d.Reset("t", data)
		_, got = readStrings(&d, raw[:0], got[:0])
	})
	copy(data, strings.Repeat("#", len(data)))
	if len(got) != n+1 || got[0] != long || got[n] != fmt.Sprintf("value %d", n-1) {
		t.Fatalf("strings: %d, last %q", len(got), got[len(got)-1])
	}
	// The long value, then about 27 KB of short ones in two copies.
	if allocs != 3 {
		t.Errorf("%v allocations, want 3", allocs)
	}
	if cap(d.strs) > arenaMax {
		t.Errorf("a copy of %d bytes, want at most %d", cap(d.strs), arenaMax)
	}
}

// TestRuneCount: the word-at-a-time count agrees with utf8.RuneCount on
// valid UTF-8 of every length around the word size, ASCII, two-, three-
// and four-byte runes at every offset.
func TestRuneCount(t *testing.T) {
	runes := []string{"a", "é", "€", "𝄞", "\x00", "\u007f", "\u0080", "\U0010ffff"}
	for _, r := range runes {
		for _, fill := range []string{"", "x", "é"} {
			for n := range 20 {
				s := strings.Repeat(fill, n) + r + strings.Repeat(fill, n/2)
				if got, want := RuneCount([]byte(s)), utf8.RuneCountInString(s); got != want {
					t.Errorf("RuneCount(%q) = %d, want %d", s, got, want)
				}
			}
		}
	}
	if got := RuneCount(nil); got != 0 {
		t.Errorf("RuneCount(nil) = %d", got)
	}
}

// FuzzRuneCount compares RuneCount with utf8.RuneCount on the valid UTF-8
// strings the reader returns.
func FuzzRuneCount(f *testing.F) {
	f.Add([]byte("Happy birthday, Sam! Enjoy the tea."))
	f.Add([]byte("Grüße aus Köln, 東京, 𝄞𝄞"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !utf8.Valid(b) {
			return
		}
		if got, want := RuneCount(b), utf8.RuneCount(b); got != want {
			t.Fatalf("RuneCount(%q) = %d, want %d", b, got, want)
		}
	})
}

// TestStringCopiesOfDenseStrings: when strings fill more than half the
// rest of the input, the second block takes all the rest: three
// allocations at most, whatever the number of strings.
func TestStringCopiesOfDenseStrings(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"a":"first"`)
	var want []string
	for i := range 40 {
		v := strings.Repeat(string(rune('a'+i%26)), 30+i)
		want = append(want, v)
		fmt.Fprintf(&b, `,"m%d":"%s"`, i, v)
	}
	b.WriteString("}")
	data := []byte(b.String())
	var d Decoder
	raw := make([][]byte, 0, 41)
	got := make([]string, 0, 41)
	allocs := testing.AllocsPerRun(10, func() {
		d.Reset("t", data)
		_, got = readStrings(&d, raw[:0], got[:0])
	})
	copy(data, strings.Repeat("#", len(data)))
	if fmt.Sprint(got[1:]) != fmt.Sprint(want) || got[0] != "first" {
		t.Errorf("strings %q", got)
	}
	if allocs != 3 {
		t.Errorf("%v allocations, want 3", allocs)
	}
}

// TestStringCopiesAcrossResets: a Decoder reused for another call never
// writes into the block the strings of the call before share.
func TestStringCopiesAcrossResets(t *testing.T) {
	var d Decoder
	d.Reset("t", []byte(`{"a":"one","b":"two","c":"three"}`))
	_, first := readStrings(&d, nil, nil)
	d.Reset("t", []byte(`{"a":"ONE","b":"TWO","c":"THREE"}`))
	_, second := readStrings(&d, nil, nil)
	if fmt.Sprint(first) != "[one two three]" || fmt.Sprint(second) != "[ONE TWO THREE]" {
		t.Errorf("strings %q then %q", first, second)
	}
}
