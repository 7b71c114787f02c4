package tgimpl

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// Matcher reports whether a string contains a match of a pattern.
type Matcher interface {
	Match(s []byte) bool
}

// MustPattern compiles a pattern (in Go's syntax) once, for a package
// variable. Most patterns in tool schemas are a sequence of character
// classes with counts (^[A-Z][A-Z0-9-]{2,31}$); those get a small matcher
// that runs without the regexp machinery. Every other pattern uses
// regexp. Both answer the same: whether the string contains a match.
func MustPattern(expr string) Matcher {
	re := regexp.MustCompile(expr)
	if seq, ok := compileSequence(expr); ok {
		seq.re = re
		return seq
	}
	return re
}

// step is one element of a sequence: a character class repeated between
// min and max times (max < 0: unbounded).
type step struct {
	ranges   []rune    // pairs lo, hi, sorted
	ascii    [2]uint64 // the class's ASCII members as a bitmap
	min, max int
}

// newStep makes a step of a class repeated min to max times.
func newStep(ranges []rune, min, max int) step {
	st := step{ranges: ranges, min: min, max: max}
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && r < utf8.RuneSelf; r++ {
			st.ascii[r>>6] |= 1 << (r & 63)
		}
	}
	return st
}

func (st *step) has(r rune) bool {
	if r < utf8.RuneSelf {
		return st.ascii[r>>6]&(1<<(r&63)) != 0
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
	return seq, true
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
// whatever its length.
func (q *sequence) greedy(s []byte) bool {
	i := 0
	for k := range q.steps[:q.head] {
		st := &q.steps[k]
		limit := len(s) - i // runes at most, and at most max
		if st.max >= 0 && st.max < limit {
			limit = st.max
		}
		n := 0
		for n < limit {
			c := s[i]
			if c < utf8.RuneSelf {
				if st.ascii[c>>6]&(1<<(c&63)) == 0 {
					break
				}
				i++
			} else {
				r, size := utf8.DecodeRune(s[i:])
				if !st.has(r) {
					break
				}
				i += size
				if len(s)-i < limit-n-1 {
					limit = n + 1 + len(s) - i
				}
			}
			n++
		}
		if n < st.min {
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
		r, size := utf8.DecodeRune(s[i:end])
		if !st.has(r) {
			return false
		}
		i += size
		n++
	}
	return n >= st.min && (st.max < 0 || n <= st.max)
}
