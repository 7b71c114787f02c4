package integration_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// allocatedBy returns the bytes f allocates, on average over n calls.
func allocatedBy(n int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(n)
}

// TestLargeFailingValueCostsWhatIsShown: refusing a value of almost 1 MiB
// costs what the message shows, not a copy of the value: neither a copy per
// conversion for the message (it was 5 to 11 times the value) nor the
// decode's own copy of a refused string (Decoder.Value), since a refused
// call's result is dropped.
func TestLargeFailingValueCostsWhatIsShown(t *testing.T) {
	const size = 1<<20 - 200
	tests := []struct {
		name, input, keyword string
		limit                uint64
	}{
		{"pattern", refund("orderId", `"`+strings.Repeat("x", size)+`"`), "pattern", 16 << 10},
		{"maximum", refund("amountInCents", strings.Repeat("9", size)), "maximum", 16 << 10},
		{"enum", refund("reason", `"`+strings.Repeat("é", size/2)+`"`), "enum", 16 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			data := []byte(tt.input)
			n := allocatedBy(5, func() { _, err = generated.DecodeRefundOrderArgs(data) })
			var e *toolerr.Error
			if !errors.As(err, &e) || len(e.Violations()) != 1 || e.Violations()[0].Keyword != tt.keyword {
				t.Fatalf("error %v, want one %s violation", err, tt.keyword)
			}
			if !strings.HasSuffix(e.Violations()[0].Message, "…") {
				t.Errorf("the value shown is not marked cut: %q", e.Violations()[0].Message)
			}
			if n > tt.limit {
				t.Errorf("%d bytes allocated to refuse a %d-byte value, want at most %d", n, size, tt.limit)
			}
			t.Logf("%d bytes allocated to refuse a %d-byte value", n, size)
		})
	}
}

// TestRefusalJSONBounded: however the arguments are built — many long
// unknown names, deep paths through them — the refusal's JSON is at most
// toolerr.MaxJSONBytes, says truncated when violations were left out, and
// the summary counts problems.
func TestRefusalJSONBounded(t *testing.T) {
	var kv []string
	for i := range 40 {
		kv = append(kv, fmt.Sprintf("%03d%s", i, strings.Repeat("n", 300)), `1`)
	}
	deep := strings.Repeat(`{"`+strings.Repeat("d", 200)+`":`, 60) + "1" + strings.Repeat("}", 60)
	for name, input := range map[string]string{
		"long unknown names": refund(kv...),
		"deep unknown":       ship("address", addr("extra", deep)),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := generated.DecodeRefundOrderArgs([]byte(input))
			if name == "deep unknown" {
				_, err = generated.DecodeCreateShipmentArgs([]byte(input))
			}
			var e *toolerr.Error
			if !errors.As(err, &e) || e.Code != toolerr.InvalidArguments {
				t.Fatalf("error %v", err)
			}
			data, merr := json.Marshal(e)
			if merr != nil {
				t.Fatal(merr)
			}
			if len(data) > toolerr.MaxJSONBytes {
				t.Errorf("%d bytes of JSON for %d bytes of arguments", len(data), len(input))
			}
			var w struct {
				Message    string              `json:"message"`
				Violations []toolerr.Violation `json:"violations"`
				Truncated  bool                `json:"truncated"`
			}
			if err := json.Unmarshal(data, &w); err != nil {
				t.Fatal(err)
			}
			if len(w.Violations) < len(e.Violations()) && !w.Truncated {
				t.Errorf("%d of %d violations sent, not marked truncated", len(w.Violations), len(e.Violations()))
			}
			if len(e.Violations()) > 1 && !strings.Contains(w.Message, "more problems)") {
				t.Errorf("summary %q does not count problems", w.Message)
			}
			t.Logf("%d bytes of arguments: %d violations, %d bytes of JSON, %d violations sent", len(input), len(e.Violations()), len(data), len(w.Violations))
		})
	}
}

// TestExecutorValueKeepsTheBounds: the float64 a caller receives keeps
// the bounds the text was checked against; 1e-300 (a float64 above 0, but
// no multiple of 0.01) shows the two checks apart.
func TestExecutorValueKeepsTheBounds(t *testing.T) {
	tests := []struct {
		value string
		want  []string // keywords
	}{
		{"1e-400", []string{"multipleOf", "exclusiveMinimum"}},
		{"1e-300", []string{"multipleOf"}},
		{"0", []string{"exclusiveMinimum"}},
		{"0.01", nil},
	}
	for _, tt := range tests {
		a, err := generated.DecodeCreateShipmentArgs([]byte(ship("insured_value", tt.value)))
		var got []string
		var e *toolerr.Error
		if errors.As(err, &e) {
			for _, v := range e.Violations() {
				got = append(got, v.Keyword)
			}
		} else if err != nil {
			t.Fatalf("%s: %v", tt.value, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("insured_value %s: violations %v, want %v", tt.value, got, tt.want)
		}
		if err == nil {
			if x, _ := a.InsuredValue.Get(); x <= 0 {
				t.Errorf("insured_value %s accepted as %v", tt.value, x)
			}
		}
	}
}
