package integration_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// ---- decoding by tool name ---------------------------------------------------

// toolCodec decodes and round-trips the arguments of one tool, with the
// concrete Args type hidden behind any.
type toolCodec struct {
	decode    func([]byte) (any, error)
	unmarshal func([]byte) (any, error) // through encoding/json and UnmarshalJSON
	roundTrip func(t *testing.T, v any)
}

func codecFor[T any](decode func([]byte) (T, error)) toolCodec {
	return toolCodec{
		decode: func(b []byte) (any, error) {
			v, err := decode(b)
			return v, err
		},
		unmarshal: func(b []byte) (any, error) {
			var v T
			err := json.Unmarshal(b, &v)
			return v, err
		},
		roundTrip: func(t *testing.T, v any) {
			t.Helper()
			b, err := json.Marshal(v.(T))
			if err != nil {
				t.Fatalf("json.Marshal: %v", err)
			}
			w, err := decode(b)
			if err != nil {
				t.Fatalf("decoding the marshalled %s: %v", b, err)
			}
			if !reflect.DeepEqual(v, w) {
				t.Fatalf("round trip changed the value:\n got %+v\nwant %+v\n via %s", w, v, b)
			}
			b2, err := json.Marshal(w)
			if err != nil || !bytes.Equal(b, b2) {
				t.Fatalf("second marshal: %s, %v; want %s", b2, err, b)
			}
		},
	}
}

var codecs = map[string]toolCodec{
	generated.RefundOrderToolName:           codecFor(generated.DecodeRefundOrderArgs),
	generated.CreateShipmentToolName:        codecFor(generated.DecodeCreateShipmentArgs),
	generated.ScheduleOrderDispatchToolName: codecFor(generated.DecodeScheduleOrderDispatchArgs),
	generated.CancelOrderToolName:           codecFor(generated.DecodeCancelOrderArgs),
	generated.GetOrderStatusToolName:        codecFor(generated.DecodeGetOrderStatusArgs),
}

// ---- assertions ----------------------------------------------------------------

// asToolErr returns err as a *toolerr.Error with the given code, failing the
// test otherwise.
func asToolErr(t *testing.T, err error, code toolerr.Code) *toolerr.Error {
	t.Helper()
	var e *toolerr.Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want a *toolerr.Error with code %s", err, err, code)
	}
	if e.Code != code {
		t.Fatalf("code = %s, want %s (error: %v)", e.Code, code, e)
	}
	return e
}

// assertViolation checks that err is a *toolerr.Error of code whose first
// violation is (keyword, pointer), and returns it.
func assertViolation(t *testing.T, err error, code toolerr.Code, keyword, pointer string) *toolerr.Error {
	t.Helper()
	e := asToolErr(t, err, code)
	if len(e.Violations()) == 0 {
		t.Fatalf("no violations in %v", e)
	}
	if v := e.Violations()[0]; v.Keyword != keyword || v.InstancePath != pointer {
		t.Fatalf("violation = (%s, %q), want (%s, %q): %+v", v.Keyword, v.InstancePath, keyword, pointer, v)
	}
	return e
}

// checkOutcome asserts that (v, err), the result of decoding c.Input, is
// c.Want.
func checkOutcome(t *testing.T, c behaviourCase, v any, err error) {
	t.Helper()
	checkOutcomeOffset(t, c, v, err, true)
}

// checkOutcomeOffset is checkOutcome, checking the invalid_json offset only
// when exactOffset is set (encoding/json hands UnmarshalJSON the value with
// surrounding whitespace trimmed, which shifts offsets).
func checkOutcomeOffset(t *testing.T, c behaviourCase, v any, err error, exactOffset bool) {
	t.Helper()
	w := c.Want
	if w.Code == "" {
		if err != nil {
			t.Fatalf("rejected a valid input: %v\ninput: %.300s", err, c.Input)
		}
		if w.Check != nil {
			w.Check(t, v)
		}
		return
	}
	if err == nil {
		t.Fatalf("accepted, want %s\ninput: %.300s", w.Code, c.Input)
	}
	e := asToolErr(t, err, w.Code)
	if e.Tool != c.Tool {
		t.Errorf("Tool = %q, want %q", e.Tool, c.Tool)
	}
	if w.Code == toolerr.InvalidJSON {
		if (exactOffset && e.Offset != w.Offset) || e.Reason == "" || len(e.Violations()) != 0 {
			t.Errorf("invalid_json at %d (%q), want offset %d and a reason, no violations; input %.120q", e.Offset, e.Reason, w.Offset, c.Input)
		}
		return
	}
	if e.Truncated != w.Truncated {
		t.Errorf("Truncated = %v, want %v", e.Truncated, w.Truncated)
	}
	n := max(len(e.Violations()), len(w.Violations))
	for i := range n {
		switch {
		case i >= len(e.Violations()):
			t.Errorf("violation %d missing, want (%s, %q)", i, w.Violations[i].Keyword, w.Violations[i].Pointer)
			continue
		case i >= len(w.Violations):
			t.Errorf("unexpected violation %d: %+v", i, e.Violations()[i])
			continue
		}
		got, want := e.Violations()[i], w.Violations[i]
		if got.Keyword != want.Keyword || got.InstancePath != want.Pointer {
			t.Errorf("violation %d = (%s, %q), want (%s, %q): %s", i, got.Keyword, got.InstancePath, want.Keyword, want.Pointer, got.Message)
		}
		if want.SchemaPath != "" && got.SchemaPath != want.SchemaPath {
			t.Errorf("violation %d schema path = %q, want %q", i, got.SchemaPath, want.SchemaPath)
		}
		if want.Message != "" && got.Message != want.Message {
			t.Errorf("violation %d message = %q,\n want %q", i, got.Message, want.Message)
		}
		if got.SchemaPath == "" || got.Message == "" {
			t.Errorf("violation %d has an empty schema path or message: %+v", i, got)
		}
	}
}
