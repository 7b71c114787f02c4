package contract

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
)

// SkipLogEnv names an environment variable: when it holds a file name,
// every fuzz input the oracle does not judge appends a line "target<TAB>reason"
// to that file. Go's fuzzing engine runs inputs in worker processes whose
// output it discards, so this is how a fuzzing run (make fuzz) counts them;
// a plain go test run (seeds and testdata/fuzz) logs the count itself.
const SkipLogEnv = "TOOLGATE_FUZZ_SKIPLOG"

// Fuzz is the body of the fuzz target toolgate generates for each tool
// (FuzzDecode<Tool>Args). It seeds the corpus with the tool's boundary
// matrix (Instances; Go adds the files under testdata/fuzz/<target>/), then
// checks every input:
//
//  1. Decode agrees with santhosh-tekuri/jsonschema on the effective schema
//     (input the strict reader refuses — duplicate names, invalid UTF-8, lone
//     surrogates, which the oracle cannot see — must be refused), except
//     that it refuses integers beyond int64 and numbers beyond float64's
//     range, which JSON Schema accepts. Input with a number the oracle
//     cannot judge (an exponent beyond ±10000, or longer than 1,000
//     characters) is counted and not compared; a panic of the oracle is
//     recovered and counted the same way. The count is logged at the end
//     of a go test run, and written to the file SkipLogEnv names.
//  2. A value Decode accepts re-encodes (MarshalJSON) to valid JSON that
//     Decode accepts and decodes to an equal value; so does a value
//     DecodeNullAsAbsent accepts, and whatever Decode accepts
//     DecodeNullAsAbsent accepts as the same value.
//  3. Through a gate whose executor is a spy, a plain call runs the executor
//     exactly once when Decode accepts the input and never when it refuses
//     it; so does an OpenAI call, by DecodeNullAsAbsent's verdict, when the
//     tool has that decoder and an OpenAI definition.
//
// A, the generated argument type, must implement json.Marshaler.
func Fuzz[A any](f *testing.F, spec gate.Spec[A]) {
	f.Helper()
	skipLog := os.Getenv(SkipLogEnv)
	if skipLog != "" {
		// Fail here, where it shows, rather than in a worker.
		lf, err := os.OpenFile(skipLog, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			f.Fatalf("%s: %v", SkipLogEnv, err)
		}
		lf.Close()
	}
	fz, err := newFuzzer(spec, f.Name(), skipLog)
	if err != nil {
		f.Fatal(err)
	}
	seeds, err := Instances([]byte(spec.Schema), maxInstances)
	if err != nil {
		f.Fatalf("tool %s: deriving seed instances: %v", spec.Name, err)
	}
	for _, in := range seeds {
		f.Add(in.JSON)
	}
	for _, s := range hostileSeeds(seeds[0].JSON) {
		f.Add(s)
	}
	f.Cleanup(func() {
		if s := fz.stats.summary(); s != "" {
			f.Log(s)
		}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := fz.check(data); err != nil {
			t.Fatal(err)
		}
	})
}

// hostileNumbers replace every number of the valid base instance in a seed
// each: beyond the oracle's reach (1e1000001 made it panic, 1e1000000 takes
// it 100 ms), beyond float64's range and precision, and negative zero.
var hostileNumbers = []string{"1e1000001", "1e1000000", "1e400", "1e-400", "-0", "1.00000000000000000000001"}

// hostileSeeds are inputs no boundary matrix holds: the valid base with
// each of hostileNumbers in place of all its numbers, and the base followed
// by trailing data, with a duplicate member, with an invalid UTF-8 name
// and with a lone surrogate in a name.
func hostileSeeds(base []byte) [][]byte {
	v, err := jsonval.Parse(base)
	if err != nil || v.Kind != jsonval.Object {
		return nil
	}
	var out [][]byte
	for _, n := range hostileNumbers {
		c := v.Clone()
		if setNumbers(c, n) {
			out = append(out, c.Marshal())
		}
	}
	out = append(out, append(slices.Clone(base), " {}"...))
	if len(v.Members) > 0 {
		m := (&jsonval.Value{Kind: jsonval.Object, Members: v.Members[:1]}).Marshal()
		// {"a":1} + {"a":1,...} = {"a":1,"a":1,...}
		dup := append(m[:len(m)-1:len(m)-1], ',')
		out = append(out, append(dup, base[1:]...))
	}
	out = append(out, append([]byte("{\"\xff\":0,"), base[1:]...), append([]byte(`{"\ud800":0,`), base[1:]...))
	return out
}

// setNumbers sets every number in v to text n and reports whether there was
// one.
func setNumbers(v *jsonval.Value, n string) bool {
	found := false
	switch v.Kind {
	case jsonval.Number:
		v.Str, found = n, true
	case jsonval.Object:
		for _, m := range v.Members {
			found = setNumbers(m.Value, n) || found
		}
	case jsonval.Array:
		for _, it := range v.Items {
			found = setNumbers(it, n) || found
		}
	}
	return found
}

// spyKey is the context key of a dispatch's executor counter.
type spyKey struct{}

// fuzzer checks inputs for one tool.
type fuzzer[A any] struct {
	spec   gate.Spec[A]
	oracle oracle
	reg    *gate.Registry
	caller gate.Caller
	// openAI is set when calls in the OpenAI Chat dialect reach the tool
	// and are decoded by DecodeNullAsAbsent.
	openAI bool
	stats  *fuzzStats
}

func newFuzzer[A any](spec gate.Spec[A], target, skipLog string) (*fuzzer[A], error) {
	var zero A
	if _, ok := any(zero).(json.Marshaler); !ok {
		return nil, fmt.Errorf("tool %s: %T does not implement json.Marshaler", spec.Name, zero)
	}
	o, err := newOracle(spec.Name+"-fuzz", spec.Schema)
	if err != nil {
		return nil, err
	}
	bound := gate.Bind(withoutApproval(spec), gate.Binding[A]{
		Policy: gate.AllowAll[A],
		Execute: func(ctx context.Context, _ A) (any, error) {
			if n, ok := ctx.Value(spyKey{}).(*atomic.Int32); ok {
				n.Add(1)
			}
			return nil, nil
		},
	})
	reg, err := gate.NewRegistry([]*gate.Tool{bound})
	if err != nil {
		return nil, err
	}
	openAI := spec.DecodeNullAsAbsent != nil && (len(spec.Definitions) == 0 ||
		slices.ContainsFunc(spec.Definitions, func(d provider.Definition) bool { return d.Provider == provider.OpenAIChat }))
	return &fuzzer[A]{
		spec: spec, oracle: o, reg: reg, openAI: openAI,
		// A principal who may see the tool, so that the gate reaches the
		// decoder.
		caller: gate.Caller{Principal: gate.Principal{ID: "fuzz", Roles: spec.Roles}},
		stats:  &fuzzStats{target: target, tool: spec.Name, skipLog: skipLog, skipped: map[string]int{}},
	}, nil
}

// check runs every check on one input and returns the first finding.
func (fz *fuzzer[A]) check(data []byte) error {
	fz.stats.input()
	v, err := fz.spec.Decode(data)
	if e := fz.differential(data, err); e != nil {
		return e
	}
	if err == nil {
		if e := fz.roundTrip("Decode", data, v); e != nil {
			return e
		}
	}
	if e := fz.dispatch(data, gate.Plain, err); e != nil {
		return e
	}
	if fz.spec.DecodeNullAsAbsent == nil {
		return nil
	}
	w, nerr := fz.spec.DecodeNullAsAbsent(data)
	switch {
	case err == nil && nerr != nil:
		return fmt.Errorf("tool %s, input %q: Decode accepts it, DecodeNullAsAbsent refuses it: %v", fz.spec.Name, data, nerr)
	case err == nil && !reflect.DeepEqual(v, w):
		return fmt.Errorf("tool %s, input %q: Decode and DecodeNullAsAbsent accept it as different values:\n%#v\n%#v", fz.spec.Name, data, v, w)
	case nerr == nil:
		if e := fz.roundTrip("DecodeNullAsAbsent", data, w); e != nil {
			return e
		}
	}
	if fz.openAI {
		return fz.dispatch(data, gate.OpenAIChat, nerr)
	}
	return nil
}

// differential compares Decode's verdict with the oracle's.
func (fz *fuzzer[A]) differential(data []byte, decodeErr error) error {
	if jsonread.Valid(data, jsonread.DefaultLimits) != nil {
		if decodeErr == nil {
			return fmt.Errorf("tool %s, input %q: the decoder accepts input the strict reader refuses", fz.spec.Name, data)
		}
		return nil
	}
	valid, skip, detail := fz.oracle.judge(data)
	if skip != "" {
		fz.stats.skip(skip, detail)
		return nil
	}
	fz.stats.judge()
	if !agree(fz.oracle.eff, data, decodeErr, valid) {
		return fmt.Errorf("tool %s, input %q: the decoder says %s, santhosh-tekuri/jsonschema says valid=%v", fz.spec.Name, data, errOrOK(decodeErr), valid)
	}
	return nil
}

// roundTrip checks that v, which decoder accepted from data, re-encodes to
// JSON that Decode accepts as an equal value.
func (fz *fuzzer[A]) roundTrip(decoder string, data []byte, v A) error {
	enc, err := any(v).(json.Marshaler).MarshalJSON()
	switch {
	case err != nil:
		return fmt.Errorf("tool %s, input %q: the value %s accepts does not encode: %v", fz.spec.Name, data, decoder, err)
	case !json.Valid(enc):
		return fmt.Errorf("tool %s, input %q: the value %s accepts encodes to invalid JSON %q", fz.spec.Name, data, decoder, enc)
	}
	w, err := fz.spec.Decode(enc)
	switch {
	case err != nil:
		return fmt.Errorf("tool %s, input %q: the value %s accepts encodes to %s, which Decode refuses: %v", fz.spec.Name, data, decoder, enc, err)
	case !reflect.DeepEqual(v, w):
		return fmt.Errorf("tool %s, input %q: the value %s accepts encodes to %s, which decodes to a different value:\n%#v\n%#v", fz.spec.Name, data, decoder, enc, v, w)
	}
	return nil
}

// dispatch runs data through the gate in dialect d and checks that the spy
// executor ran exactly once when decodeErr (the dialect's decoder's
// verdict) is nil, and never otherwise.
func (fz *fuzzer[A]) dispatch(data []byte, d gate.Dialect, decodeErr error) error {
	var runs atomic.Int32
	ctx := context.WithValue(context.Background(), spyKey{}, &runs)
	res, err := fz.reg.Dispatch(ctx, fz.caller, gate.Call{Name: fz.spec.Name, Args: data, Complete: true, Dialect: d})
	n := runs.Load()
	where := fmt.Sprintf("tool %s, %s call %q", fz.spec.Name, dialectName(d), data)
	switch {
	case err != nil && n != 0:
		return fmt.Errorf("%s: refused (%v) but the executor ran %d times", where, err, n)
	case err == nil && decodeErr != nil:
		return fmt.Errorf("%s: the gate ran a call its decoder refuses (%v)", where, decodeErr)
	case decodeErr == nil && (err != nil || n != 1 || !res.Executed):
		return fmt.Errorf("%s: the decoder accepts it but the gate ran the executor %d times (Executed %v, error %v)", where, n, res.Executed, err)
	}
	return nil
}

func dialectName(d gate.Dialect) string {
	if d == gate.Plain {
		return "plain"
	}
	return string(d)
}

// fuzzStats counts the inputs of one fuzz target in one process.
type fuzzStats struct {
	target, tool string
	skipLog      string

	mu         sync.Mutex
	inputs     int
	judged     int
	skipped    map[string]int
	firstPanic string
	logErr     error
}

func (s *fuzzStats) input() {
	s.mu.Lock()
	s.inputs++
	s.mu.Unlock()
}

func (s *fuzzStats) judge() {
	s.mu.Lock()
	s.judged++
	s.mu.Unlock()
}

func (s *fuzzStats) skip(reason, detail string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skipped[reason]++
	if reason == skipPanic && s.firstPanic == "" {
		s.firstPanic = detail
	}
	if s.skipLog == "" || s.logErr != nil {
		return
	}
	f, err := os.OpenFile(s.skipLog, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		_, err = fmt.Fprintf(f, "%s\t%s\n", s.target, reason)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	s.logErr = err
}

// summary describes the counts, or is "" when no input ran in this process
// (the coordinator of a fuzzing run).
func (s *fuzzStats) summary() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inputs == 0 {
		return ""
	}
	total := 0
	var reasons []string
	for r, n := range s.skipped {
		total += n
		if r == skipPanic {
			r += " (first: " + s.firstPanic + ")"
		}
		reasons = append(reasons, fmt.Sprintf("%s: %d", r, n))
	}
	sort.Strings(reasons)
	msg := fmt.Sprintf("tool %s: %d inputs; %d refused by the strict reader; the oracle judged %d and could not judge %d",
		s.tool, s.inputs, s.inputs-s.judged-total, s.judged, total)
	if total > 0 {
		msg += " (" + strings.Join(reasons, ", ") + ")"
	}
	if s.logErr != nil {
		msg += fmt.Sprintf("; writing %s failed: %v", s.skipLog, s.logErr)
	}
	return msg
}
