package generated_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/contract"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// fuzzOracle compiles an effective schema for santhosh-tekuri/jsonschema.
func fuzzOracle(f *testing.F, name, schema string) *jsonschema.Schema {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	url := "fuzz:///" + name + ".json"
	if err := c.AddResource(url, strings.NewReader(schema)); err != nil {
		f.Fatal(err)
	}
	return c.MustCompile(url)
}

// fuzzDecoder checks a generated decoder against santhosh-tekuri/jsonschema
// on the effective schema. Input the strict reader refuses (duplicate
// names, invalid UTF-8, lone surrogates — which the oracle cannot see) must
// be refused by the decoder too; for the rest the verdicts must agree,
// except that the decoder deliberately refuses a number whose Go value
// would break the schema while its exact value keeps it
// (contract.RepresentationOnly: 1e-400 under exclusiveMinimum 0).
func fuzzDecoder(f *testing.F, name, schema string, decode func([]byte) error, seeds ...string) {
	oracle := fuzzOracle(f, name, schema)
	eff, err := jsonval.Parse([]byte(schema))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := decode(data)
		if jsonread.Valid(data, jsonread.DefaultLimits) != nil {
			if err == nil {
				t.Fatalf("decoder accepted input the strict reader refuses: %q", data)
			}
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		want := oracle.Validate(v) == nil
		if err != nil && want && contract.RepresentationOnly(eff, data, err) {
			return
		}
		if (err == nil) != want {
			t.Fatalf("input %q: decoder says %v, santhosh-tekuri/jsonschema valid=%v", data, err, want)
		}
	})
}

func FuzzDecodeRefundOrderArgs(f *testing.F) {
	fuzzDecoder(f, "refund_order", generated.RefundOrderSchema,
		func(b []byte) error { _, err := generated.DecodeRefundOrderArgs(b); return err },
		`{"orderId":"A-19","amountInCents":2500,"reason":"duplicate"}`,
		`{"orderId":"A-19","amountInCents":2500.0,"reason":"fraudulent","notifyCustomer":false}`,
		`{"orderId":"a","amountInCents":"2500","reason":"x","approvedBy":1}`,
		`{"orderId":"A-19","amountInCents":1e5,"reason":"requested_by_customer"}`)
}

func FuzzDecodeCreateShipmentArgs(f *testing.F) {
	fuzzDecoder(f, "create_shipment", generated.CreateShipmentSchema,
		func(b []byte) error { _, err := generated.DecodeCreateShipmentArgs(b); return err },
		`{"order_id":"A-19","address":{"name":"N","line1":"1 Road","city":"London","postcode":"SW1A 1AA","country":"GB"},"line_items":[{"sku":"SKU1","quantity":1}],"insured_value":19.99}`,
		`{"order_id":"A-19","address":{"name":"N","line1":"1","city":"L","postcode":"SW","country":"GB","role":1},"line_items":[],"service":"express"}`)
}

func FuzzDecodeScheduleOrderDispatchArgs(f *testing.F) {
	fuzzDecoder(f, "schedule_order_dispatch", generated.ScheduleOrderDispatchSchema,
		func(b []byte) error { _, err := generated.DecodeScheduleOrderDispatchArgs(b); return err },
		`{"order_id":"A-19","dispatch_date":"2028-02-29","amount_pence":0,"currency":"GBP","note":null}`,
		`{"order_id":"A-19","dispatch_date":"2026-02-29","amount_pence":50001,"currency":"gbp","note":"é"}`)
}
