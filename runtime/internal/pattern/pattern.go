// Package pattern matches the pattern keyword of a JSON Schema: whether a
// string contains a match of a regular expression, already translated to
// Go's syntax by the generator. MustCompile picks the cheapest matcher that
// answers as regexp does: a table of states (dfa.go, prog.go), a sequence
// matcher, or regexp itself. The generated code reaches it through tgimpl
// (tgimpl.MustPattern); nothing outside runtime may import it.
package pattern

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// Matcher reports whether a string contains a match of a pattern.
type Matcher interface {
	Match(s []byte) bool
}

// MustCompile compiles a pattern (in Go's syntax) once, for a package
// variable. Most patterns in tool schemas are a sequence of character
// classes with counts (^[A-Z][A-Z0-9-]{2,31}$); those get a small matcher
// that runs without the regexp machinery: a table of states when the
// classes are ASCII and the states few (dfa.go), else the sequence
// matcher. Another pattern gets a table too when its characters are ASCII
// and its states few (prog.go: groups and alternatives,
// ^(1d|7d|30d)$), and uses regexp otherwise. All answer the same: whether
// the string contains a match.
//
// A table needs no regexp, which is compiled only for the other two:
// ^[A-Z][A-Z0-9-]{2,31}$ then takes 10 KB in 252 allocations to make, not
// 36 KB in 616, which counts in the init of a package of many tools. An
// invalid pattern is no sequence (compileSequence parses it as regexp
// does), so MustCompile still panics on it as regexp.MustCompile does.
func MustCompile(expr string) Matcher {
	seq, ok := compileSequence(expr)
	if !ok {
		if m, ok := compileProgDFA(expr); ok {
			return m
		}
		return regexp.MustCompile(expr)
	}
	if m, ok := compileDFA(seq); ok {
		return m
	}
	seq.re = regexp.MustCompile(expr)
	return seq
}

// step is one element of a sequence: a character class repeated between
// min and max times (max < 0: unbounded).
type step struct {
	ranges   []rune     // pairs lo, hi, sorted
	ascii    *[256]bool // the class's ASCII members, by byte (none from 0x80)
	lit      string     // in a greedy head only: a run of ASCII literals, matched as it is
	min, max int
}

// newStep makes a step of a class repeated min to max times.
func newStep(ranges []rune, min, max int) step {
	st := step{ranges: ranges, ascii: new([256]bool), min: min, max: max}
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && r < utf8.RuneSelf; r++ {
			st.ascii[r] = true
		}
	}
	return st
}

func (st *step) has(r rune) bool {
	if r < utf8.RuneSelf {
		return st.ascii[r]
	}
	for i := 0; i+1 < len(st.ranges); i += 2 {
		if r < st.ranges[i] {
			return false
		}
		if r <= st.ranges[i+1] {
			return true
		}
	}
	return false
}

// sequence matches an optional ^, a list of steps and an optional $.
type sequence struct {
	steps                  []step
	anchorStart, anchorEnd bool
	re                     *regexp.Regexp // the same pattern, for long inputs
	// split is set when the greedy scan is exact (see greedySplit): steps
	// [0, head) are matched greedily forward, steps [tail, len) backward
	// from the end, and a step between them, if any, takes what is left.
	split      bool
	head, tail int
	greedyHead []step // steps[:head], each run of single ASCII literals made one lit step
}

// maxSequenceInput bounds the inputs the sequence matcher takes (in bytes);
// longer ones go to the regexp, so the matcher's work and stack stay small.
const maxSequenceInput = 128

// compileSequence recognizes the patterns sequence can match.
func compileSequence(expr string) (*sequence, bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, false
	}
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	seq := &sequence{}
	for i, sub := range subs {
		switch {
		case sub.Op == syntax.OpBeginText && i == 0:
			seq.anchorStart = true
		case sub.Op == syntax.OpEndText && i == len(subs)-1:
			seq.anchorEnd = true
		case sub.Op == syntax.OpEmptyMatch:
		default:
			steps, ok := sequenceSteps(sub)
			if !ok {
				return nil, false
			}
			seq.steps = append(seq.steps, steps...)
		}
	}
	seq.head, seq.tail, seq.split = greedySplit(seq.steps, seq.anchorStart, seq.anchorEnd)
	if seq.split {
		seq.greedyHead = fuseLiterals(seq.steps[:seq.head])
	}
	return seq, true
}

// fuseLiterals returns steps with each run of steps that match one ASCII
// character exactly once (the literal "ORD-" of ^ORD-[0-9]{6,12}$) made one
// step whose lit is that text: the greedy scan compares it in one go.
func fuseLiterals(steps []step) []step {
	var out []step
	for _, st := range steps {
		c, ok := st.literal()
		if !ok {
			out = append(out, st)
			continue
		}
		if n := len(out); n > 0 && out[n-1].lit != "" {
			out[n-1].lit += string(c)
			out[n-1].min, out[n-1].max = len(out[n-1].lit), len(out[n-1].lit)
			continue
		}
		out = append(out, step{ranges: st.ranges, ascii: st.ascii, lit: string(c), min: 1, max: 1})
	}
	return out
}

// literal reports whether st matches one ASCII character exactly once, and
// which.
func (st *step) literal() (byte, bool) {
	if st.min != 1 || st.max != 1 || len(st.ranges) != 2 || st.ranges[0] != st.ranges[1] || st.ranges[0] >= utf8.RuneSelf {
		return 0, false
	}
	return byte(st.ranges[0]), true
}

// greedySplit decides whether the steps can be matched by one greedy scan,
// without trying alternatives: a step that takes as many characters of its
// class as it may (up to its maximum) takes exactly what every match takes
// when its count is fixed, or when its class shares no character with the
// classes that can follow it (the next step's, and the one after while the
// steps in between may be empty): the character that stops it then cannot
// belong to it in any match. With ^ and $, the fixed-count steps at the end
// are matched backward from the end of the string, and one step of any
// kind may sit between the greedy head and that tail, taking what is left.
// Without ^ the match may start anywhere and the general matcher is used.
func greedySplit(steps []step, anchorStart, anchorEnd bool) (head, tail int, ok bool) {
	if !anchorStart {
		return 0, 0, false
	}
	tail = len(steps)
	if anchorEnd {
		for tail > 0 && steps[tail-1].min == steps[tail-1].max {
			tail--
		}
	}
	head = 0
	for head < tail && greedyExact(steps, head) {
		head++
	}
	switch {
	case head == tail:
		return head, tail, true
	case head == tail-1 && anchorEnd:
		return head, tail, true
	}
	return 0, 0, false
}

// greedyExact reports whether steps[i], taken greedily, takes what every
// match takes (see greedySplit).
func greedyExact(steps []step, i int) bool {
	st := &steps[i]
	if st.min == st.max {
		return true
	}
	for j := i + 1; j < len(steps); j++ {
		if overlaps(st, &steps[j]) {
			return false
		}
		if steps[j].min > 0 {
			break
		}
	}
	return true
}

// overlaps reports whether two steps' classes share a character.
func overlaps(a, b *step) bool {
	for i := 0; i+1 < len(a.ranges); i += 2 {
		for j := 0; j+1 < len(b.ranges); j += 2 {
			if a.ranges[i] <= b.ranges[j+1] && b.ranges[j] <= a.ranges[i+1] {
				return true
			}
		}
	}
	return false
}

// sequenceSteps turns one element of a concatenation into steps.
func sequenceSteps(re *syntax.Regexp) ([]step, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		steps := make([]step, len(re.Rune))
		for i, r := range re.Rune {
			steps[i] = newStep([]rune{r, r}, 1, 1)
		}
		return steps, true
	case syntax.OpCharClass:
		return []step{newStep(re.Rune, 1, 1)}, true
	case syntax.OpAnyCharNotNL:
		return []step{newStep([]rune{0, '\n' - 1, '\n' + 1, utf8.MaxRune}, 1, 1)}, true
	case syntax.OpAnyChar:
		return []step{newStep([]rune{0, utf8.MaxRune}, 1, 1)}, true
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		inner, ok := sequenceSteps(re.Sub[0])
		if !ok || len(inner) != 1 || inner[0].min != 1 || inner[0].max != 1 {
			return nil, false
		}
		st := inner[0]
		switch re.Op {
		case syntax.OpStar:
			st.min, st.max = 0, -1
		case syntax.OpPlus:
			st.min, st.max = 1, -1
		case syntax.OpQuest:
			st.min, st.max = 0, 1
		default:
			st.min, st.max = re.Min, re.Max
		}
		return []step{st}, true
	}
	return nil, false
}

// Match reports whether s contains a match: the set of rune positions the
// steps can reach is carried forward step by step.
func (q *sequence) Match(s []byte) bool {
	if q.split {
		return q.greedy(s)
	}
	if len(s) > maxSequenceInput {
		return q.re.Match(s)
	}
	ascii := true
	for _, c := range s {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return q.match(len(s), func(i int) rune { return rune(s[i]) })
	}
	var runes [maxSequenceInput]rune
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		runes[n] = r
		n++
		i += size
	}
	return q.match(n, func(i int) rune { return runes[i] })
}

// match runs the steps over n runes, the i-th given by at(i).
func (q *sequence) match(n int, at func(int) rune) bool {
	// reach[p] says the steps so far can end at rune position p.
	var reach, next [maxSequenceInput + 1]bool
	if q.anchorStart {
		reach[0] = true
	} else {
		for p := 0; p <= n; p++ {
			reach[p] = true
		}
	}
	for i := range q.steps {
		st := &q.steps[i]
		any := false
		for p := 0; p <= n; p++ {
			next[p] = false
		}
		for p := 0; p <= n; p++ {
			if !reach[p] {
				continue
			}
			for k := 0; p+k <= n; k++ {
				if k >= st.min {
					next[p+k] = true
					any = true
				}
				if k == st.max || p+k == n || !st.has(at(p+k)) {
					break
				}
			}
		}
		if !any {
			return false
		}
		reach = next
	}
	if q.anchorEnd {
		return reach[n]
	}
	for p := 0; p <= n; p++ {
		if reach[p] {
			return true
		}
	}
	return false
}

// greedy matches s in one scan when greedySplit allows it: linear in s,
// whatever its length. Each step takes ASCII bytes by its bitmap and
// decodes a rune only at a byte from 0x80.
func (q *sequence) greedy(s []byte) bool {
	i := 0
	for k := range q.greedyHead {
		st := &q.greedyHead[k]
		if st.lit != "" {
			if len(s)-i < len(st.lit) {
				return false
			}
			for _, c := range []byte(st.lit) {
				if s[i] != c {
					return false
				}
				i++
			}
			continue
		}
		var n int
		if i, n = st.take(s, i); n < st.min {
			return false
		}
	}
	if q.tail == len(q.steps) && q.head == q.tail {
		return !q.anchorEnd || i == len(s)
	}
	end := len(s)
	for k := len(q.steps) - 1; k >= q.tail; k-- {
		st := &q.steps[k]
		for range st.min {
			if end <= i {
				return false
			}
			if c := s[end-1]; c < utf8.RuneSelf {
				if !st.ascii[c] {
					return false
				}
				end--
				continue
			}
			r, size := utf8.DecodeLastRune(s[i:end])
			if !st.has(r) {
				return false
			}
			end -= size
		}
	}
	if q.head == q.tail {
		return i == end
	}
	st := &q.steps[q.head]
	n := 0
	for i < end {
		if c := s[i]; c < utf8.RuneSelf {
			if !st.ascii[c] {
				return false
			}
			i++
		} else {
			r, size := utf8.DecodeRune(s[i:end])
			if !st.has(r) {
				return false
			}
			i += size
		}
		n++
	}
	return n >= st.min && (st.max < 0 || n <= st.max)
}

// take runs a greedy step from s[i]: it takes as many characters of its
// class as it may, and returns where it stopped and how many it took.
func (st *step) take(s []byte, i int) (int, int) {
	end := len(s) // at most max runes, so at most max bytes from i
	if st.max >= 0 && st.max < end-i {
		end = i + st.max
	}
	j, tab := i, st.ascii
	for j < end && tab[s[j]] {
		j++
	}
	if j < end && s[j] >= utf8.RuneSelf {
		return st.takeRunes(s, j, j-i)
	}
	return j, j - i
}

// takeRunes goes on with a greedy step that has taken n runes and stopped
// at s[i], a byte from 0x80: it takes runes of the class, ASCII or not,
// up to the step's maximum, and returns where it stopped and how many it
// took.
func (st *step) takeRunes(s []byte, i, n int) (int, int) {
	for i < len(s) && (st.max < 0 || n < st.max) {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(s[i:])
		}
		if !st.has(r) {
			break
		}
		i += size
		n++
	}
	return i, n
}
