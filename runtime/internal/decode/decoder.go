// Package decode is the decoding that toolgate-generated decoders call,
// through package tgimpl, which re-exports it: the Decoder, the rules of a
// member (Scalar, Array) and the checks of composed schemas (compose.go,
// trials.go). Nothing outside runtime may import it.
//
// A Decoder wraps a strict jsonread.Reader, keeps a cheap stack of the
// members and indexes being read, and records violations. A violation is
// recorded when a rule is broken (the path and the value shown are copied)
// and its JSON pointer and message are rendered only when the error is
// read, so a valid call does no string work and a refusal little.
package decode

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"math/bits"
	"strconv"
	"unsafe"

	"github.com/toolgate/toolgate/runtime/internal/violation"
	"github.com/toolgate/toolgate/runtime/jsonnum"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// maxPath bounds the path stack, at jsonread.DefaultLimits.MaxDepth, the
// limit Reset always applies: no value read can be deeper, so every path
// is complete. (Should Reset ever take other limits, violations deeper than
// maxPath would report their path cut after maxPath steps.)
const maxPath = 64

// A pathSeg is one step of the path being decoded: the byte offset of a
// member name's opening quote (>= 0) or an array index i stored as -i-1.
type pathSeg = violation.Seg

// Decoder is the state of one decode. Its zero value is ready after Reset.
// It is meant to live on the caller's stack.
type Decoder struct {
	R jsonread.Reader
	// NullAsAbsent makes null in an optional, non-nullable member mean that
	// the member is absent (calls from OpenAI's strict dialect, whose
	// definitions list every member as required and nullable).
	NullAsAbsent bool

	tool       string
	path       [maxPath]pathSeg
	depth      int
	hidden     int    // sensitive values being read (see BeginSensitive)
	failedOut  bool   // the reader had failed before the outermost sensitive value began
	failedIn   bool   // the reader failed inside a sensitive value
	hiddenSegs uint64 // bit i: path[i] is a name not shown (see violation.AppendPath)
	// The undeclared member names of the objects being read, for duplicate
	// detection: the first len(few) in few, the others in more. A name
	// without escapes is a slice of the input; an escaped one is copied.
	few      [4][]byte
	more     [][]byte
	nUnknown int
	sets     []nameSet
	copied   bool   // the first string was copied (see String)
	strs     []byte // the copy the later strings share (see String)

	dropped bool // the call will be refused (see Drop)
	trial   bool // d tries a branch: see Trial
	// absent is the members whose null a holding branch took as absent,
	// located in the document (see absent.go).
	absent []span
	// What the decode remembers of its trials (see trialMemo), the
	// document a trial reads, the trials the document's Decoder ran, and
	// the offset (+1) of the value it checked last (see Checking).
	memo    *trialMemo
	doc     []byte
	trials  int
	checked int

	// The violations found and the copies they need.
	v violation.Recorder
}

// nameSet indexes the undeclared member names of one object with many of
// them, so that duplicate detection stays linear in the input.
type nameSet struct {
	start int // the object's mark
	names map[string]struct{}
}

// linearNames is how many undeclared names of one object are compared one by
// one before they are indexed.
const linearNames = 16

// Reset prepares d to decode data for the named tool, with the default limits.
func (d *Decoder) Reset(tool string, data []byte) {
	d.R.Reset(data, jsonread.DefaultLimits)
	d.NullAsAbsent = false
	d.tool = tool
	d.depth = 0
	d.hidden = 0
	d.failedOut = false
	d.failedIn = false
	d.hiddenSegs = 0
	d.nUnknown = 0
	d.more = nil
	d.sets = nil
	d.copied = false
	d.strs = nil
	d.dropped = false
	d.trial = false
	d.absent = nil
	d.memo, d.doc, d.trials, d.checked = nil, nil, 0, 0
	d.v.Reset()
}

// Object reports whether the top-level value is an object, recording an
// invalid_json error when it is not: tool arguments are always an object.
func (d *Decoder) Object() bool {
	k := d.R.Peek()
	if k == jsonread.Object {
		return true
	}
	if k != jsonread.Invalid {
		d.R.Fail(d.R.Offset(), jsonread.ErrUnexpectedKind, "tool arguments must be a JSON object, not "+Article(k.String()))
	}
	return false
}

// Finish checks that nothing but whitespace follows the value and returns
// the outcome: nil, an invalid_json error or an invalid_arguments error.
func (d *Decoder) Finish() error {
	if d.hidden > 0 {
		d.hidden = 0
		d.noteHiddenFailure()
	}
	d.R.Finish()
	if e := d.R.Err(); e != nil {
		reason := e.Reason
		if d.failedIn && errors.Is(e, jsonread.ErrDuplicateName) {
			reason = hiddenDuplicate
		}
		return &toolerr.Error{Code: toolerr.InvalidJSON, Tool: d.tool, Offset: e.Offset, Reason: reason}
	}
	if d.v.Len() == 0 {
		return nil
	}
	return d.v.Refuse(d.tool)
}

// PushName records that the value of the member just read by NextMember is
// being decoded.
func (d *Decoder) PushName() {
	if d.depth < maxPath {
		d.path[d.depth] = pathSeg(d.R.NameOffset())
		d.hiddenSegs &^= 1 << (d.depth & 63) // d.depth < maxPath <= 64: the mask only makes the shift plain
	}
	d.depth++
}

// PushIndex records that array item i is being decoded.
func (d *Decoder) PushIndex(i int) {
	if d.depth < maxPath {
		d.path[d.depth] = pathSeg(-i - 1)
		d.hiddenSegs &^= 1 << (d.depth & 63)
	}
	d.depth++
}

// Pop leaves the member or item pushed last.
func (d *Decoder) Pop() { d.depth-- }

// BeginSensitive starts the value of a member marked sensitive (writeOnly
// or x-toolgate sensitive, on the member, beside its $ref or on the tool):
// until the matching EndSensitive, no message repeats a received value, at
// any depth, the undeclared names read (map keys, unknown members) are
// shown as "*" in pointers and messages, and a duplicate member name found
// inside is not named. Declared names, lengths and item counts are still
// shown.
func (d *Decoder) BeginSensitive() {
	if d.hidden == 0 {
		d.failedOut = d.R.Err() != nil
	}
	d.hidden++
}

// EndSensitive ends the sensitive value begun last.
func (d *Decoder) EndSensitive() {
	d.hidden--
	d.noteHiddenFailure()
}

// noteHiddenFailure notes, when the outermost sensitive value ends (or the
// decode with one still open), whether the reader failed inside it: a
// duplicate name found there, by the reader skipping a value, is then not
// repeated either (see Finish).
func (d *Decoder) noteHiddenFailure() {
	if d.hidden == 0 && !d.failedOut && d.R.Err() != nil {
		d.failedIn = true
	}
}

// hiddenDuplicate is the reason of a duplicate member name inside a
// sensitive value.
const hiddenDuplicate = "duplicate member name (not shown: the value is sensitive)"

// arenaMax bounds a copy that strings share: a longer input gets more
// copies, so that a short value does not keep a large input alive, and a
// string longer than a quarter of it gets a copy of its own.
const arenaMax = 16 << 10

// String returns s as a Go string, a copy: never a view of the input,
// which the caller may reuse, nor of the reader's scratch buffer. The first
// string of a call is copied alone, so that a call with one string pays
// for that string only. The strings after it share a copy: the second one
// makes room for itself and half the rest of the input, and when that is
// full, the next one for itself and all the rest (each at most arenaMax
// bytes), since a string's content, unescaped or not, is never longer
// than its text in the input. Strings cost at most three allocations per
// call on inputs up to arenaMax, and about what they hold in bytes.
func (d *Decoder) String(s []byte) string {
	if len(s) == 0 {
		return ""
	}
	n := len(d.strs)
	if cap(d.strs)-n < len(s) {
		rest := max(len(d.R.Data())-d.R.Offset(), 0)
		size := len(s) + rest
		switch {
		case !d.copied:
			d.copied = true
			return string(s)
		case d.strs == nil:
			size = len(s) + rest/2
		}
		if size > arenaMax {
			if len(s) > arenaMax/4 {
				return string(s)
			}
			size = arenaMax
		}
		// A new copy: the strings made from the one before keep it, and
		// nothing writes to it again.
		d.strs, n = make([]byte, 0, size), 0
	}
	// Resliced in place, not appended: d.strs keeps its pointer, so no
	// pointer is stored (nor a write barrier run) per string.
	d.strs = d.strs[:n+len(s)]
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(d.strs)), n)
	copy(unsafe.Slice((*byte)(p), len(s)), s)
	return unsafe.String((*byte)(p), len(s))
}

// Raw skips one value and returns a copy of its bytes.
func (d *Decoder) Raw() json.RawMessage {
	start := d.R.Offset()
	d.R.Skip()
	return d.Capture(start)
}

// Capture returns a copy of the bytes read since start (in a trial, which
// keeps nothing, the bytes themselves).
func (d *Decoder) Capture(start int) json.RawMessage {
	if d.R.Err() != nil {
		return nil
	}
	if d.trial {
		return d.R.Capture(start)
	}
	return append([]byte(nil), d.R.Capture(start)...)
}

// DuplicateMember records the member just read as a duplicate: an
// invalid_json error, since two readers of the same bytes could disagree on
// which value counts.
func (d *Decoder) DuplicateMember() {
	off := d.R.NameOffset()
	if d.hidden > 0 {
		d.R.Fail(off, jsonread.ErrDuplicateName, hiddenDuplicate)
		return
	}
	d.R.Fail(off, jsonread.ErrDuplicateName, jsonread.DuplicateReason([]byte(jsonread.Unquote(d.R.Data(), off))))
}

// Extra notes a member name that is not a declared property and reports
// whether it is the first of that name in the current object. start is the
// length of the unknown-name list when the object was entered (see
// ObjectNames). Inside a sensitive value the name is hidden from then on.
func (d *Decoder) Extra(start int, name []byte) bool {
	if d.hidden > 0 && d.depth > 0 && d.depth <= maxPath {
		d.hiddenSegs |= 1 << (d.depth - 1)
	}
	if n := len(d.sets); n > 0 && d.sets[n-1].start == start {
		set := d.sets[n-1].names
		if _, dup := set[string(name)]; dup {
			d.DuplicateMember()
			return false
		}
		// A name in the input is keyed by a view of it: the input does not
		// change during the decode, and the set ends with the object.
		if d.inInput(name) {
			set[View(name)] = struct{}{}
		} else {
			set[string(name)] = struct{}{}
		}
		return true
	}
	for i := start; i < d.nUnknown; i++ {
		if bytes.Equal(d.unknownAt(i), name) {
			d.DuplicateMember()
			return false
		}
	}
	if !d.inInput(name) {
		name = bytes.Clone(name)
	}
	if d.nUnknown < len(d.few) {
		d.few[d.nUnknown] = name
	} else {
		d.more = append(d.more, name)
	}
	d.nUnknown++
	if d.nUnknown-start == linearNames {
		set := make(map[string]struct{}, 2*linearNames)
		for i := start; i < d.nUnknown; i++ {
			set[View(d.unknownAt(i))] = struct{}{} // input slices or copies of their own
		}
		d.sets = append(d.sets, nameSet{start: start, names: set})
	}
	return true
}

// unknownAt returns the i-th undeclared name noted.
func (d *Decoder) unknownAt(i int) []byte {
	if i < len(d.few) {
		return d.few[i]
	}
	return d.more[i-len(d.few)]
}

// inInput reports whether s is a slice of the input.
func (d *Decoder) inInput(s []byte) bool {
	data := d.R.Data()
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	return len(data) > 0 && p >= base && p+uintptr(len(s)) <= base+uintptr(len(data))
}

// ObjectNames returns the mark to pass to Extra and EndObject for the object
// being entered.
func (d *Decoder) ObjectNames() int { return d.nUnknown }

// EndObject forgets the undeclared member names of the object left.
func (d *Decoder) EndObject(start int) {
	if n := len(d.sets); n > 0 && d.sets[n-1].start == start {
		d.sets = d.sets[:n-1]
	}
	d.nUnknown = start
	d.more = d.more[:max(0, start-len(d.few))]
}

// ParseInt parses an integer from number text. ok reports an integer
// that fits in int64, held in x. A number that is not an integer is a type
// violation, recorded here. An integer beyond int64 (huge) is recorded
// nowhere: it is an integer in JSON Schema, so the caller first checks it
// against the schema's bounds, exactly on the text, and calls IntRange only
// when none is broken. The message repeats the number unless sensitive is
// set (a member marked sensitive: messages never echo its value).
func (d *Decoder) ParseInt(raw []byte, sp string, sensitive bool) (x int64, ok, huge bool) {
	n, ok, isInt := jsonnum.Int64(raw)
	switch {
	case ok:
		return n, true, false
	case isInt:
		return 0, false, true
	}
	d.add(violation.Integer, sp, "", d.shown(raw, sensitive))
	return 0, false, false
}

// IntRange records an integer beyond int64 that breaks none of the
// schema's bounds (there are none, or they are beyond int64 too): the
// generated type cannot hold it. sp is the type keyword's pointer.
func (d *Decoder) IntRange(sp, got string) {
	d.add(violation.IntRange, sp, "", got)
}

// ParseFloat converts number text to float64, recording a violation when it
// is beyond float64's range. A number that underflows is accepted as ±0
// when no bound forbids it (see FloatBound). The message repeats the
// number unless sensitive is set.
func (d *Decoder) ParseFloat(raw []byte, sp string, sensitive bool) (float64, bool) {
	f := jsonnum.Float64(raw)
	if math.IsInf(f, 0) {
		d.add(violation.Float, sp, "", d.shown(raw, sensitive))
		return 0, false
	}
	return f, true
}

// FloatBound records a number whose exact value keeps the bound kw
// ("minimum", "exclusiveMinimum", "maximum" or "exclusiveMaximum") but
// whose float64 x, the value the executor would receive, breaks it: with
// exclusiveMinimum 0, 1e-400 is above 0 but becomes 0. got is the text as
// messages show it (Text), "" when sensitive.
func (d *Decoder) FloatBound(kw, sp, bound, got string, x float64) {
	k, ok := floatBounds[kw]
	if !ok {
		panic("tgimpl: FloatBound of " + kw + ", which is not a bound keyword")
	}
	if !d.begin(k, sp, bound) || got == "" || d.hidden > 0 {
		return
	}
	b := violation.AppendShown(d.v.Tail(), got)
	b = append(b, ", which is "...)
	b = strconv.AppendFloat(b, x, 'g', -1, 64)
	d.v.Shows(d.v.Took(append(b, " as a 64-bit float"...)))
}

// floatBounds are FloatBound's kinds by keyword.
var floatBounds = map[string]violation.Kind{
	"minimum":          violation.FloatMinimum,
	"exclusiveMinimum": violation.FloatExclusiveMinimum,
	"maximum":          violation.FloatMaximum,
	"exclusiveMaximum": violation.FloatExclusiveMaximum,
}

// shown is the received number as a message shows it: "" (not shown) for
// a sensitive member, otherwise cut to what is shown (see Decoder.Text).
// It is called only on a violation.
func (d *Decoder) shown(raw []byte, sensitive bool) string {
	if sensitive {
		return ""
	}
	return d.Text(raw)
}

// RuneCount is the length of s in Unicode code points, as the length
// bounds count it. s is valid UTF-8, as every string the reader returns
// is: its code points are then its bytes less its continuation bytes
// (10xxxxxx), which are counted eight bytes at a time.
func RuneCount(s []byte) int {
	const b7 = 0x8080808080808080
	n, i := len(s), 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64(s[i:])
		n -= bits.OnesCount64(x &^ (x << 1) & b7)
	}
	for ; i < len(s); i++ {
		if s[i]&0xc0 == 0x80 {
			n--
		}
	}
	return n
}

// Article puts "a" or "an" before s: "an integer", "a string" (see
// violation.AppendArticle, which messages use).
func Article(s string) string { return string(violation.AppendArticle(nil, s)) }

// Own returns a copy of items in an array of their own, nil for none:
// generated decoders collect an array's items in a buffer on the stack and
// keep this one copy, rather than growing a slice by doubling.
func Own[T any](items []T) []T {
	if len(items) == 0 {
		return nil
	}
	own := make([]T, len(items))
	copy(own, items)
	return own
}

// Value returns s as a Go string for the result, like String, except that
// once the decode has recorded a violation or failed it returns "" without
// copying: the result of a refused call is dropped, so a refused value (a
// 900 KiB string that breaks its pattern) is not copied. Checks read s, or
// View(s), never Value's result.
func (d *Decoder) Value(s []byte) string {
	if d.refused() {
		return ""
	}
	return d.String(s)
}

// refused reports whether the call will be refused: a violation was
// recorded, the reader failed, or Drop was called; or whether d is a trial,
// whose values are never kept either.
func (d *Decoder) refused() bool {
	return d.dropped || d.trial || d.v.Len() > 0 || d.R.Err() != nil
}

// Drop notes that the call will be refused whatever follows (an array has
// gone past its maxItems, reported when it ends), so that Value stops
// copying the values read meanwhile.
func (d *Decoder) Drop() { d.dropped = true }

// View returns s as a string without copying, for a check that reads it
// and keeps nothing (a format): the bytes may be the reader's scratch
// buffer, valid until the next read.
func View(s []byte) string {
	return unsafe.String(unsafe.SliceData(s), len(s))
}

// Violations is how many violations d has recorded so far. The decoder of
// a union of objects merged into one struct (gen/alternatives.go) tries
// the union's branches only when reading the members recorded none: a
// member that breaks its own schema is refused by every branch that
// declares it, and the value is refused either way.
func (d *Decoder) Violations() int { return d.v.Len() }
