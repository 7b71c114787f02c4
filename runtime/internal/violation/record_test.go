package violation

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// doc is the input the paths below point into.
var doc = []byte(`{"line_items":[{"sku":1}],"a/b~c":2,"two words":3,"` + strings.Repeat("é", maxName+2) + `":4}`)

// name is the Seg of the member name s in doc.
func name(t *testing.T, s string) Seg {
	t.Helper()
	i := bytes.Index(doc, []byte(`"`+s+`"`))
	if i < 0 {
		t.Fatalf("no member %q", s)
	}
	return Seg(i)
}

// index is the Seg of array index i.
func index(i int) Seg { return Seg(-i - 1) }

// varints returns the two numbers a counted or unique kind shows.
func varints(a, b int) []byte {
	return binary.AppendVarint(binary.AppendVarint(nil, int64(a)), int64(b))
}

// addRecord adds to r a violation of kind k at the path segs (the names of
// the segments whose bit is set in hidden not shown), showing shown.
func addRecord(r *Recorder, k Kind, sp, arg string, segs []Seg, hidden uint64, ofName bool, shown []byte) {
	at := r.TextLen()
	b := r.Tail()
	if ofName {
		b = AppendOfName(b)
	}
	r.Took(AppendPath(b, doc, segs, hidden))
	r.Add(k, sp, arg, at)
	if len(shown) > 0 {
		r.Shows(r.Took(append(r.Tail(), shown...)))
	}
}

// toolErr returns err as callers read it.
func toolErr(t *testing.T, err error) *toolerr.Error {
	t.Helper()
	var e *toolerr.Error
	if !errors.As(err, &e) {
		t.Fatalf("%v is no *toolerr.Error", err)
	}
	return e
}

// TestRender: each form of message, and each kind of path segment, renders
// its pointer and its message.
func TestRender(t *testing.T) {
	long := strings.Repeat("é", maxName)
	for _, tt := range []struct {
		name            string
		kind            Kind
		arg             string
		segs            func(t *testing.T) []Seg
		hidden          uint64
		ofName          bool
		shown           []byte
		keyword         string
		pointer, prefix string
	}{
		{name: "plain, shown", kind: Enum, arg: "a, b", segs: func(t *testing.T) []Seg { return []Seg{name(t, "line_items"), index(0), name(t, "sku")} },
			shown: []byte("c"), keyword: "enum", pointer: "/line_items/0/sku", prefix: "line_items[0].sku must be one of a, b; received c"},
		{name: "plain, not shown", kind: Pattern, arg: "^x$", segs: func(t *testing.T) []Seg { return []Seg{name(t, "two words")} },
			keyword: "pattern", pointer: "/two words", prefix: `"two words" must match the pattern ^x$`},
		{name: "top level", kind: False, segs: func(*testing.T) []Seg { return nil },
			keyword: "false", pointer: "", prefix: "the arguments is not allowed"},
		{name: "required, nested", kind: Required, arg: "sku", segs: func(t *testing.T) []Seg { return []Seg{name(t, "line_items"), index(0)} },
			keyword: "required", pointer: "/line_items/0", prefix: "line_items[0].sku is required"},
		{name: "required, top level", kind: Required, arg: "orderId", segs: func(*testing.T) []Seg { return nil },
			keyword: "required", pointer: "", prefix: "orderId is required"},
		{name: "typed", kind: Type, arg: "integer", segs: func(t *testing.T) []Seg { return []Seg{name(t, "a/b~c")} },
			shown: []byte("a string"), keyword: "type", pointer: "/a~1b~0c", prefix: `"a/b~c" must be an integer; received a string`},
		{name: "counted, plural", kind: MinLength, segs: func(t *testing.T) []Seg { return []Seg{name(t, "sku")} },
			shown: varints(3, 1), keyword: "minLength", pointer: "/sku", prefix: "sku must be at least 3 characters long; received 1 character"},
		{name: "counted, bare count", kind: MaxItems, segs: func(t *testing.T) []Seg { return []Seg{name(t, "line_items")} },
			shown: varints(1, 2), keyword: "maxItems", pointer: "/line_items", prefix: "line_items must have at most 1 item; received 2"},
		{name: "counted, upper length", kind: MaxLength, segs: func(t *testing.T) []Seg { return []Seg{name(t, "sku")} },
			shown: varints(1, 2), keyword: "maxLength", pointer: "/sku", prefix: "sku must be at most 1 character long; received 2 characters"},
		{name: "counted, lower count", kind: MinItems, segs: func(t *testing.T) []Seg { return []Seg{name(t, "line_items")} },
			shown: varints(2, 1), keyword: "minItems", pointer: "/line_items", prefix: "line_items must have at least 2 items; received 1"},
		{name: "unique", kind: UniqueItems, segs: func(t *testing.T) []Seg { return []Seg{name(t, "line_items")} },
			shown: varints(0, 2), keyword: "uniqueItems", pointer: "/line_items", prefix: "line_items must not contain duplicate items; items 0 and 2 are equal"},
		{name: "hidden name", kind: False, segs: func(t *testing.T) []Seg { return []Seg{name(t, "line_items"), name(t, "sku")} }, hidden: 2,
			keyword: "false", pointer: "/line_items/*", prefix: "line_items.* is not allowed"},
		{name: "of the name", kind: PropertyNames, arg: " must be short", segs: func(t *testing.T) []Seg { return []Seg{name(t, "sku")} }, ofName: true,
			keyword: "propertyNames", pointer: "/sku", prefix: "member name sku must be short"},
		{name: "cut name", kind: False, segs: func(t *testing.T) []Seg { return []Seg{name(t, strings.Repeat("é", maxName+2))} },
			keyword: "false", pointer: "/" + long + "…", prefix: long + "… is not allowed"},
	} {
		var r Recorder
		addRecord(&r, tt.kind, "/sp", tt.arg, tt.segs(t), tt.hidden, tt.ofName, tt.shown)
		vs := toolErr(t, r.Refuse("t")).Violations()
		if len(vs) != 1 {
			t.Fatalf("%s: %d violations", tt.name, len(vs))
		}
		v := vs[0]
		if v.Keyword != tt.keyword || v.SchemaPath != "/sp" || v.InstancePath != tt.pointer || v.Message != tt.prefix {
			t.Errorf("%s: %+v\nwant keyword %s, pointer %q, message %q", tt.name, v, tt.keyword, tt.pointer, tt.prefix)
		}
	}
}

// TestAppendPathCut: a path whose names show more than maxPathText bytes
// is cut, in the pointer as in the subject, and each record's lengths fit
// lenBits however long the path and the value shown.
func TestAppendPathCut(t *testing.T) {
	seg := name(t, strings.Repeat("é", maxName+2))
	segs := make([]Seg, 64)
	for i := range segs {
		segs[i] = seg
	}
	got := strings.Repeat("é", MaxShown)
	var r Recorder
	at := r.TextLen()
	r.Took(AppendPath(r.Tail(), doc, segs, 0))
	r.Add(Enum, "/enum", "a", at)
	r.Shows(r.Took(AppendShown(r.Tail(), got)))
	rec := r.inline[0]
	if rec.pathLen() >= lenMask || rec.shownLen() != MaxShown+len("…") || rec.kind() != Enum {
		t.Fatalf("record lengths %d, %d, kind %d", rec.pathLen(), rec.shownLen(), rec.kind())
	}
	v := toolErr(t, r.Refuse("t")).Violations()[0]
	if !strings.HasSuffix(v.InstancePath, "/…") || len(v.InstancePath) > maxPathText+len("/")+2*maxName+len("…/…") {
		t.Errorf("pointer of %d bytes: %.40q", len(v.InstancePath), v.InstancePath)
	}
	if !strings.Contains(v.Message, "… must be one of a; received "+got[:MaxShown]+"…") || len(v.Message) > 2*maxPathText+MaxShown+64 {
		t.Errorf("message of %d bytes: %.40q", len(v.Message), v.Message)
	}
}

// TestRefusalBlockSizes: the blocks are of the allocator's size classes
// they were sized for.
func TestRefusalBlockSizes(t *testing.T) {
	for _, b := range []struct {
		name       string
		size, want uintptr
	}{
		{"one record, 24 bytes", unsafe.Sizeof(refusal[inlineBlock[[1]record, [24]byte], *inlineBlock[[1]record, [24]byte]]{}), 80},
		{"one record, 56 bytes", unsafe.Sizeof(refusal[inlineBlock[[1]record, [56]byte], *inlineBlock[[1]record, [56]byte]]{}), 112},
		{"two records, 56 bytes", unsafe.Sizeof(refusal[inlineBlock[[2]record, [56]byte], *inlineBlock[[2]record, [56]byte]]{}), 144},
		{"three records", unsafe.Sizeof(refusal[inlineBlock[[inlineRecords]record, [inlineText]byte], *inlineBlock[[inlineRecords]record, [inlineText]byte]]{}), 192},
	} {
		if b.size != b.want {
			t.Errorf("a refusal of %s takes %d bytes, want %d", b.name, b.size, b.want)
		}
	}
}

// inline names the inline block of n records and size bytes of copies.
func inline(n, size int) string {
	return fmt.Sprintf("inlineBlock[[%d]github.com/toolgate/toolgate/runtime/internal/violation.record,[%d]uint8]", n, size)
}

// TestRefuse: every block a refusal takes (one to three records with short
// or long copies, more records, a truncated list) keeps every violation in
// order and reads as its *toolerr.Error: the same one on every errors.As,
// with the same text and JSON; and it outlives the Recorder's reuse.
func TestRefuse(t *testing.T) {
	for _, tt := range []struct {
		name      string
		n         int
		shown     string
		truncate  bool
		wantBlock string
	}{
		{"one short", 1, "x", false, inline(1, 24)},
		{"one longer", 1, strings.Repeat("x", 30), false, inline(1, 56)},
		{"two", 2, "x", false, inline(2, 56)},
		{"three", 3, "x", false, inline(3, 72)},
		{"three long", 3, strings.Repeat("x", 30), false, "manyRecords"},
		{"four", 4, "x", false, "manyRecords"},
		{"truncated", 2, "x", true, "manyRecords"},
	} {
		var r Recorder
		for i := range tt.n {
			addRecord(&r, Enum, "/enum", "a", []Seg{name(t, "sku"), index(i)}, 0, false, []byte(tt.shown))
		}
		if tt.truncate {
			r.Truncate()
		}
		if r.Len() != tt.n || r.Truncated() != tt.truncate {
			t.Fatalf("%s: %d records, truncated %v", tt.name, r.Len(), r.Truncated())
		}
		err := r.Refuse("refund_order")
		if block := fmt.Sprintf("%T", err); !strings.Contains(block, tt.wantBlock) {
			t.Errorf("%s: a %s, want a block of %s", tt.name, block, tt.wantBlock)
		}
		r.Reset()
		addRecord(&r, False, "/x", "", nil, 0, false, []byte(strings.Repeat("y", 80)))
		e := toolErr(t, err)
		if again := toolErr(t, err); again != e {
			t.Errorf("%s: errors.As gave two errors", tt.name)
		}
		if e.Code != toolerr.InvalidArguments || e.Tool != "refund_order" || e.Truncated != tt.truncate || len(e.Violations()) != tt.n {
			t.Fatalf("%s: %#v", tt.name, e)
		}
		for i, v := range e.Violations() {
			if want := "sku[" + string(rune('0'+i)) + "] must be one of a; received " + tt.shown; v.Message != want {
				t.Errorf("%s: violation %d reads %q, want %q", tt.name, i, v.Message, want)
			}
		}
		if err.Error() != e.Error() {
			t.Errorf("%s: text %q, want %q", tt.name, err.Error(), e.Error())
		}
		got, _ := json.Marshal(err)
		want, _ := json.Marshal(e)
		if string(got) != string(want) {
			t.Errorf("%s: JSON %s, want %s", tt.name, got, want)
		}
	}
}

// TestAdopt: adopted violations keep their kind, pointer, argument and
// value at the prefix's path, up to the limit, past which the Recorder is
// truncated, as it is when the one adopted is.
func TestAdopt(t *testing.T) {
	for _, tt := range []struct {
		name      string
		n, max    int
		truncated bool
		want      int
	}{
		{"all", 2, 10, false, 2},
		{"up to the limit", 3, 2, true, 2},
		{"of a truncated one", 1, 10, true, 1},
	} {
		var c Recorder
		for i := range tt.n {
			addRecord(&c, Enum, "/enum", "a", []Seg{index(i)}, 0, false, []byte("x"))
		}
		if tt.truncated && tt.n <= tt.max {
			c.Truncate()
		}
		var r Recorder
		r.Adopt(&c, AppendName(AppendPath(nil, doc, []Seg{name(t, "line_items")}, 0), "a b"), tt.max)
		vs := toolErr(t, r.Refuse("t")).Violations()
		if len(vs) != tt.want || r.Truncated() != tt.truncated {
			t.Fatalf("%s: %d violations, truncated %v", tt.name, len(vs), r.Truncated())
		}
		for i, v := range vs {
			wantPointer := "/line_items/a b/" + string(rune('0'+i))
			wantMessage := `line_items."a b"[` + string(rune('0'+i)) + "] must be one of a; received x"
			if v.InstancePath != wantPointer || v.Message != wantMessage || v.SchemaPath != "/enum" {
				t.Errorf("%s: %+v", tt.name, v)
			}
		}
	}
}
