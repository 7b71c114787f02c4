package pattern

import (
	"regexp/syntax"
	"slices"
	"unicode/utf8"
)

// compileProgDFA builds the table (see dfa) of a pattern that is no
// sequence, such as one with groups or alternatives
// (^((1|7|30)d|(1|4)w)(control)?$, ^(-?[a-zA-Z]{2})$), from the program
// regexp itself compiles the pattern to: a state of the table is the set of
// the program's threads alive after a prefix of the input. It returns false,
// and the pattern keeps regexp, when the program takes a character from
// U+0080 (or any character: ., [^a]), ignores case, asserts anything but
// the start and the end of the text (^ and $ without (?m)), needs more
// states than a table holds, or more work to build it than maxProgSteps.
func compileProgDFA(expr string) (*dfa, bool) { return progDFAWithin(expr, maxProgSteps) }

// progDFAWithin is compileProgDFA, giving up after visiting maxSteps
// instructions.
func progDFAWithin(expr string, maxSteps int) (*dfa, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, false
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil || !asciiProg(prog) {
		return nil, false
	}
	b := &progBuilder{prog: prog, index: map[string]int{}, visited: make([]uint32, len(prog.Inst))}
	m := &dfa{}
	reps := b.classes(m)
	for 1<<m.shift < len(reps) {
		m.shift++
	}
	// States are numbered as they are found; dead and matched first. The
	// first state is told apart from any later one with the same threads:
	// only there does ^ hold, which matters to its acceptance.
	b.sets = [][]uint32{nil, nil}
	b.accept = []bool{false, true}
	b.index[""] = dfaDead
	restart := b.closure(nil, uint32(prog.Start), false)
	start := b.state(b.closure(nil, uint32(prog.Start), true), true)
	var next []uint16
	for i := 0; i < len(b.sets); i++ {
		if len(b.sets) > maxDFAStates || len(b.sets)<<m.shift > maxDFATable {
			return nil, false
		}
		row := make([]uint16, 1<<m.shift)
		for c, by := range reps {
			if i <= dfaMatched {
				row[c] = uint16(i << m.shift)
				continue
			}
			var s []uint32
			for _, pc := range b.sets[i] {
				if in := &prog.Inst[pc]; by < utf8.RuneSelf && (in.Op == syntax.InstRune || in.Op == syntax.InstRune1) && in.MatchRune(rune(by)) {
					s = b.closure(s, in.Out, false)
				}
			}
			if b.steps > maxSteps {
				return nil, false
			}
			s = union(s, restart)
			row[c] = uint16(b.state(s, false) << m.shift)
		}
		next = append(next, row...)
	}
	if len(b.sets) > maxDFAStates || len(b.sets)<<m.shift > maxDFATable {
		return nil, false
	}
	m.next, m.accept, m.start = next, b.accept, uint16(start<<m.shift)
	return m, true
}

// asciiProg reports whether every character prog takes is ASCII, matched
// with case, and its only assertions are ^ and $ of the text.
func asciiProg(prog *syntax.Prog) bool {
	for i := range prog.Inst {
		in := &prog.Inst[i]
		switch in.Op {
		case syntax.InstRune, syntax.InstRune1:
			if in.Op == syntax.InstRune && len(in.Rune) == 1 && syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
				return false
			}
			for _, r := range in.Rune {
				if r >= utf8.RuneSelf {
					return false
				}
			}
		case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			return false
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&^(syntax.EmptyBeginText|syntax.EmptyEndText) != 0 {
				return false
			}
		}
	}
	return true
}

// maxProgSteps bounds the instructions compileProgDFA visits while it
// builds a table, a few milliseconds' work: a pattern of a tool file whose
// table would take longer to build (its threads many, its states too,
// ([!-~]{1,50}|[a-z]{1,50}){1,20}Z) keeps regexp instead, so that no
// pattern holds up the start of the program that declares it.
const maxProgSteps = 1 << 20

// progBuilder holds the states found so far: each a sorted set of the
// program counters of threads waiting for a character, or for the end of
// the text ($).
type progBuilder struct {
	prog   *syntax.Prog
	index  map[string]int
	sets   [][]uint32
	accept []bool
	// visited[pc] == pass: closure pass has visited pc.
	visited []uint32
	pass    uint32
	steps   int // instructions visited, for maxProgSteps
}

// closure adds to s, kept sorted, the threads reached from pc without
// taking a character; atStart says whether ^ holds. A thread that reaches
// the match stays on it.
func (b *progBuilder) closure(s []uint32, pc uint32, atStart bool) []uint32 {
	b.pass++
	return b.follow(s, pc, atStart)
}

// follow is closure, visiting each instruction once: a loop that takes no
// character ((a*)*) ends.
func (b *progBuilder) follow(s []uint32, pc uint32, atStart bool) []uint32 {
	if b.visited[pc] == b.pass {
		return s
	}
	b.visited[pc] = b.pass
	b.steps++
	in := &b.prog.Inst[pc]
	switch in.Op {
	case syntax.InstAlt, syntax.InstAltMatch:
		return b.follow(b.follow(s, in.Out, atStart), in.Arg, atStart)
	case syntax.InstCapture, syntax.InstNop:
		return b.follow(s, in.Out, atStart)
	case syntax.InstFail:
		return s
	case syntax.InstEmptyWidth:
		op := syntax.EmptyOp(in.Arg)
		if op&syntax.EmptyBeginText != 0 && !atStart {
			return s
		}
		if op&syntax.EmptyEndText == 0 {
			return b.follow(s, in.Out, atStart)
		}
	}
	if i, found := slices.BinarySearch(s, pc); !found {
		s = slices.Insert(s, i, pc)
	}
	return s
}

// ends reports whether a thread of s reaches the match at the end of the
// text; atStart says whether the text is empty.
func (b *progBuilder) ends(s []uint32, atStart bool) bool {
	for _, pc := range s {
		switch in := &b.prog.Inst[pc]; in.Op {
		case syntax.InstMatch:
			return true
		case syntax.InstEmptyWidth:
			if b.reachesMatch(in.Out, atStart, map[uint32]bool{}) {
				return true
			}
		}
	}
	return false
}

// reachesMatch reports whether pc leads to the match without taking a
// character, at the end of the text.
func (b *progBuilder) reachesMatch(pc uint32, atStart bool, seen map[uint32]bool) bool {
	if seen[pc] {
		return false
	}
	seen[pc] = true
	switch in := &b.prog.Inst[pc]; in.Op {
	case syntax.InstMatch:
		return true
	case syntax.InstAlt, syntax.InstAltMatch:
		return b.reachesMatch(in.Out, atStart, seen) || b.reachesMatch(in.Arg, atStart, seen)
	case syntax.InstCapture, syntax.InstNop:
		return b.reachesMatch(in.Out, atStart, seen)
	case syntax.InstEmptyWidth:
		if syntax.EmptyOp(in.Arg)&syntax.EmptyBeginText != 0 && !atStart {
			return false
		}
		return b.reachesMatch(in.Out, atStart, seen)
	}
	return false
}

// state returns the number of the state of the threads s, first says
// whether it is the first state.
func (b *progBuilder) state(s []uint32, first bool) int {
	for _, pc := range s {
		if b.prog.Inst[pc].Op == syntax.InstMatch {
			return dfaMatched
		}
	}
	key := make([]byte, 0, 1+4*len(s))
	if first {
		key = append(key, 1)
	}
	for _, pc := range s {
		key = append(key, byte(pc), byte(pc>>8), byte(pc>>16), byte(pc>>24))
	}
	if i, ok := b.index[string(key)]; ok {
		return i
	}
	i := len(b.sets)
	b.index[string(key)] = i
	b.sets = append(b.sets, s)
	b.accept = append(b.accept, b.ends(s, first))
	return i
}

// classes groups the bytes that every character instruction takes or
// refuses alike, sets m.class, and returns one byte of each class.
func (b *progBuilder) classes(m *dfa) []byte {
	var runes []*syntax.Inst
	for i := range b.prog.Inst {
		if op := b.prog.Inst[i].Op; op == syntax.InstRune || op == syntax.InstRune1 {
			runes = append(runes, &b.prog.Inst[i])
		}
	}
	return m.classesBy(len(runes), func(k int, c byte) bool { return c < utf8.RuneSelf && runes[k].MatchRune(rune(c)) })
}

// union returns the sorted set of the threads of s and t.
func union(s, t []uint32) []uint32 {
	for _, pc := range t {
		if i, found := slices.BinarySearch(s, pc); !found {
			s = slices.Insert(s, i, pc)
		}
	}
	return s
}
