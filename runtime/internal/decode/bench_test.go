package decode

import "testing"

// BenchmarkRefusal measures recording violations on a small call: one
// unknown member, or three keyword violations, against reading the same
// members without any.
func BenchmarkRefusal(b *testing.B) {
	data := []byte(`{"orderId":"ord-1","amountInCents":0,"reason":"x","refundShipping":true}`)
	run := func(b *testing.B, violate bool) {
		b.ReportAllocs()
		for b.Loop() {
			var d Decoder
			d.Reset("refund_order", data)
			d.Object()
			mark := d.ObjectNames()
			d.R.ObjectStart()
			for {
				name, ok := d.R.NextMember()
				if !ok {
					break
				}
				d.PushName()
				switch string(name) {
				case "orderId":
					s := d.R.String()
					if violate {
						d.Pattern("/properties/orderId/pattern", "^[A-Z][A-Z0-9-]{2,31}$", d.Quote(s))
					}
				case "amountInCents":
					raw := d.R.Number()
					if violate {
						d.Minimum("/properties/amountInCents/minimum", "1", d.Text(raw))
					}
				case "reason":
					s := d.R.String()
					if violate {
						d.Enum("/properties/reason/enum", "duplicate, fraudulent or requested_by_customer", d.Quote(s))
					}
				default:
					if violate {
						d.Additional("/additionalProperties", mark, name, "orderId, amountInCents, reason, notifyCustomer")
					} else {
						d.R.Skip()
					}
				}
				d.Pop()
			}
			d.EndObject(mark)
			if err := d.Finish(); (err != nil) != violate {
				b.Fatal(err)
			}
		}
	}
	b.Run("none", func(b *testing.B) { run(b, false) })
	b.Run("four", func(b *testing.B) { run(b, true) })
}
