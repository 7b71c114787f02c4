package tgimpl

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

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
		e := d.Finish().(*toolerr.Error)
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

// TestRefusalAllocations: a refusal of up to three short violations costs
// one block, rendering nothing; a fourth grows the records, which the
// error then finds outside its block.
func TestRefusalAllocations(t *testing.T) {
	data := []byte(`{"orderId":"ord-1","amountInCents":0,"reason":"x","refundShipping":true}`)
	for _, tt := range []struct{ violations, allocs int }{{1, 1}, {3, 1}, {4, 3}} {
		got := testing.AllocsPerRun(20, func() {
			var d Decoder
			d.Reset("refund_order", data)
			d.Object()
			mark := d.ObjectNames()
			d.R.ObjectStart()
			for n := 0; ; n++ {
				name, ok := d.R.NextMember()
				if !ok {
					break
				}
				d.PushName()
				if n < tt.violations {
					d.Additional("/additionalProperties", mark, name, "a")
				} else {
					d.R.Skip()
				}
				d.Pop()
			}
			d.EndObject(mark)
			if d.Finish() == nil {
				t.Fatal("accepted")
			}
		})
		if int(got) != tt.allocs {
			t.Errorf("%d violations: %v allocations, want %d", tt.violations, got, tt.allocs)
		}
	}
}

// TestLongestRecord: a path of names of maxName four-byte runes, cut off
// at maxPathText, and the longest value shown (a got longer than maxShown,
// from a caller other than a generated decoder) fit a record's lengths and
// render as the eager code did, the value cut at maxShown bytes.
func TestLongestRecord(t *testing.T) {
	name := strings.Repeat("😀", maxName+5)
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
	got := strings.Repeat("é", maxShown)
	cut := got[:maxShown] + "…"
	want := eager(&d, "enum", "/enum", "the arguments", cut, " must be one of ", "a")
	d.Enum("/enum", "a", got)
	rec := d.records[0]
	t.Logf("path %d bytes, value shown %d bytes", rec.pathLen(), rec.shownLen())
	if rec.pathLen() >= 1<<lenBits-1 || rec.shownLen() != len(cut) || rec.kind() != kEnum {
		t.Fatalf("record lengths %d, %d, kind %d", rec.pathLen(), rec.shownLen(), rec.kind())
	}
	for range 63 {
		d.Pop()
		d.R.NextMember()
	}
	e := d.Finish()
	if te, ok := e.(*toolerr.Error); !ok || len(te.Violations()) != 1 || te.Violations()[0] != want {
		t.Fatalf("%v: %+v\nwant %+v", e, te.Violations(), want)
	}
}
