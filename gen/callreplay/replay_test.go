package callreplay

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/callrecord"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

func TestDecide(t *testing.T) {
	dir := t.TempDir()
	tool := `{"name": "refund_order", "description": "d", "parameters": {"type": "object", "properties": {
	  "n": {"type": "integer", "maximum": 5}, "r": {"type": "string", "enum": ["a", "b"]}, "d": {"type": "string", "format": "date"}}, "required": ["n"]}}`
	if err := os.WriteFile(filepath.Join(dir, "t.json"), []byte(tool), 0o644); err != nil {
		t.Fatal(err)
	}
	tools, err := gen.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(gen.Analyze(tools, gen.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool, args string
		code       string
		keywords   []string
	}{
		{"refund_order", ``, NotReplayable, nil},
		{"refund_order", `{"n": 1e99999}`, Unjudged, nil},
		{"refund_order", `{"n": 5, "r": "a"}`, callrecord.Accepted, nil},
		{"refund_order", `{"n": 6, "r": "c"}`, "invalid_arguments", []string{"enum", "maximum"}},
		{"refund_order", `{"r": "a"}`, "invalid_arguments", []string{"required"}},
		{"refund_order", `{"n": 1, "x": 1}`, "invalid_arguments", []string{"additionalProperties"}},
		{"refund_order", `{"n": 1, "d": "2026-13-01"}`, "invalid_arguments", []string{"format"}},
		{"refund_order", `{"n": 1.5}`, "invalid_arguments", []string{"type"}},
		{"gone", `{}`, UnknownTool, nil},
	}
	for _, tt := range tests {
		r := &callrecord.Record{Tool: tt.tool, Replayable: tt.args != "", Reason: "no stand-in"}
		if r.Replayable {
			args, err := jsonval.Parse([]byte(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			r.Args = args
		}
		got := s.Decide(r)
		if got.Code != tt.code || !slices.Equal(got.Keywords, tt.keywords) {
			t.Errorf("Decide(%s %s) = %v, want %s %v", tt.tool, tt.args, got, tt.code, tt.keywords)
		}
	}
	if s.Version("refund_order") == "" || s.Version("gone") != "" {
		t.Error("versions")
	}
}

func TestAgrees(t *testing.T) {
	rec := Recorded(&callrecord.Record{Code: "invalid_arguments", Violations: []callrecord.Violation{{Keyword: "maximum", InstancePath: "/n"}, {Keyword: "maximum", InstancePath: "/m"}}})
	if !slices.Equal(rec.Keywords, []string{"maximum"}) {
		t.Fatalf("Recorded keywords %v", rec.Keywords)
	}
	for _, tt := range []struct {
		decided Outcome
		want    bool
	}{
		{Outcome{"invalid_arguments", []string{"maximum"}}, true},
		{Outcome{"invalid_arguments", []string{"enum", "maximum"}}, true},
		{Outcome{"invalid_arguments", []string{"enum"}}, false},
		{Outcome{callrecord.Accepted, nil}, false},
		{Outcome{NotReplayable, nil}, false},
	} {
		if got := Agrees(rec, tt.decided); got != tt.want {
			t.Errorf("Agrees(%v, %v) = %v", rec, tt.decided, got)
		}
	}
}

func TestLoadDir(t *testing.T) {
	entries, err := LoadDir("../../runtime/callrecord/testdata/refund_order")
	if err != nil || len(entries) != 4 {
		t.Fatalf("%d entries, %v", len(entries), err)
	}
	dir := t.TempDir()
	if _, err := LoadDir(dir); err == nil {
		t.Error("an empty folder loaded")
	}
	if _, err := LoadDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing folder loaded")
	}
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"tool": "x"}`), 0o644)
	if _, err := LoadDir(dir); err == nil {
		t.Error("a bad record loaded")
	}
	big := t.TempDir()
	os.WriteFile(filepath.Join(big, "big.json"), append([]byte(`"`), make([]byte, maxRecordBytes)...), 0o644)
	if _, err := LoadDir(big); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("a record past %d bytes: %v", maxRecordBytes, err)
	}
}

// TestNotReplayableAgreesWithNothing: a record without arguments never
// passes, whatever its recorded code says.
func TestNotReplayableAgreesWithNothing(t *testing.T) {
	for _, code := range []string{callrecord.Accepted, "invalid_arguments", NotReplayable} {
		if Agrees(Outcome{Code: code}, Outcome{Code: NotReplayable}) {
			t.Errorf("a record recorded as %s agrees with %s", code, NotReplayable)
		}
	}
}
