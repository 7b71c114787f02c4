package toolerr

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSmallErrorsUnchanged: an error within MaxJSONBytes is written in
// full, exactly as before the bound existed.
func TestSmallErrorsUnchanged(t *testing.T) {
	e := (&Error{Code: InvalidArguments, Tool: "refund_order"}).SetViolations([]Violation{
		{Keyword: "enum", InstancePath: "/reason", SchemaPath: "/properties/reason/enum", Message: "reason must be one of duplicate or fraudulent; received other"},
	})
	got, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"code":"invalid_arguments","category":"validation","tool":"refund_order","message":"invalid_arguments for tool refund_order: reason must be one of duplicate or fraudulent; received other","violations":[{"keyword":"enum","instancePath":"/reason","schemaPath":"/properties/reason/enum","message":"reason must be one of duplicate or fraudulent; received other"}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	j := &Error{Code: InvalidJSON, Tool: "t", Offset: 0, Reason: "unexpected end of input"}
	got, _ = json.Marshal(j)
	if want := `{"code":"invalid_json","category":"validation","tool":"t","message":"invalid_json for tool t: at byte 0: unexpected end of input","offset":0,"reason":"unexpected end of input"}`; string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestMoreProblems: the summary counts the other violations as problems.
func TestMoreProblems(t *testing.T) {
	v := Violation{Keyword: "required", Message: "a is required"}
	tests := []struct {
		n         int
		truncated bool
		want      string
	}{
		{1, false, "invalid_arguments: a is required"},
		{2, false, "invalid_arguments: a is required (and 1 more problem)"},
		{3, false, "invalid_arguments: a is required (and 2 more problems)"},
		{1, true, "invalid_arguments: a is required (and 0+ more problems)"},
		{32, true, "invalid_arguments: a is required (and 31+ more problems)"},
	}
	for _, tt := range tests {
		var vs []Violation
		for range tt.n {
			vs = append(vs, v)
		}
		e := (&Error{Code: InvalidArguments, Truncated: tt.truncated}).SetViolations(vs)
		if got := e.Error(); got != tt.want {
			t.Errorf("%d violations, truncated %v: %q, want %q", tt.n, tt.truncated, got, tt.want)
		}
	}
}

// TestJSONBounded: however large the parts, the JSON is at most
// MaxJSONBytes, valid, marks the cut, and keeps the violations that fit
// in order.
func TestJSONBounded(t *testing.T) {
	long := func(n int, s string) string { return strings.Repeat(s, n) }
	many := func(n, size int) []Violation {
		var vs []Violation
		for i := range n {
			vs = append(vs, Violation{Keyword: "additionalProperties", InstancePath: fmt.Sprintf("/%d/", i) + long(size, "k"), SchemaPath: "/additionalProperties", Message: fmt.Sprintf("%d ", i) + long(size, "m")})
		}
		return vs
	}
	tests := []struct {
		name     string
		e        *Error
		minKept  int // violations that must survive
		cutParts bool
	}{
		{"many large violations", (&Error{Code: InvalidArguments, Tool: "t"}).SetViolations(many(MaxViolations, 1000)), 3, false},
		{"one huge violation", (&Error{Code: InvalidArguments, Tool: "t"}).SetViolations(many(1, 100000)), 0, true},
		{"a huge call ID and tool", (&Error{Code: InvalidArguments, Tool: long(10000, "t"), CallID: long(100000, "c")}).SetViolations(many(2, 10)), 2, true},
		{"escapes multiply the size", &Error{Code: InvalidJSON, Reason: long(50000, "\x01<"), CallID: long(50000, "\u2028")}, 0, true},
		{"invalid UTF-8", &Error{Code: InvalidJSON, Reason: long(50000, "\xff"), CallID: long(50000, "é")}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if len(data) > MaxJSONBytes {
				t.Fatalf("%d bytes, more than %d", len(data), MaxJSONBytes)
			}
			var w struct {
				Message    string      `json:"message"`
				Reason     string      `json:"reason"`
				CallID     string      `json:"callId"`
				Violations []Violation `json:"violations"`
				Truncated  bool        `json:"truncated"`
			}
			if err := json.Unmarshal(data, &w); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			if !w.Truncated {
				t.Error("the cut is not marked truncated")
			}
			if len(w.Violations) < tt.minKept {
				t.Errorf("%d violations kept, want at least %d", len(w.Violations), tt.minKept)
			}
			for i, v := range w.Violations {
				if v != tt.e.Violations()[i] {
					t.Errorf("violation %d changed: %+v", i, v)
				}
			}
			if tt.cutParts && !strings.HasSuffix(w.Message, "…") && !strings.HasSuffix(w.Reason, "…") && !strings.HasSuffix(w.CallID, "…") {
				t.Error("no cut string marked with …")
			}
			for _, s := range []string{w.Message, w.Reason, w.CallID} {
				if !utf8.ValidString(s) {
					t.Errorf("cut inside a rune: %q", s)
				}
			}
		})
	}
}

// TestCutJSON: a cut string's encoding fits its share exactly as
// encoding/json writes it.
func TestCutJSON(t *testing.T) {
	for _, s := range []string{"abc", strings.Repeat("a", 300), strings.Repeat("\x01", 300), strings.Repeat("é<\u2028\"", 300), strings.Repeat("\xff", 300)} {
		for _, max := range []int{16, 100, 256} {
			got := cutJSON(s, max)
			enc, _ := json.Marshal(got)
			if len(enc) > max {
				t.Errorf("cutJSON(%.20q, %d): %d bytes encoded", s, max, len(enc))
			}
			if jsonLen(got) < len(enc) {
				t.Errorf("jsonLen(%.20q) = %d, encoding/json writes %d", got, jsonLen(got), len(enc))
			}
			if got != s && !strings.HasSuffix(got, "…") {
				t.Errorf("cutJSON(%.20q, %d) = %q: cut not marked", s, max, got)
			}
		}
	}
}

// TestInvalidResultWithholdsViolations: an invalid_result is a system
// error whose JSON and message leave its violations out (they describe the
// withheld result), while the Go value keeps them for the auditor; the same
// violations on invalid_arguments are shown.
func TestInvalidResultWithholdsViolations(t *testing.T) {
	vs := []Violation{{Keyword: "enum", InstancePath: "/status", SchemaPath: "/properties/status/enum", Message: "status must be one of paid or packed; received lost"}}
	for _, tt := range []struct {
		code  Code
		cat   Category
		shown bool
	}{
		{InvalidResult, System, false},
		{InvalidArguments, Validation, true},
	} {
		e := (&Error{Code: tt.code, Tool: "t", Reason: "r", Truncated: true}).SetViolations(vs)
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{string(b), e.Error()} {
			if strings.Contains(s, "received lost") != tt.shown {
				t.Errorf("%s: %s shows the violation: %v, want %v", tt.code, s, !tt.shown, tt.shown)
			}
		}
		if strings.Contains(string(b), `"truncated"`) != tt.shown || !strings.Contains(string(b), `"category":"`+string(tt.cat)+`"`) || len(e.Violations()) != 1 {
			t.Errorf("%s: %s", tt.code, b)
		}
	}
}

// TestViolationsSetAndReadBack: violations set by hand are the error's;
// none is nil; an error read back from its JSON has its code, tool,
// offset, reason, violations and truncation.
func TestViolationsSetAndReadBack(t *testing.T) {
	vs := []Violation{{Keyword: "enum", InstancePath: "/reason", SchemaPath: "/properties/reason/enum", Message: "reason must be one of a or b; received c"}}
	e := (&Error{Code: InvalidArguments, Tool: "t", CallID: "c1", Truncated: true}).SetViolations(vs)
	if got := e.Violations(); len(got) != 1 || got[0] != vs[0] {
		t.Fatalf("Violations() = %+v", got)
	}
	if (&Error{Code: Timeout}).Violations() != nil || (&Error{}).SetViolations(nil).Violations() != nil {
		t.Error("an error without violations lists some")
	}
	for _, in := range []*Error{e, {Code: InvalidJSON, Tool: "t", Offset: 7, Reason: "unexpected end of input"}} {
		data, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var back Error
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		again, _ := json.Marshal(&back)
		if string(again) != string(data) || back.Code != in.Code || back.Offset != in.Offset || len(back.Violations()) != len(in.Violations()) {
			t.Errorf("read back %s as %s", data, again)
		}
	}
}
