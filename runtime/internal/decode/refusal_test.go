package decode

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/toolgate/toolgate/runtime/internal/violation"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// TestViolationsReadConcurrently: goroutines that read a refusal's
// violations at once (its text, JSON or list) all see the same list,
// rendered identically (run with -race).
func TestViolationsReadConcurrently(t *testing.T) {
	data := []byte(`{"a":"x","b":[1,2],"c":{"d":true}}`)
	for range 20 {
		var d Decoder
		d.Reset("t", data)
		d.Object()
		var next int
		var want []toolerr.Violation
		lazyWalk(&d, &next, &want)
		e, _ := toolErr(d.Finish())
		var wg sync.WaitGroup
		lists := make([][]toolerr.Violation, 8)
		for g := range lists {
			wg.Add(1)
			go func() {
				defer wg.Done()
				switch g % 3 {
				case 0:
					_ = e.Error()
				case 1:
					_, _ = json.Marshal(e)
				}
				lists[g] = e.Violations()
			}()
		}
		wg.Wait()
		for g, l := range lists {
			if len(l) != len(want) || &l[0] != &lists[0][0] {
				t.Fatalf("goroutine %d read a list of %d violations, not the shared one of %d", g, len(l), len(want))
			}
			for i := range want {
				if l[i] != want[i] {
					t.Errorf("goroutine %d, violation %d: %+v, want %+v", g, i, l[i], want[i])
				}
			}
		}
	}
}

// refuseUnknown decodes data, an object, recording its first n members
// as unknown ones, and returns the error.
func refuseUnknown(data []byte, n int) error {
	var d Decoder
	d.Reset("refund_order", data)
	d.Object()
	mark := d.ObjectNames()
	d.R.ObjectStart()
	for i := 0; ; i++ {
		name, ok := d.R.NextMember()
		if !ok {
			break
		}
		d.PushName()
		if i < n {
			d.Additional("/additionalProperties", mark, name, "a")
		} else {
			d.R.Skip()
		}
		d.Pop()
	}
	d.EndObject(mark)
	return d.Finish()
}

// TestRefusalAllocations: a refusal of up to three short violations costs
// one block, made when the decode ends, rendering nothing; a fourth grows
// the records (in a block of their own), and the refusal's block then
// holds them and a copy of the arena.
func TestRefusalAllocations(t *testing.T) {
	data := []byte(`{"orderId":"ord-1","amountInCents":0,"reason":"x","refundShipping":true}`)
	for _, tt := range []struct{ violations, allocs int }{{1, 1}, {3, 1}, {4, 3}} {
		got := testing.AllocsPerRun(20, func() {
			if refuseUnknown(data, tt.violations) == nil {
				t.Fatal("accepted")
			}
		})
		if int(got) != tt.allocs {
			t.Errorf("%d violations: %v allocations, want %d", tt.violations, got, tt.allocs)
		}
	}
}

// TestRefusalBlocks: each kind of refusal (one violation with a short
// copy, a longer one, a long one or one too long for any, two, three,
// four, past MaxViolations) reads as its *toolerr.Error: errors.As gives
// the same error on every call, and the refusal's text and JSON are that
// error's.
func TestRefusalBlocks(t *testing.T) {
	var many strings.Builder
	many.WriteString("{")
	for i := range toolerr.MaxViolations + 1 {
		fmt.Fprintf(&many, `"m%d":%d,`, i, i)
	}
	many.WriteString(`"last":0}`)
	for _, tt := range []struct {
		name       string
		data       string
		n          int
		violations int
		truncated  bool
	}{
		{"one short", `{"refundShipping":true}`, 1, 1, false},
		{"one longer", `{"refundShippingToTheCustomer":true}`, 1, 1, false},
		{"one long", `{"refundShippingToTheCustomerAndTheWarehouseOfOrigin":true}`, 1, 1, false},
		{"one longest", `{"` + strings.Repeat("x", 70) + `":true}`, 1, 1, false},
		{"one too long", `{"` + strings.Repeat("x", 100) + `":true}`, 1, 1, false},
		{"two", `{"refundShipping":true,"refundShippingToTheCustomer":true}`, 2, 2, false},
		{"three", `{"a":1,"b":2,"c":3}`, 3, 3, false},
		{"four", `{"a":1,"b":2,"c":3,"d":4}`, 4, 4, false},
		{"past the cap", many.String(), toolerr.MaxViolations + 2, toolerr.MaxViolations, true},
	} {
		err := refuseUnknown([]byte(tt.data), tt.n)
		e, ok := toolErr(err)
		if !ok || e.Code != toolerr.InvalidArguments || e.Tool != "refund_order" || len(e.Violations()) != tt.violations || e.Truncated != tt.truncated {
			t.Fatalf("%s: %#v", tt.name, err)
		}
		if again, _ := toolErr(err); again != e {
			t.Errorf("%s: errors.As gave two errors", tt.name)
		}
		if err.Error() != e.Error() {
			t.Errorf("%s: text %q, want %q", tt.name, err.Error(), e.Error())
		}
		got, _ := json.Marshal(err)
		want, _ := json.Marshal(e)
		if string(got) != string(want) {
			t.Errorf("%s: JSON %s, want %s", tt.name, got, want)
		}
		if v := e.Violations()[0]; v.Keyword != "additionalProperties" || v.SchemaPath != "/additionalProperties" || !strings.HasSuffix(v.Message, " is not a known field; the fields are a") {
			t.Errorf("%s: first violation %+v", tt.name, v)
		}
	}
}

// TestLongestRecord: a path of names of more than 128 four-byte runes, cut
// off at 1,024 bytes, and the longest value shown (a got longer than
// violation.MaxShown, from a caller other than a generated decoder) render
// as the eager code did, the value cut at MaxShown bytes (the record's
// lengths are checked in package violation).
func TestLongestRecord(t *testing.T) {
	name := strings.Repeat("😀", eagerMaxName+5)
	var doc strings.Builder
	for range 63 {
		doc.WriteString(`{"` + name + `":`)
	}
	doc.WriteString(`"v"` + strings.Repeat("}", 63))
	var d Decoder
	d.Reset("t", []byte(doc.String()))
	for d.R.Peek() == jsonread.Object {
		d.R.ObjectStart()
		d.R.NextMember()
		d.PushName()
	}
	d.R.String()
	got := strings.Repeat("é", violation.MaxShown)
	cut := got[:violation.MaxShown] + "…"
	want := eager(&d, "enum", "/enum", "the arguments", cut, " must be one of ", "a")
	d.Enum("/enum", "a", got)
	for range 63 {
		d.Pop()
		d.R.NextMember()
	}
	e := d.Finish()
	if te, ok := toolErr(e); !ok || len(te.Violations()) != 1 || te.Violations()[0] != want {
		t.Fatalf("%v: %+v\nwant %+v", e, te.Violations(), want)
	}
}

// toolErr returns err as callers read it: a *toolerr.Error, with errors.As.
func toolErr(err error) (*toolerr.Error, bool) {
	var e *toolerr.Error
	ok := errors.As(err, &e)
	return e, ok
}
