package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// MarshalJSON writes exactly the members that are set, as generated
// argument types do.
func (a nmArgs) MarshalJSON() ([]byte, error) {
	b := []byte(`{"n":` + strconv.FormatInt(a.N, 10))
	if a.M != nil {
		b = append(b, `,"m":`...)
		b = strconv.AppendQuote(b, *a.M)
	}
	return append(b, '}'), nil
}

// strictNM is decodeNM behind the strict reader, as generated decoders are.
func strictNM(nullAsAbsent bool) func([]byte) (nmArgs, error) {
	return func(data []byte) (nmArgs, error) {
		if err := jsonread.Valid(data, jsonread.DefaultLimits); err != nil {
			return nmArgs{}, &toolerr.Error{Code: toolerr.InvalidJSON, Tool: "nm", Reason: "invalid JSON"}
		}
		return decodeNM(nullAsAbsent)(data)
	}
}

func nmSpec() gate.Spec[nmArgs] {
	return gate.Spec[nmArgs]{Name: "nm", Schema: nmSchema, Decode: strictNM(false), DecodeNullAsAbsent: strictNM(true)}
}

// lossyNM forgets m when it is encoded.
type lossyNM nmArgs

func (a lossyNM) MarshalJSON() ([]byte, error) { return nmArgs{N: a.N}.MarshalJSON() }

// brokenNM encodes to invalid JSON.
type brokenNM nmArgs

func (a brokenNM) MarshalJSON() ([]byte, error) { return []byte(`{"n":`), nil }

func convert[A, B any](conv func(A) B, decode func([]byte) (A, error)) func([]byte) (B, error) {
	return func(data []byte) (B, error) {
		a, err := decode(data)
		return conv(a), err
	}
}

func mustFuzzer[A any](t *testing.T, spec gate.Spec[A]) *fuzzer[A] {
	t.Helper()
	fz, err := newFuzzer(spec, "FuzzTest", "")
	if err != nil {
		t.Fatal(err)
	}
	return fz
}

// nmInputs exercise a correct tool: valid, invalid, not strict JSON, and
// numbers beyond the oracle.
var nmInputs = []string{
	`{"n":1}`, `{"n":1,"m":"x"}`, `{"n":1,"m":null}`, `{"n":"1"}`, `{}`, `{"n":1,"x":2}`,
	`{"n":1,"n":2}`, `[`, `{"n":1} {}`, `{"n":1e1000001}`, `{"n":1e1000000}`, `{"n":-1e-10000}`,
}

// TestFuzzCheckPassesCorrectTool: a correct decoder, encoder and gate
// produce no finding, and the counts add up.
func TestFuzzCheckPassesCorrectTool(t *testing.T) {
	fz := mustFuzzer(t, nmSpec())
	for _, in := range nmInputs {
		if err := fz.check([]byte(in)); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
	want := "tool nm: 12 inputs; 3 refused by the strict reader; the oracle judged 7 and could not judge 2 (a number whose exponent exceeds ±10000: 2)"
	if got := fz.stats.summary(); got != want {
		t.Errorf("summary:\n got %s\nwant %s", got, want)
	}
}

// TestFuzzCheckFindings: each broken part is a finding naming it.
func TestFuzzCheckFindings(t *testing.T) {
	acceptAll := func([]byte) (nmArgs, error) { return nmArgs{N: 1}, nil }
	refuseAll := func([]byte) (nmArgs, error) { return nmArgs{}, errors.New("refused") }
	check := func(t *testing.T, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("finding %v, want one containing %q", err, want)
		}
	}
	t.Run("decoder disagrees with the oracle", func(t *testing.T) {
		spec := nmSpec()
		spec.Decode = acceptAll
		check(t, mustFuzzer(t, spec).check([]byte(`{"n":"1"}`)), "the decoder says valid, santhosh-tekuri/jsonschema says valid=false")
	})
	t.Run("decoder accepts duplicate names", func(t *testing.T) {
		spec := nmSpec()
		spec.Decode = decodeNM(false) // encoding/json keeps the last duplicate
		check(t, mustFuzzer(t, spec).check([]byte(`{"n":1,"n":2}`)), "the decoder accepts input the strict reader refuses")
	})
	t.Run("lossy encoding", func(t *testing.T) {
		spec := gate.Spec[lossyNM]{Name: "nm", Schema: nmSchema, Decode: convert(func(a nmArgs) lossyNM { return lossyNM(a) }, strictNM(false))}
		check(t, mustFuzzer(t, spec).check([]byte(`{"n":1,"m":"x"}`)), `encodes to {"n":1}, which decodes to a different value`)
	})
	t.Run("invalid encoding", func(t *testing.T) {
		spec := gate.Spec[brokenNM]{Name: "nm", Schema: nmSchema, Decode: convert(func(a nmArgs) brokenNM { return brokenNM(a) }, strictNM(false))}
		check(t, mustFuzzer(t, spec).check([]byte(`{"n":1}`)), "encodes to invalid JSON")
	})
	t.Run("null-as-absent decoder refuses what Decode accepts", func(t *testing.T) {
		spec := nmSpec()
		spec.DecodeNullAsAbsent = refuseAll
		check(t, mustFuzzer(t, spec).check([]byte(`{"n":1}`)), "Decode accepts it, DecodeNullAsAbsent refuses it")
	})
	t.Run("null-as-absent decoder changes the value", func(t *testing.T) {
		spec := nmSpec()
		spec.DecodeNullAsAbsent = func([]byte) (nmArgs, error) { return nmArgs{N: 2}, nil }
		check(t, mustFuzzer(t, spec).check([]byte(`{"n":1}`)), "accept it as different values")
	})
	t.Run("null-as-absent value does not round-trip", func(t *testing.T) {
		spec := nmSpec()
		bad := "\xff"
		spec.DecodeNullAsAbsent = func([]byte) (nmArgs, error) { return nmArgs{N: 1, M: &bad}, nil }
		check(t, mustFuzzer(t, spec).check([]byte(`{"n":"1"}`)), "the value DecodeNullAsAbsent accepts encodes to invalid JSON")
	})
}

// TestFuzzDispatchCountsExecutions: the spy sees what the gate runs, in the
// plain and the OpenAI dialect, and a verdict the gate does not follow is a
// finding.
func TestFuzzDispatchCountsExecutions(t *testing.T) {
	fz := mustFuzzer(t, nmSpec())
	if !fz.openAI {
		t.Fatal("a tool with DecodeNullAsAbsent and no definitions is not dispatched in the OpenAI dialect")
	}
	refused := errors.New("refused")
	for _, c := range []struct {
		in      string
		dialect gate.Dialect
		verdict error
		want    string
	}{
		{`{"n":1}`, gate.Plain, nil, ""},
		{`{"n":"1"}`, gate.Plain, refused, ""},
		{`{"n":1,"m":null}`, gate.OpenAIChat, nil, ""},
		{`{"n":1,"m":null}`, gate.Plain, refused, ""},
		{`{"n":1}`, gate.Plain, refused, "the gate ran a call its decoder refuses"},
		{`{"n":"1"}`, gate.Plain, nil, "the decoder accepts it but the gate ran the executor 0 times"},
		{`{"n":1,"m":null}`, gate.Plain, nil, "the decoder accepts it but the gate ran the executor 0 times"},
	} {
		err := fz.dispatch([]byte(c.in), c.dialect, c.verdict)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %s: %v", c.dialect, c.in, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %s: finding %v, want one containing %q", c.dialect, c.in, err, c.want)
		}
	}
}

// TestOracleLimits: numbers beyond the oracle's limits are not judged; the
// others are, at the edge of the limits too.
func TestOracleLimits(t *testing.T) {
	o, err := newOracle("limits", nmSchema)
	if err != nil {
		t.Fatal(err)
	}
	long := "1" + strings.Repeat("0", maxOracleNumberLen)
	for _, c := range []struct {
		in    string
		valid bool
		skip  string
	}{
		{`{"n":1e10000}`, true, ""},
		{`{"n":-1E+10000}`, true, ""},
		{`{"n":1e-10000}`, false, ""},
		{`{"n":1e0000000000010000}`, true, ""},
		{`{"n":1e10001}`, false, skipHugeExp},
		{`{"n":1e1000001}`, false, skipHugeExp},
		{`{"n":1e-99999999999999999999}`, false, skipHugeExp},
		{`{"n":1,"m":"1e1000001"}`, true, ""},
		{`{"n":1,"x":[{"y":1e1000001}]}`, false, skipHugeExp},
		{`{"n":` + long[:maxOracleNumberLen] + `}`, true, ""},
		{`{"n":` + long + `}`, false, skipLongNumber},
	} {
		valid, skip, _ := o.judge([]byte(c.in))
		if valid != c.valid || skip != c.skip {
			t.Errorf("%.60s: valid=%v skip=%q, want valid=%v skip=%q", c.in, valid, skip, c.valid, c.skip)
		}
	}
}

// TestOracleLimitIsNeeded: santhosh-tekuri/jsonschema panics on 1e1000001
// (nil big.Rat), the reason for maxOracleExponent. Should a new version
// judge it, the limit can be revisited.
func TestOracleLimitIsNeeded(t *testing.T) {
	o, err := newOracle("panic", nmSchema)
	if err != nil {
		t.Fatal(err)
	}
	panicked := func() (p bool) {
		defer func() { p = recover() != nil }()
		_ = o.schema.Validate(map[string]any{"n": json.Number("1e1000001")})
		return false
	}()
	if !panicked {
		t.Error("santhosh-tekuri/jsonschema no longer panics on 1e1000001")
	}
}

// TestOracleRecoversPanics: a panic of the oracle is a skip with its value.
func TestOracleRecoversPanics(t *testing.T) {
	valid, skip, detail := oracle{}.judge([]byte(`{"n":1}`))
	if valid || skip != skipPanic || detail == "" {
		t.Fatalf("got valid=%v skip=%q detail=%q, want a recovered panic", valid, skip, detail)
	}
}

// TestSkipLog: with SkipLogEnv set, each skipped input is a line of the
// log, and the summary names the reasons.
func TestSkipLog(t *testing.T) {
	log := filepath.Join(t.TempDir(), "skips")
	fz, err := newFuzzer(nmSpec(), "FuzzNM", log)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{`{"n":1e1000001}`, `{"n":1}`, `{"n":1e-20000}`} {
		if err := fz.check([]byte(in)); err != nil {
			t.Fatal(err)
		}
	}
	fz.stats.input()
	fz.stats.skip(skipPanic, "boom")
	got, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := "FuzzNM\t" + skipHugeExp + "\nFuzzNM\t" + skipHugeExp + "\nFuzzNM\t" + skipPanic + "\n"
	if string(got) != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}
	wantSummary := "tool nm: 4 inputs; 0 refused by the strict reader; the oracle judged 1 and could not judge 3 (a number whose exponent exceeds ±10000: 2, the oracle panicked (first: boom): 1)"
	if s := fz.stats.summary(); s != wantSummary {
		t.Errorf("summary:\n got %s\nwant %s", s, wantSummary)
	}
}

// TestHostileSeeds: the seeds added to the boundary matrix, for a base
// with a nested number.
func TestHostileSeeds(t *testing.T) {
	got := hostileSeeds([]byte(`{"n":1,"a":[2,{"b":3}],"s":"4"}`))
	want := []string{
		`{"n":1e1000001,"a":[1e1000001,{"b":1e1000001}],"s":"4"}`,
		`{"n":1e1000000,"a":[1e1000000,{"b":1e1000000}],"s":"4"}`,
		`{"n":1e400,"a":[1e400,{"b":1e400}],"s":"4"}`,
		`{"n":1e-400,"a":[1e-400,{"b":1e-400}],"s":"4"}`,
		`{"n":-0,"a":[-0,{"b":-0}],"s":"4"}`,
		`{"n":1.00000000000000000000001,"a":[1.00000000000000000000001,{"b":1.00000000000000000000001}],"s":"4"}`,
		`{"n":1,"a":[2,{"b":3}],"s":"4"} {}`,
		`{"n":1,"n":1,"a":[2,{"b":3}],"s":"4"}`,
		"{\"\xff\":0,\"n\":1,\"a\":[2,{\"b\":3}],\"s\":\"4\"}",
		`{"\ud800":0,"n":1,"a":[2,{"b":3}],"s":"4"}`,
	}
	if len(got) != len(want) {
		t.Fatalf("%d seeds, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		if !bytes.Equal(got[i], []byte(want[i])) {
			t.Errorf("seed %d: %s, want %s", i, got[i], want[i])
		}
	}
	if s := hostileSeeds([]byte(`{}`)); len(s) != 3 {
		t.Errorf("a base without numbers or members: %q, want trailing data, invalid UTF-8 and a lone surrogate", s)
	}
}

// TestAgreeAllowsOnlyUnrepresentableNumbers: the one difference agree
// allows is a refusal, by a "type" violation, of a number the member's Go
// type cannot hold while JSON Schema accepts it; nothing wider.
func TestAgreeAllowsOnlyUnrepresentableNumbers(t *testing.T) {
	eff, err := jsonval.Parse([]byte(`{"type":"object","properties":{"i":{"type":"integer"},"f":{"type":["number","null"]},"s":{"type":"string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	typeErr := func(ptr string, n int) error {
		var vs []toolerr.Violation
		for range n {
			vs = append(vs, toolerr.Violation{Keyword: "type", InstancePath: ptr, SchemaPath: "/properties" + ptr + "/type"})
		}
		return (&toolerr.Error{Code: toolerr.InvalidArguments, Tool: "t"}).SetViolations(vs)
	}
	for _, c := range []struct {
		name  string
		data  string
		err   error
		valid bool
		want  bool
	}{
		{"both accept", `{"i":1}`, nil, true, true},
		{"both refuse", `{"i":"1"}`, typeErr("/i", 1), false, true},
		{"integer beyond int64", `{"i":1e400}`, typeErr("/i", 1), true, true},
		{"integer just beyond int64", `{"i":9223372036854775808}`, typeErr("/i", 1), true, true},
		{"number beyond float64", `{"f":-1e400}`, typeErr("/f", 1), true, true},
		{"two such numbers", `{"i":1e19,"f":1e309}`, (&toolerr.Error{Code: toolerr.InvalidArguments}).SetViolations([]toolerr.Violation{
			{Keyword: "type", InstancePath: "/i", SchemaPath: "/properties/i/type"},
			{Keyword: "type", InstancePath: "/f", SchemaPath: "/properties/f/type"},
		}), true, true},
		{"one such number and another violation", `{"i":1e19,"s":1}`, (&toolerr.Error{Code: toolerr.InvalidArguments}).SetViolations([]toolerr.Violation{
			{Keyword: "type", InstancePath: "/i", SchemaPath: "/properties/i/type"},
			{Keyword: "type", InstancePath: "/s", SchemaPath: "/properties/s/type"},
		}), true, false},
		{"integer within int64", `{"i":9223372036854775807}`, typeErr("/i", 1), true, false},
		{"integer written with a fraction", `{"i":1.5e400}`, typeErr("/i", 1), true, true},
		{"number within float64", `{"f":1e308}`, typeErr("/f", 1), true, false},
		{"number below float64's precision", `{"f":1e-400}`, typeErr("/f", 1), true, false},
		{"a string", `{"s":"1e400"}`, typeErr("/s", 1), true, false},
		{"another keyword", `{"i":1e400}`, (&toolerr.Error{Code: toolerr.InvalidArguments}).SetViolations([]toolerr.Violation{{Keyword: "maximum", InstancePath: "/i", SchemaPath: "/properties/i/maximum"}}), true, false},
		{"pointer to nothing", `{"i":1e400}`, typeErr("/j", 1), true, false},
		{"violations cut at the cap", `{"i":1e400}`, typeErr("/i", toolerr.MaxViolations), true, false},
		{"not a violation", `{"i":1e400}`, &toolerr.Error{Code: toolerr.InvalidJSON}, true, false},
		{"not a toolerr", `{"i":1e400}`, errors.New("refused"), true, false},
		{"decoder accepts what the oracle refuses", `{"i":1e400}`, nil, false, false},
	} {
		if got := agree(eff, []byte(c.data), c.err, c.valid); got != c.want {
			t.Errorf("%s: agree = %v, want %v", c.name, got, c.want)
		}
	}
}
