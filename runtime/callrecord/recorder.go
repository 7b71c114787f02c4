package callrecord

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// Options configure a Recorder.
type Options struct {
	// Dir is the folder the records are written to (it must exist).
	Dir string
	// Accepted also records calls whose arguments the gate accepted (the
	// executor ran, whatever it returned).
	Accepted bool
	// Sensitive lists, per tool, the instance pointers of members whose
	// values are sensitive whatever the schema says ("" makes every value
	// of the tool sensitive); the tool's own marks (gate.Tool.Sensitive:
	// writeOnly, x-toolgate sensitive) always hold.
	Sensitive map[string][]string
	// MaxPending bounds the calls remembered and not yet audited (default
	// 1024); beyond it the oldest are forgotten.
	MaxPending int
}

// Recorder records calls as fixture files. It is safe for concurrent use.
type Recorder struct {
	opts    Options
	maskers map[string]*Masker

	mu      sync.Mutex
	pending map[string][]byte
	order   []string
	dropped int
	err     error
}

// New returns a Recorder for the tools of a registry: their effective
// schemas and sensitive pointers guide the masking, and every masked value
// is checked against the schema before it is written.
func New(tools []*gate.Tool, opts Options) (*Recorder, error) {
	if opts.MaxPending <= 0 {
		opts.MaxPending = 1024
	}
	r := &Recorder{opts: opts, maskers: map[string]*Masker{}, pending: map[string][]byte{}}
	for _, t := range tools {
		m, err := NewMasker(t.Name, t.Schema, t.Sensitive)
		if err != nil {
			return nil, errors.New("callrecord: tool " + t.Name + ": " + err.Error())
		}
		r.maskers[t.Name] = m
	}
	return r, nil
}

func key(scope, id string) string { return scope + "\x00" + id }

// Remember shows the recorder a call's arguments before the gate decides
// it; Audit pairs them with the outcome.
func (r *Recorder) Remember(c gate.Caller, call gate.Call) {
	if call.ID == "" {
		r.mu.Lock()
		r.dropped++
		r.mu.Unlock()
		return
	}
	k := key(c.Scope, call.ID)
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.pending[k]; !ok {
		r.order = append(r.order, k)
	}
	r.pending[k] = append([]byte(nil), call.Args...)
	for len(r.order) > r.opts.MaxPending {
		delete(r.pending, r.order[0])
		r.order = r.order[1:]
		r.dropped++
	}
}

// Dispatch remembers call and dispatches it on reg (whose auditor is r).
func (r *Recorder) Dispatch(ctx context.Context, reg *gate.Registry, c gate.Caller, call gate.Call) (gate.Result, error) {
	r.Remember(c, call)
	return reg.Dispatch(ctx, c, call)
}

// Audit implements gate.Auditor: it writes the record of a remembered call
// that was refused for its arguments or, with Options.Accepted, accepted.
func (r *Recorder) Audit(_ context.Context, e gate.Event) {
	r.mu.Lock()
	args, ok := r.pending[key(e.Scope, e.CallID)]
	delete(r.pending, key(e.Scope, e.CallID))
	r.mu.Unlock()
	if !ok {
		return
	}
	accepted := e.Executed
	if !(e.Code == toolerr.InvalidArguments || (accepted && r.opts.Accepted)) {
		return
	}
	masker, known := r.maskers[e.Tool]
	parsed, err := jsonval.Parse(args)
	if !known || err != nil {
		return
	}
	rec := &Record{Tool: e.Tool, Version: e.Version, Code: string(e.Code)}
	if accepted {
		rec.Code = Accepted
	}
	sens := r.opts.Sensitive[e.Tool]
	m := masker.Mask(parsed, func(ptr string) bool {
		for _, p := range sens {
			if p == "" || p == ptr || (len(ptr) > len(p) && ptr[:len(p)] == p && ptr[len(p)] == '/') {
				return true
			}
		}
		return false
	})
	for _, v := range e.Violations {
		rec.Violations = append(rec.Violations, Violation{v.Keyword, HidePath(v.InstancePath, m.Hidden)})
	}
	if m.Why == "" && !decidedAsRecorded(m.Original, rec) {
		m.Args, m.Why = nil, whyGateDiffers
	}
	rec.Args, rec.Replayable, rec.Reason = m.Args, m.Why == "", m.Why
	r.write(rec)
}

// whyGateDiffers is the reason of a call the replay's validator decides
// otherwise than the gate did (a rule only the strict decoder sees, or a
// known difference of the validator's): its record could never pass.
const whyGateDiffers = "the replay's validator decides the call otherwise than the gate did"

// decidedAsRecorded reports whether d, the validator's decision on a
// call's original arguments, is the outcome rec records: accepted, or
// refused for at least the recorded keywords (the gate may stop early).
func decidedAsRecorded(d Decision, rec *Record) bool {
	if d.Valid != (rec.Code == Accepted) {
		return false
	}
	kws := d.Keywords()
	for _, v := range rec.Violations {
		if !slices.Contains(kws, v.Keyword) {
			return false
		}
	}
	return true
}

func (r *Recorder) write(rec *Record) {
	path := filepath.Join(r.opts.Dir, rec.FileName())
	err := os.WriteFile(path, rec.Marshal(), 0o644)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil && r.err == nil {
		r.err = err
	}
}

// Err returns the first error writing a record.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Dropped counts the calls that could not be paired with their outcome: no
// call ID, or forgotten beyond MaxPending.
func (r *Recorder) Dropped() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}
