package decode

import (
	"iter"
	"unsafe"

	"github.com/toolgate/toolgate/runtime/jsonread"
)

// Trials in linear time. A branch is tried on the bytes of a value already
// read (Trial), and a trial reads those bytes again. A union whose branches
// hold the same union below (two block shapes, each with children of the
// same union) would have every branch tried at every level, each trial
// trying the branches below again: time exponential in the nesting. So
// once a trial runs inside another trial, the decode remembers, for every
// trial after (trialMemo):
//
//   - the verdict of each trial run inside another trial, by the trial
//     and the value's offset in the document (Tried, Remember): a trial
//     runs at most once per value, however many trials above read it;
//   - where each object and array that a trial or a composition check
//     skipped ends (jsonread.Ends): reading it again jumps over it.
//
// The document's own Decoder starts remembering too when a composition
// check reads a value holding one it checked before (Checking): the checks
// of a recursive object run from the innermost level out, each reading the
// levels below it. Both hold at most one entry per value of the document
// (per trial, for verdicts), and are dropped with the decode. A decode
// whose trials and checks do not nest, the common case, remembers nothing
// and allocates nothing for it.

// trialMemo is what one decode remembers of its trials. The first trial
// run inside another makes it; it reaches the trials that follow through
// the Decoders that run them (TrialOf), and the Decoder of the document
// when the outermost trial ends (Remember).
type trialMemo struct {
	doc      []byte // the document, whose values the offsets locate
	verdicts map[trialKey]verdict
	ends     jsonread.Ends
	trials   int // the trials run inside other trials, for Trials
}

// verdict is what a decode remembers of one trial: whether the branch
// holds and, when it does, the members whose null it took as absent (see
// absent.go), handed to every caller of the trial.
type verdict struct {
	ok     bool
	absent []span
}

// trialKey names one trial of one value: the trial function and the
// value's offset in the document.
type trialKey struct {
	trial string
	at    int
}

// TrialOf prepares d to try a branch schema on raw for p, the Decoder that
// read raw or the trial reading it (see Trial, whose doc this follows).
// The trial takes p's NullAsAbsent and shares what p's decode remembers,
// and starts remembering when p is a trial itself.
func (d *Decoder) TrialOf(p *Decoder, raw []byte) {
	d.Trial(raw)
	d.NullAsAbsent = p.NullAsAbsent
	d.doc = p.document()
	if !p.trial {
		p.trials++
	} else {
		if p.memo == nil {
			p.memo = &trialMemo{doc: d.doc}
		}
		p.memo.trials++
	}
	d.memo = p.memo
	if m := d.memo; m != nil {
		if at, ok := m.offsetOf(raw); ok {
			d.R.Remember(&m.ends, at)
		}
	}
}

// Trials returns how many trials with a Decoder (TrialOf) the decode of
// d, the document's Decoder, has run: the measure of a decode's work that
// tests hold linear in the input.
func (d *Decoder) Trials() int {
	n := d.trials
	if d.memo != nil {
		n += d.memo.trials
	}
	return n
}

// Tried returns, when p is a trial, the verdict of trial on raw that p's
// decode remembers (known is false when it has none): raw is a value p
// reads, trial the name of the trial function. A branch that holds hands
// p the members it took as absent, as Remember does.
func (p *Decoder) Tried(trial string, raw []byte) (ok, known bool) {
	if !p.trial || p.memo == nil {
		return false, false
	}
	at, in := p.memo.offsetOf(raw)
	if !in {
		return false, false
	}
	v, known := p.memo.verdicts[trialKey{trial, at}]
	if v.ok {
		p.takeAbsent(v.absent)
	}
	return v.ok, known
}

// Remember returns the verdict of d, the trial of trial on raw that p ran
// (d.Valid), noting it when p is a trial itself (see Tried). When the
// branch holds, p takes the members it took as absent, for the value p
// keeps (Kept). p takes on what d's decode remembers.
func (p *Decoder) Remember(trial string, raw []byte, d *Decoder) bool {
	ok := d.Valid()
	if ok {
		p.takeAbsent(d.absent)
	}
	if p.memo == nil {
		p.memo = d.memo
	}
	if !p.trial || p.memo == nil {
		return ok
	}
	if at, in := p.memo.offsetOf(raw); in {
		if p.memo.verdicts == nil {
			p.memo.verdicts = map[trialKey]verdict{}
		}
		v := verdict{ok: ok}
		if ok {
			v.absent = d.absent
		}
		p.memo.verdicts[trialKey{trial, at}] = v
	}
	return ok
}

// document returns the document d reads: its input, or the input of the
// Decoder a trial was run for.
func (d *Decoder) document() []byte {
	if d.trial {
		return d.doc
	}
	return d.R.Data()
}

// offsetOf returns the offset of raw in the document, and whether raw is
// a slice of it (a member name tried as propertyNames is not).
func (m *trialMemo) offsetOf(raw []byte) (int, bool) { return offsetIn(m.doc, raw) }

// offsetIn returns the offset of raw in doc, and whether raw is a slice of
// it.
func offsetIn(doc, raw []byte) (int, bool) {
	base := uintptr(unsafe.Pointer(unsafe.SliceData(doc)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	if len(raw) == 0 || p < base || p+uintptr(len(raw)) > base+uintptr(len(doc)) {
		return 0, false
	}
	return int(p - base), true
}

// Checking notes that the composition checks of raw, a value d read,
// begin (generated check functions call it first). The Decoder of the
// document starts remembering when raw holds the value it checked last:
// checks nest.
func (d *Decoder) Checking(raw []byte) {
	if d.trial || d.memo != nil {
		return
	}
	at, ok := offsetIn(d.R.Data(), raw)
	if !ok {
		return
	}
	if last := d.checked - 1; last > at && last < at+len(raw) {
		d.memo = &trialMemo{doc: d.R.Data()}
	}
	d.checked = at + 1
}

// members is Members of raw, remembering in m, when there is one, where
// the values it skips end and jumping over those it knows.
func (m *trialMemo) members(raw []byte) iter.Seq2[string, []byte] {
	return func(yield func(string, []byte) bool) {
		var r jsonread.Reader
		m.reader(&r, raw)
		if r.Peek() != jsonread.Object {
			return
		}
		r.ObjectStart()
		for {
			name, ok := r.NextMember()
			if !ok {
				return
			}
			key := string(name)
			start := r.Offset()
			r.Skip()
			if !yield(key, r.Capture(start)) {
				return
			}
		}
	}
}

// items is Items of raw, as members is Members.
func (m *trialMemo) items(raw []byte) iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		var r jsonread.Reader
		m.reader(&r, raw)
		if r.Peek() != jsonread.Array {
			return
		}
		r.ArrayStart()
		for i := 0; r.NextItem(); i++ {
			start := r.Offset()
			r.Skip()
			if !yield(i, r.Capture(start)) {
				return
			}
		}
	}
}

// reader points r at raw, remembering in m, when there is one, where the
// values it skips end.
func (m *trialMemo) reader(r *jsonread.Reader, raw []byte) {
	r.Reset(raw, jsonread.DefaultLimits)
	if m == nil {
		return
	}
	if at, ok := m.offsetOf(raw); ok {
		r.Remember(&m.ends, at)
	}
}

// Members is Members of raw, a value d read, skipping what d's decode
// remembers having skipped without reading it again.
func (d *Decoder) Members(raw []byte) iter.Seq2[string, []byte] { return d.memo.members(raw) }

// Items is Items of raw, a value d read, as Members is Members.
func (d *Decoder) Items(raw []byte) iter.Seq2[int, []byte] { return d.memo.items(raw) }

// Has is Has of raw, a value d read, as Members is Members.
func (d *Decoder) Has(raw []byte, name string) bool { return hasMember(d.Members(raw), name) }

// UnevaluatedMembers is s.UnevaluatedMembers of raw, a value d read, as
// Members is Members.
func (d *Decoder) UnevaluatedMembers(s *Seen, raw []byte) iter.Seq2[string, []byte] {
	return s.unevaluatedMembers(d.memo.members(raw))
}

// UnevaluatedItems is s.UnevaluatedItems of raw, a value d read, as
// Members is Members.
func (d *Decoder) UnevaluatedItems(s *Seen, raw []byte) iter.Seq2[int, []byte] {
	return s.unevaluatedItems(d.memo.items(raw))
}
