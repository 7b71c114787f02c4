package violation

import (
	"sync/atomic"
	"unsafe"

	"github.com/toolgate/toolgate/runtime/toolerr"
)

// The refusal. A decode that records a violation returns a refusal: a
// small private error, one block that holds the tool, the records and
// the copies they need, made by Refuse from the Recorder's arena (see
// record.go). It makes the *toolerr.Error that callers read (errors.As)
// only when it is first read, and renders that error's violations from
// the records when they are first read (see render.go). A refusal that
// is only counted, or branched on, costs its block and no text; its
// Error, JSON and violations are those of the *toolerr.Error.
//
// Every byte of a refusal costs (allocation, zeroing and above all garbage
// collection, which runs as often as bytes are allocated), so its block
// is the smallest that holds it: one violation with up to 24 bytes of
// copies (a short name and the value it shows) takes 80 bytes, with up to
// 56 bytes 112; two violations with up to 56 bytes take 144; up to
// inlineRecords violations with up to inlineText bytes 192; more, their
// records and their copies, each in a block of its own.

// A refusal is the error of a decode that recorded violations, their
// records and copies being in b.
type refusal[B any, P block[B]] struct {
	tool string
	err  atomic.Pointer[toolerr.Error] // made on the first read
	b    B
}

// A block holds a refusal's records and their copies.
type block[B any] interface {
	*B
	recorded() (records []record, text []byte, truncated bool)
}

// The shapes of the inline blocks: how many records, how many bytes of
// copies.
type (
	recordArray interface {
		[1]record | [2]record | [inlineRecords]record
	}
	textArray interface {
		[24]byte | [56]byte | [inlineText]byte
	}
)

// inlineBlock is the block of up to len(R) violations, those whose lens is
// not zero, and len(T) bytes of copies.
type inlineBlock[R recordArray, T textArray] struct {
	recs R
	text T
}

func (b *inlineBlock[R, T]) recorded() ([]record, []byte, bool) {
	n := 0
	for n < len(b.recs) && b.recs[n].lens != 0 {
		n++
	}
	return unsafe.Slice(&b.recs[0], n), unsafe.Slice(&b.text[0], len(b.text)), false
}

// manyRecords is the block of a refusal that outgrew the others, and says
// whether violations were left out (toolerr.Error.Truncated).
type manyRecords struct {
	records   []record
	text      []byte
	truncated bool
}

func (b *manyRecords) recorded() ([]record, []byte, bool) { return b.records, b.text, b.truncated }

// Refuse returns the invalid_arguments error of the named tool's records
// (at least one; r may then be reset and reused): a refusal,
// holding copies of the records and of the arena in the smallest block
// that fits them (the sizes are allocator size classes: 80, 112, 144 and
// 192 bytes), or in blocks of their own.
func (r *Recorder) Refuse(tool string) error {
	text := r.arenaText()
	if r.many == nil && !r.truncated { // an inline block says nothing is left out
		switch n := r.nInline; {
		case n == 1 && len(text) <= 24:
			return refuseInline[[1]record, [24]byte](r, tool, text)
		case n == 1 && len(text) <= 56:
			return refuseInline[[1]record, [56]byte](r, tool, text)
		case n == 2 && len(text) <= 56:
			return refuseInline[[2]record, [56]byte](r, tool, text)
		case len(text) <= inlineText:
			return refuseInline[[inlineRecords]record, [inlineText]byte](r, tool, text)
		}
	}
	records := r.many
	if records == nil {
		records = append([]record(nil), r.inline[:r.nInline]...)
	}
	// A block of its own, not text, which may view the Recorder.
	own := r.spill
	if own == nil {
		own = append([]byte(nil), text...)
	}
	return &refusal[manyRecords, *manyRecords]{tool: tool, b: manyRecords{records: records, text: own, truncated: r.truncated}}
}

// refuseInline returns the refusal of rec's inline records, with text, in
// an inlineBlock[R, T] (len(R) >= rec.nInline, len(T) >= len(text)).
func refuseInline[R recordArray, T textArray](rec *Recorder, tool string, text []byte) error {
	var recs R
	for i := range rec.nInline {
		recs[i] = rec.inline[i]
	}
	r := &refusal[inlineBlock[R, T], *inlineBlock[R, T]]{tool: tool, b: inlineBlock[R, T]{recs: recs}}
	copy(unsafe.Slice(&r.b.text[0], len(r.b.text)), text)
	return r
}

// Error is the text of the refusal's *toolerr.Error.
func (r *refusal[B, P]) Error() string { return r.toolErr().Error() }

// As makes the refusal a *toolerr.Error for errors.As: target, a
// **toolerr.Error, gets the same error on every call, from any goroutine.
func (r *refusal[B, P]) As(target any) bool {
	p, ok := target.(**toolerr.Error)
	if ok {
		*p = r.toolErr()
	}
	return ok
}

// MarshalJSON is the JSON of the refusal's *toolerr.Error, for a caller
// that marshals the error it was returned.
func (r *refusal[B, P]) MarshalJSON() ([]byte, error) { return r.toolErr().MarshalJSON() }

// toolErr returns the refusal's *toolerr.Error, made on the first call.
// Goroutines that make it at once all get the one stored first.
func (r *refusal[B, P]) toolErr() *toolerr.Error {
	if e := r.err.Load(); e != nil {
		return e
	}
	records, text, truncated := P(&r.b).recorded()
	v := &rendered{records: records, text: text}
	v.err = toolerr.Error{Code: toolerr.InvalidArguments, Tool: r.tool, Truncated: truncated}
	v.err.DeferViolations(v)
	if r.err.CompareAndSwap(nil, &v.err) {
		return &v.err
	}
	return r.err.Load()
}

// rendered is the *toolerr.Error of a refusal and the source of its
// violations, rendered from the refusal's records when first read.
type rendered struct {
	err     toolerr.Error
	records []record
	text    []byte
	list    atomic.Pointer[[]toolerr.Violation]
}

// Violations renders the records the first time: the error's violations
// (toolerr.ViolationSource). It is safe for concurrent use: goroutines
// that read them at once may each render them, identically, and all get
// the list stored first.
func (v *rendered) Violations() []toolerr.Violation {
	if p := v.list.Load(); p != nil {
		return *p
	}
	list := render(v.records, v.text)
	if v.list.CompareAndSwap(nil, &list) {
		return list
	}
	return *v.list.Load()
}
