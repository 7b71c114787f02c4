package pattern

import "unicode/utf8"

// dfa matches a sequence whose classes hold only ASCII characters with a
// table: one lookup per byte of the input, whatever the counts, the
// overlaps of neighbouring classes or the anchors. It is built when the
// sequence is compiled, if its states are few (maxDFAStates).
//
// A byte from 0x80 is in no class, so a multi-byte rune (or an invalid
// byte, which regexp reads as U+FFFD) stops every match through it, as one
// character outside every class does: taking its bytes one by one answers
// the same.
type dfa struct {
	class  [256]uint8 // the byte's class: bytes that every step treats alike share one
	shift  uint       // a state's row is 1<<shift entries, at least one per class
	next   []uint16   // next[state<<shift|class], as the next state's row offset, state<<shift
	accept []bool     // accept[state]: it matches at the end of the input
	start  uint16     // the first state's row offset
}

// The two states with fixed numbers. No match goes through dead; matched
// is reached, without $, once a match has ended: both absorb every byte,
// so Match stops at them.
const (
	dfaDead    = 0
	dfaMatched = 1
)

// maxDFAStates bounds the states of a table, and maxDFATable its entries
// (a row offset fits 16 bits); a sequence that needs more keeps its own
// matcher.
const (
	maxDFAStates = 255
	maxDFATable  = 16 << 10
)

// Match reports whether s contains a match.
func (m *dfa) Match(s []byte) bool {
	// The states are kept as row offsets, so that a byte costs one add
	// and two loads.
	next, class := m.next, &m.class
	live := 2 << m.shift // the rows of dead and matched come first
	st := int(m.start)
	for _, c := range s {
		st = int(next[st+int(class[c])])
		if st < live {
			return st != dfaDead
		}
	}
	return m.accept[st>>m.shift]
}

// positions numbers the places a match can be at: step k having taken c
// characters of its class, for c up to the step's maximum, or up to its
// minimum when it has none (past it, more characters change nothing); and
// the end of the steps, last.
type positions struct {
	steps []step
	first []int // first[k]: the number of (k, 0)
	end   int
}

func newPositions(steps []step) positions {
	p := positions{steps: steps, first: make([]int, len(steps))}
	for k := range steps {
		p.first[k] = p.end
		p.end += p.top(k) + 1
	}
	return p
}

// top is the highest count kept for step k.
func (p *positions) top(k int) int {
	if st := &p.steps[k]; st.max >= 0 {
		return st.max
	}
	return p.steps[k].min
}

// posSet is a set of positions, one bit each.
type posSet []uint64

func (s posSet) has(i int) bool { return s[i>>6]&(1<<(i&63)) != 0 }
func (s posSet) add(i int)      { s[i>>6] |= 1 << (i & 63) }

// close adds to s every position reachable from its own without taking a
// character: past a step whose count reaches its minimum, to the next.
// Steps are visited in order, so a step that may be empty passes on what
// it receives.
func (p *positions) close(s posSet) {
	for k, st := range p.steps {
		for c := st.min; c <= p.top(k); c++ {
			if s.has(p.first[k] + c) {
				if k+1 < len(p.steps) {
					s.add(p.first[k+1])
				} else {
					s.add(p.end)
				}
				break
			}
		}
	}
}

// step returns the positions reached from s by taking the byte b.
func (p *positions) step(s posSet, b byte) posSet {
	out := make(posSet, len(s))
	for k := range p.steps {
		st := &p.steps[k]
		if !st.ascii[b] {
			continue
		}
		top := p.top(k)
		for c := 0; c <= top; c++ {
			if !s.has(p.first[k] + c) {
				continue
			}
			switch {
			case c < top:
				out.add(p.first[k] + c + 1)
			case st.max < 0: // unbounded: past the minimum, one count
				out.add(p.first[k] + c)
			}
		}
	}
	return out
}

// compileDFA builds the table of seq, or returns false when a class holds
// a character from U+0080 or the table would need more than maxDFAStates
// states.
func compileDFA(seq *sequence) (*dfa, bool) {
	for i := range seq.steps {
		for _, r := range seq.steps[i].ranges {
			if r >= utf8.RuneSelf {
				return nil, false
			}
		}
	}
	p := newPositions(seq.steps)
	m := &dfa{}
	reps := m.classes(seq.steps)
	words := p.end/64 + 1
	initial := make(posSet, words)
	initial.add(0)
	p.close(initial)

	// States are numbered as they are found; dead and matched first.
	index := map[string]int{}
	var sets []posSet
	var accept []bool
	state := func(s posSet) int {
		final := s.has(p.end)
		if final && !seq.anchorEnd {
			return dfaMatched
		}
		key := string(setKey(s))
		if i, ok := index[key]; ok {
			return i
		}
		i := len(sets)
		index[key] = i
		sets = append(sets, s)
		accept = append(accept, final)
		return i
	}
	sets = []posSet{make(posSet, words), make(posSet, words)}
	accept = []bool{false, true}
	index[string(setKey(sets[dfaDead]))] = dfaDead
	start := state(initial)
	for 1<<m.shift < len(reps) {
		m.shift++
	}
	var next []uint16
	for i := 0; i < len(sets); i++ {
		if len(sets) > maxDFAStates || len(sets)<<m.shift > maxDFATable {
			return nil, false
		}
		row := make([]uint16, 1<<m.shift)
		for c, b := range reps {
			if i <= dfaMatched {
				row[c] = uint16(i << m.shift)
				continue
			}
			s := p.step(sets[i], b)
			if !seq.anchorStart {
				for w := range s {
					s[w] |= initial[w]
				}
			}
			p.close(s)
			row[c] = uint16(state(s) << m.shift)
		}
		next = append(next, row...)
	}
	if len(sets) > maxDFAStates || len(sets)<<m.shift > maxDFATable {
		return nil, false
	}
	m.next, m.accept, m.start = next, accept, uint16(start<<m.shift)
	return m, true
}

// classes groups the bytes that every step takes or refuses alike, sets
// m.class, and returns one byte of each class.
func (m *dfa) classes(steps []step) []byte {
	return m.classesBy(len(steps), func(k int, b byte) bool { return steps[k].ascii[b] })
}

// classesBy groups the bytes that each of n tests (takes(k, b), k < n)
// passes or fails alike, sets m.class, and returns one byte of each class.
func (m *dfa) classesBy(n int, takes func(k int, b byte) bool) []byte {
	var reps []byte
	seen := map[string]uint8{}
	sig := make([]byte, n)
	for b := range 256 {
		for k := range n {
			sig[k] = 0
			if takes(k, byte(b)) {
				sig[k] = 1
			}
		}
		c, ok := seen[string(sig)]
		if !ok {
			c = uint8(len(reps))
			seen[string(sig)] = c
			reps = append(reps, byte(b))
		}
		m.class[b] = c
	}
	return reps
}

// setKey is s as map key bytes.
func setKey(s posSet) []byte {
	b := make([]byte, 0, 8*len(s))
	for _, w := range s {
		for range 8 {
			b = append(b, byte(w))
			w >>= 8
		}
	}
	return b
}
