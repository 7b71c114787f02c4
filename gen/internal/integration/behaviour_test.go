package integration_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// ---- tests -----------------------------------------------------------------------

func TestBehaviourTable(t *testing.T) {
	names := map[string]bool{}
	for _, c := range behaviourCases {
		if names[c.Name] {
			t.Errorf("duplicate row name %s", c.Name)
		}
		names[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			codec, found := codecs[c.Tool]
			if !found {
				t.Fatalf("no codec for tool %q", c.Tool)
			}
			v, err := codec.decode([]byte(c.Input))
			checkOutcome(t, c, v, err)
		})
	}
}

// TestMarshalRoundTrip: for every accepted row, Marshal(decoded) decodes to
// an equal value and marshals to the same bytes.
func TestMarshalRoundTrip(t *testing.T) {
	for _, c := range behaviourCases {
		if c.Want.Code != "" {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			codec := codecs[c.Tool]
			v, err := codec.decode([]byte(c.Input))
			if err != nil {
				t.Skipf("row rejected (reported by TestBehaviourTable): %v", err)
			}
			codec.roundTrip(t, v)
		})
	}
}

// TestMarshalPresence: an absent optional stays absent and a null stays
// null in the marshalled form.
func TestMarshalPresence(t *testing.T) {
	tests := []struct {
		tool, input string
		contains    string // "" means: nothing below
		absent      string
	}{
		{refundT, refund(), "", `"notifyCustomer"`},
		{refundT, refund("notifyCustomer", "false"), `"notifyCustomer":false`, ""},
		{dispatchT, dispatch(), "", `"note"`},
		{dispatchT, dispatch("note", "null"), `"note":null`, ""},
		{dispatchT, dispatch("note", `""`), `"note":""`, ""},
		{shipT, ship(), "", `"line2"`},
		{shipT, ship(), "", `"insured_value"`},
		{shipT, ship(), "", `"service"`},
	}
	for _, tt := range tests {
		v, err := codecs[tt.tool].decode([]byte(tt.input))
		if err != nil {
			t.Fatalf("decode %s: %v", tt.input, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if tt.contains != "" && !bytes.Contains(b, []byte(tt.contains)) {
			t.Errorf("Marshal(%s) = %s, want it to contain %s", tt.input, b, tt.contains)
		}
		if tt.absent != "" && bytes.Contains(b, []byte(tt.absent)) {
			t.Errorf("Marshal(%s) = %s, want no %s", tt.input, b, tt.absent)
		}
	}
}

// TestUnmarshalJSONStrict: json.Unmarshal into the Args types goes through
// the same strict decoder and surfaces its *toolerr.Error.
func TestUnmarshalJSONStrict(t *testing.T) {
	var a generated.RefundOrderArgs
	err := json.Unmarshal([]byte(refund("approvedBy", `"manager"`)), &a)
	e := assertViolation(t, err, toolerr.InvalidArguments, "additionalProperties", "/approvedBy")
	if e.Tool != refundT {
		t.Errorf("Tool = %q", e.Tool)
	}

	// Rows that encoding/json's own scanner lets through must still be
	// refused by the strict path (duplicates, invalid UTF-8, closure, ...).
	for _, c := range behaviourCases {
		if !json.Valid([]byte(c.Input)) {
			continue // encoding/json refuses these itself, with its own error
		}
		t.Run(c.Name, func(t *testing.T) {
			v, err := codecs[c.Tool].unmarshal([]byte(c.Input))
			checkOutcomeOffset(t, c, v, err, false)
		})
	}

	// Embedded in a larger document, the field still decodes strictly.
	var envelope struct {
		Args generated.RefundOrderArgs `json:"args"`
	}
	err = json.Unmarshal([]byte(`{"args":`+refund("role", `"admin"`)+`}`), &envelope)
	assertViolation(t, err, toolerr.InvalidArguments, "additionalProperties", "/role")
	if err := json.Unmarshal([]byte(`{"args":`+refund()+`}`), &envelope); err != nil || envelope.Args.AmountInCents != 2500 {
		t.Errorf("envelope: %+v, %v", envelope, err)
	}
}

// TestErrorJSON: a refusal marshals to the JSON sent back to the model.
func TestErrorJSON(t *testing.T) {
	_, err := generated.DecodeScheduleOrderDispatchArgs([]byte(dispatch("currency", `"USD"`)))
	e := assertViolation(t, err, toolerr.InvalidArguments, "enum", "/currency")
	b, jerr := json.Marshal(err)
	if jerr != nil {
		t.Fatal(jerr)
	}
	var got struct {
		Code       string `json:"code"`
		Tool       string `json:"tool"`
		Violations []struct {
			Keyword      string `json:"keyword"`
			InstancePath string `json:"instancePath"`
			SchemaPath   string `json:"schemaPath"`
			Message      string `json:"message"`
		} `json:"violations"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if got.Code != "invalid_arguments" || got.Tool != dispatchT || len(got.Violations) != 1 {
		t.Fatalf("marshalled error = %s", b)
	}
	v := got.Violations[0]
	if v.Keyword != "enum" || v.InstancePath != "/currency" || v.SchemaPath != "/properties/currency/enum" || v.Message != "currency must be one of GBP or EUR; received USD" {
		t.Errorf("marshalled violation = %+v", v)
	}
	if e.Error() == "" || !strings.Contains(e.Error(), "currency must be one of GBP or EUR; received USD") {
		t.Errorf("Error() = %q", e.Error())
	}

	// invalid_json carries an offset and a reason, no violations.
	_, err = generated.DecodeRefundOrderArgs([]byte(refund() + " x"))
	je := asToolErr(t, err, toolerr.InvalidJSON)
	b, _ = json.Marshal(je)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["code"] != "invalid_json" || m["tool"] != refundT || m["offset"] != float64(len(refund())+1) || m["reason"] == nil || m["violations"] != nil {
		t.Errorf("marshalled invalid_json error = %s", b)
	}
}

// TestRejectedReturnsZero: a rejected call returns the zero Args, so nothing
// half-decoded can leak to a caller that ignores the error.
func TestRejectedReturnsZero(t *testing.T) {
	v, err := generated.DecodeRefundOrderArgs([]byte(refund("amountInCents", "0")))
	if err == nil || !reflect.DeepEqual(v, generated.RefundOrderArgs{}) {
		t.Errorf("got %+v, %v; want zero value and an error", v, err)
	}
	var a generated.RefundOrderArgs
	a.OrderID = "keep"
	if err := a.UnmarshalJSON([]byte(refund("reason", `"x"`))); err == nil || a.OrderID != "keep" {
		t.Errorf("UnmarshalJSON on error changed the receiver: %+v, %v", a, err)
	}
}

// TestDecodedStringsOwnTheirBytes: decoded strings do not alias the caller's
// buffer, which the caller (or encoding/json's Decoder) may reuse.
func TestDecodedStringsOwnTheirBytes(t *testing.T) {
	buf := []byte(ship("address", addr("line2", `"Flat \"3\""`)))
	a, err := generated.DecodeCreateShipmentArgs(buf)
	if err != nil {
		t.Fatal(err)
	}
	for i := range buf {
		buf[i] = 'X'
	}
	l2, _ := a.Address.Line2.Get()
	if a.OrderID != "A-19" || a.Address.City != "London" || l2 != `Flat "3"` || a.LineItems[1].SKU != "SKU2" {
		t.Errorf("decoded strings changed with the input buffer: %+v", a)
	}
}
