package generated_test

import (
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/opt"
)

// BenchmarkResultCheck measures what the gate adds to a typed result:
// "encode" is MarshalJSON alone (what sending any result costs), "check"
// is MarshalJSON plus the strict decode of the bytes that gate.BindTyped
// runs (ResultSpec.Encode then ResultSpec.Decode). Compare the two in one
// run.
func BenchmarkResultCheck(b *testing.B) {
	r := generated.GetOrderStatusResult{
		OrderID: "A-19", Status: generated.GetOrderStatusResultStatusDispatched, UpdatedAt: "2026-03-02T08:15:00Z",
		Carrier: opt.Some(generated.GetOrderStatusResultCarrierDpd), TrackingRef: opt.Some("DPD15501234"),
	}
	spec := generated.GetOrderStatusResultSpec
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := spec.Encode(r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			data, err := spec.Encode(r)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := spec.Decode(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
