package tgimpl

import (
	"iter"
	"slices"
	"unsafe"

	"github.com/toolgate/toolgate/runtime/jsonread"
)

// Trials in linear time. A branch is tried on the bytes of a value already
// read (Trial), and a trial reads those bytes again. A union whose branches
// hold the same union below (two block shapes, each with children of the
// same union) would have every branch tried at every level, each trial
// trying the branches below again: time exponential in the nesting. So
// one decode remembers, in its document's Decoder:
//
//   - the verdict of each trial run inside another trial, by the trial
//     and the value's offset in the document (Tried, Remember): a trial
//     runs at most once per value, however many trials above read it;
//   - where each object and array that a trial or a composition check
//     skipped ends (jsonread.Ends): reading it again jumps over it.
//
// Both hold at most one entry per value of the document (per trial, for
// verdicts), and are dropped with the decode. A trial run by the decoder
// of the document itself, the common case, is not remembered: it runs once
// per value anyway.

// trialMemo is what one decode remembers of its trials. The Decoder of
// the document makes it at its first trial or composition check, and
// every trial below shares it.
type trialMemo struct {
	doc      []byte // the document, whose values the offsets locate
	verdicts map[trialKey]bool
	ends     jsonread.Ends
	trials   int // the trials run, for Trials
}

// trialKey names one trial of one value: the trial function and the
// value's offset in the document.
type trialKey struct {
	trial string
	at    int
}

// TrialOf prepares d to try a branch schema on raw for p, the Decoder that
// read raw or the trial reading it (see Trial, whose doc this follows).
// The trial shares what p's decode remembers.
func (d *Decoder) TrialOf(p *Decoder, raw []byte) {
	d.Trial(raw)
	d.memo = p.memory()
	d.memo.trials++
	if at, ok := d.memo.offsetOf(raw); ok {
		d.R.Remember(&d.memo.ends, at)
	}
}

// Trials returns how many trials with a Decoder (TrialOf) the decode of
// d's document has run so far: the measure of a decode's work that tests
// hold linear in the input.
func (d *Decoder) Trials() int {
	if d.memo == nil {
		return 0
	}
	return d.memo.trials
}

// Tried returns, when p is a trial, the verdict of trial on raw that p's
// decode remembers (known is false when it has none): raw is a value p
// reads, trial the name of the trial function.
func (p *Decoder) Tried(trial string, raw []byte) (ok, known bool) {
	if !p.trial {
		return false, false
	}
	at, in := p.memo.offsetOf(raw)
	if !in {
		return false, false
	}
	ok, known = p.memo.verdicts[trialKey{trial, at}]
	return ok, known
}

// Remember notes, when p is a trial, the verdict ok of trial on raw (see
// Tried), and returns it.
func (p *Decoder) Remember(trial string, raw []byte, ok bool) bool {
	if !p.trial {
		return ok
	}
	if at, in := p.memo.offsetOf(raw); in {
		if p.memo.verdicts == nil {
			p.memo.verdicts = map[trialKey]bool{}
		}
		p.memo.verdicts[trialKey{trial, at}] = ok
	}
	return ok
}

// memory returns what d's decode remembers, made on first use by the
// Decoder of the document (a trial's is set by TrialOf).
func (d *Decoder) memory() *trialMemo {
	if d.memo == nil {
		d.memo = &trialMemo{doc: d.R.Data()}
	}
	return d.memo
}

// offsetOf returns the offset of raw in the document, and whether raw is
// a slice of it (a member name tried as propertyNames is not).
func (m *trialMemo) offsetOf(raw []byte) (int, bool) {
	base := uintptr(unsafe.Pointer(unsafe.SliceData(m.doc)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	if len(raw) == 0 || p < base || p+uintptr(len(raw)) > base+uintptr(len(m.doc)) {
		return 0, false
	}
	return int(p - base), true
}

// reader points r at raw, remembering in m where the values it skips end
// (see trialMemo).
func (m *trialMemo) reader(r *jsonread.Reader, raw []byte) {
	r.Reset(raw, jsonread.DefaultLimits)
	if at, ok := m.offsetOf(raw); ok {
		r.Remember(&m.ends, at)
	}
}

// Members is Members of raw, a value d read, skipping what d's decode has
// skipped already without reading it again. The iterator holds what the
// decode remembers, not d, which can stay on its caller's stack.
func (d *Decoder) Members(raw []byte) iter.Seq2[string, []byte] {
	m := d.memory()
	return func(yield func(string, []byte) bool) {
		var r jsonread.Reader
		m.reader(&r, raw)
		readMembers(&r, yield)
	}
}

// Items is Items of raw, a value d read, as Members is Members.
func (d *Decoder) Items(raw []byte) iter.Seq2[int, []byte] {
	m := d.memory()
	return func(yield func(int, []byte) bool) {
		var r jsonread.Reader
		m.reader(&r, raw)
		readItems(&r, yield)
	}
}

// Has is Has of raw, a value d read, as Members is Members.
func (d *Decoder) Has(raw []byte, name string) bool {
	for k := range d.Members(raw) {
		if k == name {
			return true
		}
	}
	return false
}

// UnevaluatedMembers is s.UnevaluatedMembers of raw, a value d read, as
// Members is Members.
func (d *Decoder) UnevaluatedMembers(s *Seen, raw []byte) iter.Seq2[string, []byte] {
	all, names, members := s.allNames, s.names, d.Members(raw)
	return func(yield func(string, []byte) bool) {
		if all {
			return
		}
		for name, value := range members {
			if !slices.Contains(names, name) && !yield(name, value) {
				return
			}
		}
	}
}

// UnevaluatedItems is s.UnevaluatedItems of raw, a value d read, as
// Members is Members.
func (d *Decoder) UnevaluatedItems(s *Seen, raw []byte) iter.Seq2[int, []byte] {
	all, prefix, idx, items := s.allItems, s.items, s.idx, d.Items(raw)
	return func(yield func(int, []byte) bool) {
		if all {
			return
		}
		for i, item := range items {
			if i >= prefix && !slices.Contains(idx, i) && !yield(i, item) {
				return
			}
		}
	}
}
