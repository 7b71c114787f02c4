package integration_test

import (
	"context"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/opt"
)

// BenchmarkResultCheck measures what the gate adds to a typed result:
// "encode" is MarshalJSON alone (what sending any result costs), "check"
// is MarshalJSON plus the strict decode of the bytes that gate.BindTyped
// runs (ResultSpec.Encode then ResultSpec.Decode). "dispatch-unchecked"
// and "dispatch-typed" run a whole get_order_status call through a gate,
// bound with gate.Bind (the value returned as it is) and with
// gate.BindTyped (encoded and checked). Compare them in one run.
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
	for _, typed := range []bool{false, true} {
		var tool *gate.Tool
		if typed {
			tool = gate.BindTyped(generated.GetOrderStatusSpec, spec, gate.TypedBinding[generated.GetOrderStatusArgs, generated.GetOrderStatusResult]{
				Policy: gate.AllowAll[generated.GetOrderStatusArgs],
				Execute: func(context.Context, generated.GetOrderStatusArgs) (generated.GetOrderStatusResult, error) {
					return r, nil
				},
			})
		} else {
			tool = gate.Bind(generated.GetOrderStatusSpec, gate.Binding[generated.GetOrderStatusArgs]{
				Policy:  gate.AllowAll[generated.GetOrderStatusArgs],
				Execute: func(context.Context, generated.GetOrderStatusArgs) (any, error) { return r, nil },
			})
		}
		reg, err := gate.NewRegistry([]*gate.Tool{tool})
		if err != nil {
			b.Fatal(err)
		}
		name := "dispatch-unchecked"
		if typed {
			name = "dispatch-typed"
		}
		call := gate.Call{Name: generated.GetOrderStatusToolName, Args: []byte(`{"orderId":"A-19"}`), Complete: true}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := reg.Dispatch(context.Background(), gate.Caller{}, call); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
