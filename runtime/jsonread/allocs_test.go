package jsonread

import "testing"

func TestZeroAllocs(t *testing.T) {
	data := []byte(smallCall)
	type args struct {
		orderID  []byte
		amount   []byte
		currency []byte
		reason   []byte
		notify   bool
		priority []byte
		tags     int
	}
	var a args
	decode := func() {
		var r Reader
		r.Reset(data, DefaultLimits)
		r.ObjectStart()
		for name, ok := r.NextMember(); ok; name, ok = r.NextMember() {
			switch string(name) {
			case "order_id":
				a.orderID = r.String()
			case "amount":
				a.amount = r.Number()
			case "currency":
				a.currency = r.String()
			case "reason":
				a.reason = r.String()
			case "notify_customer":
				a.notify = r.Bool()
			case "priority":
				a.priority = r.Number()
			case "tags":
				r.ArrayStart()
				for r.NextItem() {
					r.String()
					a.tags++
				}
			default:
				r.Skip()
			}
		}
		r.Finish()
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
	}
	if n := testing.AllocsPerRun(100, decode); n != 0 {
		t.Errorf("typed decode: %v allocs per run, want 0", n)
	}
	for _, in := range []string{smallCall, nestedCall, members(31, `"z":[1,2,{"y":null}]`)} {
		data := []byte(in)
		if n := testing.AllocsPerRun(100, func() {
			if err := Valid(data, Limits{}); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("Valid(%.20q...): %v allocs per run, want 0", in, n)
		}
	}
	// A reused Reader keeps its scratch buffers: escapes cost nothing after
	// the first run.
	escaped := []byte(`{"n\u0061me":"v\u00e9lue","k":{"\u0078":"\ud83d\ude00"}}`)
	var r Reader
	if n := testing.AllocsPerRun(100, func() {
		r.Reset(escaped, Limits{})
		r.ObjectStart()
		r.NextMember()
		r.String()
		r.NextMember()
		r.Skip()
		r.NextMember()
		r.Finish()
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
	}); n != 0 {
		t.Errorf("reused Reader with escapes: %v allocs per run, want 0", n)
	}
}
