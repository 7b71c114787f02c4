package integration_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/toolgate/toolgate/generated"
	tgopt "github.com/toolgate/toolgate/runtime/opt"
)

// TestNestedUnmarshalJSON: a nested type's UnmarshalJSON replaces the whole
// receiver when the value is accepted (a member absent from the input is
// zero, not left over) and leaves it exactly as it was when it is refused.
func TestNestedUnmarshalJSON(t *testing.T) {
	before := generated.CreateShipmentAddress{Name: "Old", Line1: "1 Old St", Line2: tgopt.Some("Flat 2"), City: "Oldtown", Postcode: "OL1", Country: "FR"}
	tests := []struct {
		name string
		data string
		want generated.CreateShipmentAddress // the receiver after the call
		ok   bool
	}{
		{"accepted", `{"name":"Ada","line1":"2 New Rd","city":"Leeds","postcode":"LS1 4AP","country":"GB"}`,
			generated.CreateShipmentAddress{Name: "Ada", Line1: "2 New Rd", City: "Leeds", Postcode: "LS1 4AP", Country: "GB"}, true},
		{"unknown member", `{"name":"Ada","line1":"2 New Rd","city":"Leeds","postcode":"LS1 4AP","country":"GB","floor":3}`, before, false},
		{"violation after members were set", `{"name":"Ada","line1":"2 New Rd","city":"Leeds","postcode":"LS1 4AP","country":"gb"}`, before, false},
		{"missing member", `{"name":"Ada"}`, before, false},
		{"not an object", `["Ada"]`, before, false},
		{"broken JSON", `{"name":"Ada",`, before, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := before
			err := got.UnmarshalJSON([]byte(tt.data))
			if (err == nil) != tt.ok {
				t.Fatalf("UnmarshalJSON(%s) = %v, want ok=%v", tt.data, err, tt.ok)
			}
			if got != tt.want {
				t.Errorf("receiver after UnmarshalJSON(%s) = %+v, want %+v", tt.data, got, tt.want)
			}
		})
	}
}

// TestNestedUnmarshalJSONAllocations: a nested decode allocates only what
// its value holds, the strings' copies (see TestDecodeAllocs), and a
// refusal its error: the Decoder comes from a pool and the value is
// decoded in place (a receiver that json.Unmarshal passes is on the heap
// already, as the ones here are).
func TestNestedUnmarshalJSONAllocations(t *testing.T) {
	var item generated.CreateShipmentLineItem
	var address generated.CreateShipmentAddress
	tests := []struct {
		name string
		data string
		into func([]byte) error
		want float64
	}{
		{"line item", `{"sku":"SKU12345","quantity":2}`, item.UnmarshalJSON, 1},
		{"address", `{"name":"Ada","line1":"2 New Rd","city":"Leeds","postcode":"LS1 4AP","country":"GB"}`, address.UnmarshalJSON, 2},
		{"refused line item", `{"sku":"SKU12345","quantity":0}`, item.UnmarshalJSON, 2},
	}
	for _, tt := range tests {
		data := []byte(tt.data)
		if err := tt.into(data); (err == nil) == strings.HasPrefix(tt.name, "refused") {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := testing.AllocsPerRun(200, func() { _ = tt.into(data) })
		t.Logf("%s: %v allocations", tt.name, got)
		if got > tt.want {
			t.Errorf("%s: %v allocations per UnmarshalJSON, want at most %v", tt.name, got, tt.want)
		}
	}
}

// TestNestedUnmarshalJSONConcurrent: pooled Decoders are not shared between
// concurrent decodes (run with -race), and each result is its own input's.
func TestNestedUnmarshalJSONConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				var items []generated.CreateShipmentLineItem
				data := []byte(`[{"sku":"SKU` + string(rune('A'+g)) + `0","quantity":` + string(rune('1'+i%9)) + `}]`)
				err := json.Unmarshal(data, &items)
				if i%2 == 1 {
					bad := []byte(`[{"sku":"SKUX","quantity":0}]`)
					if json.Unmarshal(bad, &items) == nil {
						t.Errorf("quantity 0 accepted")
						return
					}
				}
				if err != nil || len(items) != 1 || items[0].SKU != "SKU"+string(rune('A'+g))+"0" || items[0].Quantity != int64(1+i%9) {
					t.Errorf("goroutine %d call %d: %+v, %v", g, i, items, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// FuzzNestedUnmarshalJSON: whatever the bytes, a nested UnmarshalJSON
// into a filled receiver either replaces it with what a zero receiver gets
// or refuses and leaves it as it was, and a pooled Decoder carries nothing
// from one call to the next: the same bytes get the same outcome before
// and after a decode of other bytes.
func FuzzNestedUnmarshalJSON(f *testing.F) {
	for _, s := range []string{
		`{"name":"Ada","line1":"2 New Rd","city":"Leeds","postcode":"LS1 4AP","country":"GB"}`,
		`{"name":"Ada","line1":"2 New Rd","line2":"Flat \u0032","city":"Leeds","postcode":"LS1 4AP","country":"GB"}`,
		`{"name":"","line1":"x","city":"y","postcode":"z","country":"gb","a":1,"b":2,"c":3,"d":4,"e":5}`,
		`{"name":"Ada","name":"Bo"}`, `[]`, `{`, `null`,
	} {
		f.Add([]byte(s), []byte(`{"name":"Zed","line1":"9 Far Lane","line3":[1,2,{"x":"y"}],"city":"Oslo","postcode":"0150","country":"NO"}`))
	}
	before := generated.CreateShipmentAddress{Name: "Old", Line1: "1 Old St", Line2: tgopt.Some("Flat 2"), City: "Oldtown", Postcode: "OL1", Country: "FR"}
	f.Fuzz(func(t *testing.T, data, other []byte) {
		outcome := func() (generated.CreateShipmentAddress, string) {
			got := before
			if err := got.UnmarshalJSON(data); err != nil {
				if got != before {
					t.Fatalf("refused %q (%v) but changed the receiver to %+v", data, err, got)
				}
				return got, err.Error()
			}
			var fresh generated.CreateShipmentAddress
			if err := fresh.UnmarshalJSON(data); err != nil || fresh != got {
				t.Fatalf("%q: filled receiver got %+v, zero receiver %+v (%v)", data, got, fresh, err)
			}
			return got, ""
		}
		v1, e1 := outcome()
		var scratch generated.CreateShipmentAddress
		_ = scratch.UnmarshalJSON(other)
		v2, e2 := outcome()
		if v1 != v2 || e1 != e2 {
			t.Fatalf("%q decoded as %+v (%s), then after %q as %+v (%s)", data, v1, e1, other, v2, e2)
		}
	})
}
