package integration_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// The benchmarks compare three ways of handling the same argument bytes
// (testdata/bench/<tool>.json):
//
//   - Decode: the generated single-pass decoder, every rule checked;
//   - JSONValid: encoding/json.Valid, the floor (syntax only, no values);
//   - TwoPass: what teams write today: santhosh-tekuri/jsonschema validation
//     of the document decoded into interface{} (UseNumber), then
//     encoding/json.Unmarshal into a plain struct mirroring the arguments.
//
// refund_order is small and all-scalar; create_shipment is nested (an
// address and three line items). The figures gen/internal/benchside/PERFORMANCE.md reports come from
// `make bench`, which runs these tools and the shared benchmark schemas
// side by side in interleaved rounds (gen/internal/benchside); these
// benchmarks are for profiling and for benchstat comparisons of two runs.

// plainRefundOrder mirrors RefundOrderArgs the way a hand-written
// encoding/json target would.
type plainRefundOrder struct {
	OrderID        string `json:"orderId"`
	AmountInCents  int64  `json:"amountInCents"`
	Reason         string `json:"reason"`
	NotifyCustomer *bool  `json:"notifyCustomer"`
}

type plainAddress struct {
	Name     string  `json:"name"`
	Line1    string  `json:"line1"`
	Line2    *string `json:"line2"`
	City     string  `json:"city"`
	Postcode string  `json:"postcode"`
	Country  string  `json:"country"`
}

type plainLineItem struct {
	SKU      string `json:"sku"`
	Quantity int64  `json:"quantity"`
}

// plainCreateShipment mirrors CreateShipmentArgs.
type plainCreateShipment struct {
	OrderID      string          `json:"order_id"`
	Address      plainAddress    `json:"address"`
	LineItems    []plainLineItem `json:"line_items"`
	Service      *string         `json:"service"`
	InsuredValue *float64        `json:"insured_value"`
}

// benchTool is one tool under benchmark.
type benchTool struct {
	name   string
	schema string // the generated effective schema constant
	decode func([]byte) error
	plain  func([]byte) error // encoding/json into the mirror struct
}

var benchTools = []benchTool{
	{
		name:   generated.RefundOrderToolName,
		schema: generated.RefundOrderSchema,
		decode: func(b []byte) error { _, err := generated.DecodeRefundOrderArgs(b); return err },
		plain:  func(b []byte) error { var v plainRefundOrder; return json.Unmarshal(b, &v) },
	},
	{
		name:   generated.CreateShipmentToolName,
		schema: generated.CreateShipmentSchema,
		decode: func(b []byte) error { _, err := generated.DecodeCreateShipmentArgs(b); return err },
		plain:  func(b []byte) error { var v plainCreateShipment; return json.Unmarshal(b, &v) },
	},
}

func benchInput(tb testing.TB, tool string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "bench", tool+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// compileSchema compiles a generated effective schema with
// santhosh-tekuri/jsonschema (draft 2020-12).
func compileSchema(tb testing.TB, tool, schema string) *jsonschema.Schema {
	tb.Helper()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	url := "toolgate:///" + tool + ".json"
	if err := c.AddResource(url, strings.NewReader(schema)); err != nil {
		tb.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// twoPass is the two-pass path: decode to interface{} with UseNumber,
// validate, then unmarshal into the mirror struct.
func twoPass(s *jsonschema.Schema, plain func([]byte) error, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	if err := s.Validate(doc); err != nil {
		return err
	}
	return plain(data)
}

// TestBenchInputs: the benchmark bytes are valid for all three paths, so
// that no benchmark measures an early rejection.
func TestBenchInputs(t *testing.T) {
	for _, bt := range benchTools {
		data := benchInput(t, bt.name)
		if err := bt.decode(data); err != nil {
			t.Errorf("%s: Decode: %v", bt.name, err)
		}
		if !json.Valid(data) {
			t.Errorf("%s: json.Valid false", bt.name)
		}
		if err := twoPass(compileSchema(t, bt.name, bt.schema), bt.plain, data); err != nil {
			t.Errorf("%s: two-pass: %v", bt.name, err)
		}
	}
}

// TestDecodeAllocs: what a decode allocates is what the result holds. A
// valid call with one string allocates once, a copy of that string; with
// more, one block that the later strings are copied into (strings never
// alias the caller's buffer, which the caller may reuse). A nested call
// adds one array per slice in the result
// (items are collected on the stack and copied once). A refusal allocates
// its error's block (its first violations and their copies, made when the
// decode ends) and the string copies made before the first violation.
func TestDecodeAllocs(t *testing.T) {
	tests := []struct {
		name   string
		decode func([]byte) error
		data   []byte
		want   float64
	}{
		{"refund_order valid", func(b []byte) error { _, err := generated.DecodeRefundOrderArgs(b); return err }, benchInput(t, generated.RefundOrderToolName), 1},
		{"create_shipment valid", func(b []byte) error { _, err := generated.DecodeCreateShipmentArgs(b); return err }, benchInput(t, generated.CreateShipmentToolName), 3},
		{"refund_order unknown member", func(b []byte) error { _, err := generated.DecodeRefundOrderArgs(b); return err }, []byte(refund("refundShipping", "true")), 2},
		{"refund_order three violations", func(b []byte) error { _, err := generated.DecodeRefundOrderArgs(b); return err }, []byte(refund("orderId", `"a-1"`, "amountInCents", "0", "reason", `"changed_my_mind"`)), 1},
	}
	for _, tt := range tests {
		valid := strings.HasSuffix(tt.name, "valid")
		allocs := testing.AllocsPerRun(1000, func() {
			if err := tt.decode(tt.data); (err == nil) != valid {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %v allocs/op on %d bytes", tt.name, allocs, len(tt.data))
		if allocs > tt.want {
			t.Errorf("%s: %v allocations per call, want at most %v", tt.name, allocs, tt.want)
		}
	}
}

// TestItemsPastMaxItemsNotKept: an array far past maxItems is read and
// refused once, but its items past the bound are not kept, so the decode
// allocates about what maxItems items take, not what the array holds.
func TestItemsPastMaxItemsNotKept(t *testing.T) {
	const n = 20000
	data := []byte(ship("line_items", items(n)))
	var err error
	bytes := allocatedBy(3, func() { _, err = generated.DecodeCreateShipmentArgs(data) })
	var e *toolerr.Error
	if !errors.As(err, &e) || len(e.Violations()) != 1 || e.Violations()[0].Keyword != "maxItems" || e.Violations()[0].Message != "line_items must have at most 50 items; received 20000" {
		t.Fatalf("error %v, want one maxItems violation", err)
	}
	t.Logf("%d bytes allocated to refuse %d items (%d bytes)", bytes, n, len(data))
	if bytes > 32<<10 {
		t.Errorf("%d bytes allocated to refuse %d items, want at most 32 KiB", bytes, n)
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, bt := range benchTools {
		data := benchInput(b, bt.name)
		b.Run(bt.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if err := bt.decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkJSONValid(b *testing.B) {
	for _, bt := range benchTools {
		data := benchInput(b, bt.name)
		b.Run(bt.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if !json.Valid(data) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

func BenchmarkTwoPass(b *testing.B) {
	for _, bt := range benchTools {
		data := benchInput(b, bt.name)
		s := compileSchema(b, bt.name, bt.schema)
		b.Run(bt.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if err := twoPass(s, bt.plain, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkManyUnknownMembers compares refusing 30,000 unknown top-level
// members with skipping the same members inside one unknown value: the
// duplicate check of undeclared names must keep the first linear, within a
// small factor of the second (compare the two with benchstat).
func BenchmarkManyUnknownMembers(b *testing.B) {
	const n = 30000
	var top, nested strings.Builder
	top.WriteString(`{"orderId":"A-19","amountInCents":1,"reason":"duplicate"`)
	nested.WriteString(`{"orderId":"A-19","amountInCents":1,"reason":"duplicate","x":{`)
	for i := range n {
		fmt.Fprintf(&top, `,"u%d":0`, i)
		if i > 0 {
			nested.WriteByte(',')
		}
		fmt.Fprintf(&nested, `"u%d":0`, i)
	}
	top.WriteString("}")
	nested.WriteString("}}")
	for _, in := range []struct{ name, data string }{{"top", top.String()}, {"nested", nested.String()}} {
		b.Run(in.name, func(b *testing.B) {
			data := []byte(in.data)
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := generated.DecodeRefundOrderArgs(data); err == nil {
					b.Fatal("accepted unknown members")
				}
			}
		})
	}
}
