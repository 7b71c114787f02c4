package contract

import (
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonread"
)

// FuzzResult is the body of the fuzz target toolgate generates for each
// tool with a result schema (FuzzDecode<Tool>Result). It seeds the corpus
// with the result schema's boundary matrix (ValueInstances) and checks
// every input:
//
//  1. the result decoder agrees with santhosh-tekuri/jsonschema on the
//     effective result schema, as Fuzz checks the arguments' decoder (the
//     same numbers are left unjudged and counted);
//  2. a value it accepts encodes (ResultSpec.Encode) to JSON it accepts as
//     an equal value;
//  3. a gate whose typed executor returns that value sends exactly the
//     encoding (Result.JSON), and no invalid_result.
func FuzzResult[R any](f *testing.F, tool string, out gate.ResultSpec[R]) {
	f.Helper()
	skipLog := os.Getenv(SkipLogEnv)
	o, err := newOracle(tool+"-result-fuzz", out.Schema)
	if err != nil {
		f.Fatal(err)
	}
	seeds, err := ValueInstances([]byte(out.Schema), maxInstances)
	if err != nil {
		f.Fatalf("tool %s: deriving result seed instances: %v", tool, err)
	}
	for _, in := range seeds {
		f.Add(in.JSON)
	}
	for _, s := range hostileSeeds(seeds[0].JSON) {
		f.Add(s)
	}
	var value R
	reg, err := gate.NewRegistry([]*gate.Tool{gate.BindTyped(gate.Spec[struct{}]{
		Name: tool, Decode: func([]byte) (struct{}, error) { return struct{}{}, nil },
	}, out, gate.TypedBinding[struct{}, R]{
		Policy:  gate.AllowAll[struct{}],
		Execute: func(context.Context, struct{}) (R, error) { return value, nil },
	})})
	if err != nil {
		f.Fatal(err)
	}
	stats := &fuzzStats{target: f.Name(), tool: tool, skipLog: skipLog, skipped: map[string]int{}}
	f.Cleanup(func() {
		if s := stats.summary(); s != "" {
			f.Log(s)
		}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		stats.input()
		v, derr := out.Decode(data)
		if jsonread.Valid(data, jsonread.DefaultLimits) != nil {
			if derr == nil {
				t.Fatalf("tool %s, result %q: the decoder accepts input the strict reader refuses", tool, data)
			}
			return
		}
		valid, skip, detail := o.judge(data)
		if skip != "" {
			stats.skip(skip, detail)
		} else {
			stats.judge()
			if !agree(o.eff, data, derr, valid) {
				t.Fatalf("tool %s, result %q: the decoder says %s, santhosh-tekuri/jsonschema says valid=%v", tool, data, errOrOK(derr), valid)
			}
		}
		if derr != nil {
			return
		}
		enc, err := out.Encode(v)
		if err != nil {
			t.Fatalf("tool %s, result %q: the accepted value does not encode: %v", tool, data, err)
		}
		if w, err := out.Decode(enc); err != nil || !reflect.DeepEqual(v, w) {
			t.Fatalf("tool %s, result %q: the accepted value encodes to %s, which decodes to %#v (%v), not %#v", tool, data, enc, w, err, v)
		}
		value = v
		res, _ := reg.Dispatch(context.Background(), gate.Caller{}, gate.Call{Name: tool, Args: []byte(`{}`), Complete: true})
		if res.Err != nil || string(res.JSON) != string(enc) {
			t.Fatalf("tool %s, result %q: the gate sent %s (%v), want %s", tool, data, res.JSON, res.Err, enc)
		}
	})
}
