package callrecord_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/callrecord"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// maskSchema has a member for each thing masking must keep: a pattern's
// literal parts, formats, enum values, lengths; and sensitive members:
// writeOnly (pin, cvv) and, through the pointers maskSensitive lists as
// x-toolgate sensitive does, card and vault.
const maskSchema = `{"type": "object", "properties": {
  "orderId": {"type": "string", "pattern": "^ORD-[0-9]{6}$"},
  "id": {"type": "string", "pattern": "^[A-Z][A-Z0-9-]{2,31}$"},
  "reason": {"type": "string", "enum": ["duplicate", "fraudulent"]},
  "day": {"type": "string", "format": "date"},
  "email": {"type": "string", "format": "email"},
  "ref": {"type": "string", "format": "uuid"},
  "note": {"type": "string", "maxLength": 40},
  "first": {"type": "string", "pattern": "^B"},
  "n": {"type": "integer", "maximum": 5},
  "tags": {"type": "array", "items": {"type": "string", "enum": ["x"]}},
  "pin": {"type": "string", "pattern": "^[0-9]{4}$", "writeOnly": true},
  "cvv": {"type": "integer", "minimum": 100, "maximum": 999, "writeOnly": true},
  "card": {"type": "string", "minLength": 12, "maxLength": 19, "pattern": "^[0-9]+$"},
  "mode": {"type": "object", "enum": [{"level": "Max"}]},
  "vault": {"type": "object", "properties": {"label": {"type": "string"}}, "additionalProperties": {"type": "string"}},
  "contact": {"anyOf": [
    {"type": "object", "properties": {"kind": {"const": "email"}, "email": {"type": "string", "format": "email"}}, "required": ["kind", "email"], "additionalProperties": false},
    {"type": "object", "properties": {"kind": {"const": "phone"}, "phone": {"type": "string", "pattern": "^\\+[1-9][0-9]{6,14}$"}}, "required": ["kind", "phone"], "additionalProperties": false}]}
}, "additionalProperties": false}`

var maskSensitive = []string{"/properties/card", "/properties/vault"}

func TestMask(t *testing.T) {
	tests := []struct {
		name, args string
		want       string // the masked arguments, or "" when not replayable
		why        string // part of the reason it is not replayable
		sensitive  []string
	}{
		{"a pattern's literal parts kept", `{"orderId": "ORD-123456"}`, `{"orderId":"ORD-111111"}`, "", nil},
		{"a pattern broken stays broken", `{"orderId": "ord-12"}`, `{"orderId":"aaa-11"}`, "", nil},
		{"pattern classes", `{"id": "B-77x"}`, `{"id":"A-11a"}`, "", nil},
		{"a character the pattern fixes", `{"first": "Bob"}`, `{"first":"Baa"}`, "", nil},
		{"enum kept", `{"reason": "duplicate"}`, `{"reason":"duplicate"}`, "", nil},
		{"not an enum value", `{"reason": "GOLD "}`, `{"reason":"AAAA "}`, "", nil},
		{"a date stays a date", `{"day": "2026-12-01"}`, `{"day":"2000-01-01"}`, "", nil},
		{"an invalid date stays invalid", `{"day": "2026-13-01"}`, `{"day":"1111-13-11"}`, "", nil},
		{"an email stays an email", `{"email": "Ann.Lee@Example.org"}`, `{"email":"a@example.com"}`, "", nil},
		{"a uuid stays a uuid", `{"ref": "9b2e6c1a-3f4d-4e5f-8a9b-0c1d2e3f4a5b"}`, `{"ref":"00000000-0000-4000-8000-000000000000"}`, "", nil},
		{"free text, unicode, controls", `{"note": "Héllo wörld 42!\u0007"}`, `{"note":"Aaaaa aaaaa 11!\u0007"}`, "", nil},
		{"a length past maxLength kept", `{"note": "` + strings.Repeat("q", 41) + `"}`, `{"note":"` + strings.Repeat("a", 41) + `"}`, "", nil},
		{"numbers kept", `{"n": 6}`, `{"n":6}`, "", nil},
		{"array items", `{"tags": ["x", "y"]}`, `{"tags":["x","a"]}`, "", nil},
		{"anyOf branch's pattern", `{"contact": {"kind": "phone", "phone": "+447700900123"}}`, `{"contact":{"kind":"phone","phone":"+111111111111"}}`, "", nil},
		{"anyOf branch's format", `{"contact": {"kind": "email", "email": "ann@example.org"}}`, `{"contact":{"kind":"email","email":"a@example.com"}}`, "", nil},
		{"writeOnly string: built from its pattern", `{"pin": "4821"}`, `{"pin":"1111"}`, "", nil},
		{"writeOnly string refused: a refused placeholder", `{"pin": "48213"}`, `{"pin":""}`, "", nil},
		{"writeOnly number: a bound", `{"cvv": 737}`, `{"cvv":100}`, "", nil},
		{"writeOnly number refused", `{"cvv": 7370}`, `{"cvv":1000}`, "", nil},
		{"sensitive member: lengths and pattern", `{"card": "4929123456781234"}`, `{"card":"11111111111111111"}`, "", maskSensitive},
		{"sensitive enum value kept", `{"reason": "fraudulent"}`, `{"reason":"fraudulent"}`, "", []string{"/properties/reason"}},
		{"an object equal to an enum value kept", `{"mode": {"level": "Max"}}`, `{"mode":{"level":"Max"}}`, "", nil},
		{"sensitive object: declared names kept", `{"vault": {"label": "Hunter2"}}`, `{"vault":{"label":""}}`, "", maskSensitive},
		{"sensitive object: an undeclared name is a secret", `{"vault": {"Hunter2": "x"}}`, "", "not declared", maskSensitive},
		{"sensitive tool", `{"orderId": "ORD-654321", "note": "Hunter2", "n": 4, "reason": "duplicate"}`, `{"orderId":"ORD-111111","note":"","n":0,"reason":"duplicate"}`, "", []string{""}},
		{"a number the validator cannot judge", `{"n": 1e999999}`, "", "cannot judge", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := callrecord.NewMasker("t", maskSchema, tt.sensitive)
			if err != nil {
				t.Fatal(err)
			}
			args, err := jsonval.Parse([]byte(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			res := m.Mask(args, nil)
			got, why := res.Args, res.Why
			switch {
			case tt.want == "" && (got != nil || !strings.Contains(why, tt.why)):
				t.Errorf("Mask(%s) = %v (%q), want not replayable: %q", tt.args, got, why, tt.why)
			case tt.want != "" && (got == nil || string(got.Marshal()) != tt.want):
				t.Errorf("Mask(%s) = %v (%q), want %s", tt.args, got, why, tt.want)
			}
		})
	}
}

// TestMaskKeepsTheDecision: whatever Mask returns is decided by the schema
// exactly as the original (valid, or the same violations at the same
// paths), on every case of TestMask's kind and on whole documents.
func TestMaskKeepsTheDecision(t *testing.T) {
	check, err := callrecord.NewChecker("t", maskSchema, true)
	if err != nil {
		t.Fatal(err)
	}
	m, err := callrecord.NewMasker("t", maskSchema, maskSensitive)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		`{"orderId": "ORD-123456", "reason": "duplicate", "day": "2026-12-01", "pin": "4821", "cvv": 737, "card": "4929123456781234", "n": 5}`,
		`{"orderId": "ORD-12345", "reason": "dup", "day": "2026-02-30", "pin": "482", "cvv": 73, "card": "4929 1234 5678 1234", "n": 6, "extra": true}`,
		`{"contact": {"kind": "phone", "phone": "+0447700900123"}, "email": "not an email", "ref": "not-a-uuid"}`,
	} {
		v, _ := jsonval.Parse([]byte(args))
		res := m.Mask(v, nil)
		got, why := res.Args, res.Why
		if got == nil {
			t.Errorf("Mask(%s): not replayable: %s", args, why)
			continue
		}
		want, err1 := check.Decide(v)
		have, err2 := check.Decide(got)
		if err1 != nil || err2 != nil || !have.Equal(want) {
			t.Errorf("Mask(%s) = %s: decided %+v, the original %+v (%v, %v)", args, got.Marshal(), have, want, err1, err2)
		}
	}
}

// registry binds refund_order with an executor that counts its runs.
func registry(t *testing.T, rec *callrecord.Recorder, ran *atomic.Int32) *gate.Registry {
	t.Helper()
	tool := gate.Bind(generated.RefundOrderSpec, gate.Binding[generated.RefundOrderArgs]{
		Policy:  gate.AllowAll[generated.RefundOrderArgs],
		Execute: func(context.Context, generated.RefundOrderArgs) (any, error) { ran.Add(1); return "refunded", nil },
		// No call waits for approval: the recorder is about the decoder's
		// outcomes.
		NeedsApproval: func(context.Context, gate.Principal, generated.RefundOrderArgs) (bool, string) { return false, "" },
	})
	reg, err := gate.NewRegistry([]*gate.Tool{tool}, gate.WithAuditor(rec))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestRecorder(t *testing.T) {
	for _, accepted := range []bool{false, true} {
		dir := t.TempDir()
		tools := []*gate.Tool{{Name: generated.RefundOrderToolName, Schema: generated.RefundOrderSchema}}
		rec, err := callrecord.New(tools, callrecord.Options{Dir: dir, Accepted: accepted})
		if err != nil {
			t.Fatal(err)
		}
		var ran atomic.Int32
		reg := registry(t, rec, &ran)
		caller := gate.Caller{Principal: gate.Principal{ID: "u1", Roles: []string{"finance"}}, Scope: "s1"}
		refused := gate.Call{ID: "c1", Name: "refund_order", Complete: true, Args: []byte(`{"orderId": "B-77", "amountInCents": 100001, "reason": "fraudulent"}`)}
		res, _ := rec.Dispatch(context.Background(), reg, caller, refused)
		if res.Err == nil || res.Err.Code != toolerr.InvalidArguments || res.Executed || ran.Load() != 0 {
			t.Fatalf("refused call: %+v, executor ran %d times", res, ran.Load())
		}
		ok := gate.Call{ID: "c2", Name: "refund_order", Complete: true, Args: []byte(`{"orderId": "B-78", "amountInCents": 5, "reason": "duplicate"}`)}
		if res, _ := rec.Dispatch(context.Background(), reg, caller, ok); res.Err != nil {
			t.Fatalf("accepted call: %v", res.Err)
		}
		noID := refused
		noID.ID = ""
		rec.Dispatch(context.Background(), reg, caller, noID)
		if rec.Dropped() != 1 || rec.Err() != nil {
			t.Errorf("dropped %d, err %v", rec.Dropped(), rec.Err())
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		want := 1
		if accepted {
			want = 2
		}
		if len(files) != want {
			t.Fatalf("accepted=%v: %d records, want %d", accepted, len(files), want)
		}
		var sawRefusal bool
		for _, f := range files {
			data, _ := os.ReadFile(f)
			r, err := callrecord.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if r.Version != generated.RefundOrderSpec.Version || !r.Replayable {
				t.Errorf("record %s: version %q replayable %v", data, r.Version, r.Replayable)
			}
			if r.Code == string(toolerr.InvalidArguments) {
				sawRefusal = true
				if got := string(r.Args.Marshal()); got != `{"orderId":"A-11","amountInCents":100001,"reason":"fraudulent"}` {
					t.Errorf("masked args %s", got)
				}
				if len(r.Violations) != 1 || r.Violations[0] != (callrecord.Violation{Keyword: "maximum", InstancePath: "/amountInCents"}) {
					t.Errorf("violations %+v", r.Violations)
				}
				// The masked call is refused for the same reason.
				_, err := generated.DecodeRefundOrderArgs(r.Args.Marshal())
				var te *toolerr.Error
				if !errors.As(err, &te) || len(te.Violations()) != 1 || te.Violations()[0].Keyword != "maximum" || te.Violations()[0].InstancePath != "/amountInCents" {
					t.Errorf("replaying the masked call: %v", err)
				}
			} else if r.Code != callrecord.Accepted || string(r.Args.Marshal()) != `{"orderId":"A-11","amountInCents":5,"reason":"duplicate"}` {
				t.Errorf("accepted record %s", data)
			}
		}
		if !sawRefusal {
			t.Error("no refusal recorded")
		}
	}
}

func TestParseRefusesBadRecords(t *testing.T) {
	for _, tt := range []struct{ record, want string }{
		{`[]`, "a JSON object"},
		{`{"tool": "a", "version": "v", "code": "ok", "violations": [], "replayable": true}`, "missing args"},
		{`{"tool": "a", "version": "v", "code": "ok", "violations": [{"keyword": 1, "instancePath": ""}], "replayable": true, "args": {}}`, "a violation is"},
		{`{"tool": "a", "version": "v", "code": "ok", "violations": [], "replayable": true, "args": {}, "extra": 1}`, "unknown member"},
		{`{"tool": 1, "version": "v", "code": "ok", "violations": [], "replayable": true, "args": {}}`, "tool must be a string"},
		{`{"tool": "a", "version": "v", "code": "ok", "violations": [], "replayable": "yes", "args": {}}`, "replayable must be a boolean"},
		{`{"tool": "a", "version": "v", "code": "ok", "violations": [], "replayable": true, "args": {}, "reason": "r"}`, "has args and no reason"},
		{`{"tool": "a", "version": "v", "code": "ok", "violations": [], "replayable": false, "reason": "r", "args": {}}`, "has args and no reason"},
		{`{"tool": "a", "version": "v", "code": "ok", "violations": [], "replayable": false}`, "missing reason"},
		{`{"tool": "a", "version": "v", "code": "ok", "violations": [], "exact": true, "args": {}}`, "earlier toolgate"},
	} {
		if _, err := callrecord.Parse([]byte(tt.record)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%s) = %v, want an error saying %q", tt.record, err, tt.want)
		}
	}
}

// TestRecordRoundTrip: Marshal and Parse agree on replayable records and
// on those that are not (which have a reason and no arguments).
func TestRecordRoundTrip(t *testing.T) {
	args, _ := jsonval.Parse([]byte(`{"n":1}`))
	for _, r := range []*callrecord.Record{
		{Tool: "t", Version: "v", Code: callrecord.Accepted, Args: args, Replayable: true},
		{Tool: "t", Version: "v", Code: "invalid_arguments", Violations: []callrecord.Violation{{Keyword: "maximum", InstancePath: "/n"}}, Reason: "no stand-in"},
	} {
		got, err := callrecord.Parse(r.Marshal())
		if err != nil {
			t.Fatalf("Parse(%s): %v", r.Marshal(), err)
		}
		if string(got.Marshal()) != string(r.Marshal()) || got.Replayable != r.Replayable || got.Reason != r.Reason || (got.Args == nil) != (r.Args == nil) {
			t.Errorf("round trip of %s gave %s", r.Marshal(), got.Marshal())
		}
	}
}

var update = flag.Bool("update", false, "rewrite testdata/refund_order")

// TestFixtures records four refund_order calls through the gate into
// testdata/refund_order, the fixtures `make test` replays with toolgate
// test --calls (and runtime/callrecord/RECORDS.md's diff --calls walkthrough uses): two
// accepted (reason duplicate; 90000 cents), two refused (100001 cents; an
// unknown reason).
func TestFixtures(t *testing.T) {
	dir := t.TempDir()
	tools := []*gate.Tool{{Name: generated.RefundOrderToolName, Schema: generated.RefundOrderSchema}}
	rec, err := callrecord.New(tools, callrecord.Options{Dir: dir, Accepted: true})
	if err != nil {
		t.Fatal(err)
	}
	var ran atomic.Int32
	reg := registry(t, rec, &ran)
	caller := gate.Caller{Principal: gate.Principal{ID: "u1", Roles: []string{"finance"}}, Scope: "s1"}
	for i, args := range []string{
		`{"orderId": "A-19", "amountInCents": 1250, "reason": "duplicate"}`,
		`{"orderId": "Q-2026-0042", "amountInCents": 90000, "reason": "fraudulent", "notifyCustomer": false}`,
		`{"orderId": "Z-881", "amountInCents": 100001, "reason": "requested_by_customer"}`,
		`{"orderId": "A-20", "amountInCents": 500, "reason": "changed my mind"}`,
	} {
		rec.Dispatch(context.Background(), reg, caller, gate.Call{ID: fmt.Sprint("c", i), Name: "refund_order", Complete: true, Args: []byte(args)})
	}
	if ran.Load() != 2 || rec.Err() != nil {
		t.Fatalf("executor ran %d times (want 2), err %v", ran.Load(), rec.Err())
	}
	got, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if *update {
		old, _ := filepath.Glob("testdata/refund_order/*.json")
		for _, f := range old {
			os.Remove(f)
		}
		os.MkdirAll("testdata/refund_order", 0o755)
		for _, f := range got {
			data, _ := os.ReadFile(f)
			if err := os.WriteFile(filepath.Join("testdata/refund_order", filepath.Base(f)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	want, _ := filepath.Glob("testdata/refund_order/*.json")
	if len(got) != 4 || len(want) != len(got) {
		t.Fatalf("recorded %d, testdata has %d; run go test ./runtime/callrecord -run Fixtures -update", len(got), len(want))
	}
	for i := range got {
		a, _ := os.ReadFile(got[i])
		b, _ := os.ReadFile(want[i])
		if filepath.Base(got[i]) != filepath.Base(want[i]) || string(a) != string(b) {
			t.Errorf("%s differs from testdata; run go test ./runtime/callrecord -run Fixtures -update and review", filepath.Base(got[i]))
		}
	}
}

// TestMaskWhereTheSchemaIsLessPlain: a value reached through a reference
// the masker cannot follow is treated as sensitive (here no placeholder
// built from what it can see passes, so the call is not replayable, and
// the class mask that would keep the digits' count is not used); draft-07 tuples,
// sensitive property names and the bound on validations hold.
func TestMaskWhereTheSchemaIsLessPlain(t *testing.T) {
	many := `"abc"` + strings.Repeat(`, "abc"`, 2999)
	tests := []struct {
		name, schema, args string
		want, why          string
	}{
		{"a reference to an anchor", `{"type": "object", "properties": {"card": {"$ref": "#card"}}, "$defs": {"c": {"$anchor": "card", "type": "string", "pattern": "^[0-9]+$"}}}`,
			`{"card": "4929817263545"}`, "", "no stand-in"},
		{"a draft-07 tuple with a writeOnly item", `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"pair": {"type": "array", "items": [{"type": "string"}, {"type": "string", "writeOnly": true}]}}}`,
			`{"pair": ["Ann", "Hunter2"]}`, `{"pair":["Aaa",""]}`, ""},
		{"sensitive property names", `{"type": "object", "properties": {"m": {"type": "object", "propertyNames": {"writeOnly": true, "maxLength": 20}}}}`,
			`{"m": {"Hunter2": 1}}`, "", "not declared"},
		{"too many values to check", `{"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string", "maxLength": 3}}}}`,
			`{"tags": [` + many + `]}`, "", "bound of validations"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := callrecord.NewMasker("t", tt.schema, nil)
			if err != nil {
				t.Fatal(err)
			}
			args, err := jsonval.Parse([]byte(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			res := m.Mask(args, nil)
			if tt.want == "" && (res.Args != nil || !strings.Contains(res.Why, tt.why)) || tt.want != "" && (res.Args == nil || string(res.Args.Marshal()) != tt.want) {
				t.Errorf("Mask(%.80s) = %v (%q), want %q (%q)", tt.args, res.Args, res.Why, tt.want, tt.why)
			}
			if strings.Contains(tt.args, "Hunter2") && res.Args != nil && strings.Contains(string(res.Args.Marshal()), "Hunter2") {
				t.Errorf("the secret was kept: %s", res.Args.Marshal())
			}
		})
	}
}

// TestRecorderGateDiffers: a call the replay's validator decides otherwise
// than the gate did is recorded as not replayable, since its record could
// never pass.
func TestRecorderGateDiffers(t *testing.T) {
	dir := t.TempDir()
	rec, err := callrecord.New([]*gate.Tool{{Name: "t", Schema: maskSchema, Version: "v1"}}, callrecord.Options{Dir: dir, Accepted: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range []gate.Event{
		{Code: "ok", Executed: true}, // the validator refuses n = 6
		{Code: toolerr.InvalidArguments, Violations: []gate.ViolationRef{{Keyword: "pattern", InstancePath: "/n"}}}, // refused, but not for a pattern
	} {
		e.Scope, e.CallID, e.Tool, e.Version = "s", fmt.Sprint("c", i), "t", "v1"
		rec.Remember(gate.Caller{Scope: "s"}, gate.Call{ID: e.CallID, Name: "t", Args: []byte(`{"n": 6}`), Complete: true})
		rec.Audit(context.Background(), e)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 2 {
		t.Fatalf("%d records, want 2", len(files))
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		r, err := callrecord.Parse(data)
		if err != nil || r.Replayable || r.Args != nil || !strings.Contains(r.Reason, "otherwise than the gate") {
			t.Errorf("record %s (%v), want one that is not replayable", data, err)
		}
	}
}

// TestMaskDemoTools: calls of the demo tools — a $ref'd address, a
// multipleOf number, an anyOf of objects under unevaluatedProperties, a
// date, a nullable note — mask into replayable arguments the schema
// decides as it decides the originals, accepted or refused.
func TestMaskDemoTools(t *testing.T) {
	tests := []struct {
		name, schema, args string
		valid              bool
	}{
		{"create_shipment", generated.CreateShipmentSchema, `{"order_id": "Q-2026-0042", "address": {"name": "Ann Lee", "line1": "1 High St", "city": "York", "postcode": "YO1 7HH", "country": "GB"}, "line_items": [{"sku": "SKU12345", "quantity": 2}, {"sku": "AB12", "quantity": 99}], "service": "express", "insured_value": 125.5}`, true},
		{"create_shipment refused", generated.CreateShipmentSchema, `{"order_id": "q-1", "address": {"name": "", "line1": "1 High St", "city": "York", "postcode": "yo1", "country": "GBR"}, "line_items": [], "insured_value": 0.001}`, false},
		{"update_delivery_contact by phone", generated.UpdateDeliveryContactSchema, `{"order_id": "A-19", "contact": {"kind": "phone", "phone": "+447700900123"}, "instructions": null}`, true},
		{"update_delivery_contact by email", generated.UpdateDeliveryContactSchema, `{"order_id": "A-19", "contact": {"kind": "email", "email": "ann.lee@example.org"}, "instructions": "Leave it with No. 12"}`, true},
		{"update_delivery_contact refused", generated.UpdateDeliveryContactSchema, `{"order_id": "A-19", "contact": {"kind": "email", "phone": "+447700900123"}, "instructions": "x"}`, false},
		{"schedule_order_dispatch", generated.ScheduleOrderDispatchSchema, `{"order_id": "B-77", "dispatch_date": "2026-03-02", "amount_pence": 4500, "currency": "GBP", "note": "Fragile: glass"}`, true},
		{"schedule_order_dispatch refused", generated.ScheduleOrderDispatchSchema, `{"order_id": "B-77", "dispatch_date": "2026-02-30", "amount_pence": 50001, "currency": "USD", "note": null}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := callrecord.NewMasker(tt.name, tt.schema, nil)
			if err != nil {
				t.Fatal(err)
			}
			check, _ := callrecord.NewChecker(tt.name, tt.schema, true)
			args, _ := jsonval.Parse([]byte(tt.args))
			res := m.Mask(args, nil)
			if res.Args == nil {
				t.Fatalf("not replayable: %s", res.Why)
			}
			got, err := check.Decide(res.Args)
			if err != nil || got.Valid != tt.valid || !got.Equal(res.Original) {
				t.Errorf("masked %s decided %+v, the original %+v", res.Args.Marshal(), got, res.Original)
			}
			for _, text := range []string{"Ann", "Lee", "High", "York", "Fragile", "glass", "7700900123"} {
				if strings.Contains(string(res.Args.Marshal()), text) {
					t.Errorf("masked %s keeps %q", res.Args.Marshal(), text)
				}
			}
		})
	}
}
