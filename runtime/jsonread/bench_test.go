package jsonread

import (
	"encoding/json"
	"testing"
)

// smallCall is a typical flat tool call.
const smallCall = `{"order_id":"ORD-2024-001893","amount":129.99,"currency":"EUR",` +
	`"reason":"Customer reported the parcel arrived damaged; photos attached.",` +
	`"notify_customer":true,"priority":3,"tags":["damaged","priority"]}`

// nestedCall is a tool call with nested objects and arrays of objects.
const nestedCall = `{"dispatch_id":"DSP-77120","depot":{"code":"LHR-3","address":{"line1":"Unit 4, Skyport Drive",` +
	`"city":"London","postcode":"UB7 0LB","country":"GB"}},"window":{"from":"2025-03-14T08:00:00Z",` +
	`"to":"2025-03-14T12:00:00Z"},"stops":[{"order_id":"ORD-1","lat":51.4700,"lng":-0.4543,"items":[` +
	`{"sku":"A-100","qty":2,"weight_kg":1.25},{"sku":"B-220","qty":1,"weight_kg":12.5}]},{"order_id":"ORD-2",` +
	`"lat":51.5072,"lng":-0.1276,"items":[{"sku":"C-310","qty":10,"weight_kg":0.2}],"notes":"Ring twice \u2014 ` +
	`side door"}],"vehicle":{"type":"van","capacity_kg":1200,"refrigerated":false},"priority":"high"}`

func BenchmarkValid(b *testing.B) {
	for _, in := range []struct{ name, data string }{
		{"small", smallCall},
		{"nested", nestedCall},
		{"wide", members(29, `"a29":29`)}, // 30 members, as many real tools take
	} {
		data := []byte(in.data)
		b.Run(in.name+"/jsonread", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if Valid(data, Limits{}) != nil {
					b.Fatal("invalid")
				}
			}
		})
		b.Run(in.name+"/encoding_json", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if !json.Valid(data) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

// BenchmarkTypedRead decodes smallCall through the typed API, as generated
// code does.
func BenchmarkTypedRead(b *testing.B) {
	data := []byte(smallCall)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var sink int
	for b.Loop() {
		var r Reader
		r.Reset(data, Limits{})
		r.ObjectStart()
		for name, ok := r.NextMember(); ok; name, ok = r.NextMember() {
			switch string(name) {
			case "order_id", "currency", "reason":
				sink += len(r.String())
			case "amount", "priority":
				sink += len(r.Number())
			case "notify_customer":
				r.Bool()
			default:
				r.Skip()
			}
		}
		r.Finish()
		if r.Err() != nil {
			b.Fatal(r.Err())
		}
	}
	_ = sink
}
