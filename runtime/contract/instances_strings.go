package contract

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/format"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// formatSamples are fixed valid values of each format.
var formatSamples = map[string]string{
	"date":      "2026-01-31",
	"date-time": "2026-01-31T12:00:00Z",
	"time":      "12:00:00Z",
	"email":     "a@example.com",
	"uuid":      "123e4567-e89b-12d3-a456-426614174000",
	"uri":       "https://example.com/a",
	"ipv4":      "192.0.2.1",
	"ipv6":      "::1",
	"hostname":  "example.com",
	"duration":  "P1D",
}

// formatMisses are fixed invalid values of each format.
var formatMisses = map[string]string{
	"date":      "2026-02-30",
	"date-time": "2026-01-31",
	"time":      "25:00:00Z",
	"email":     "a.example.com",
	"uuid":      "123e4567-e89b-12d3-a456",
	"uri":       "example.com/a",
	"ipv4":      "256.0.2.1",
	"ipv6":      "1::2::3",
	"hostname":  "-example.com",
	"duration":  "1D",
}

// synthString picks a string for the flat schema f: the format sample, else a pattern match of at
// least the lower length bound's code points (or "a" padded to it), within the upper one, else the first
// of a few candidates that passes.
func (d *deriver) synthString(f *jsonval.Value, ptr string) (*jsonval.Value, error) {
	lo, hi := 0, -1
	if m := f.Get(lengthBounds[0].Name); m != nil {
		lo = intOf(m)
	}
	if m := f.Get(lengthBounds[1].Name); m != nil {
		hi = intOf(m)
	}
	if lo > maxLen {
		return nil, fmt.Errorf("%s at %s is too large to build", lengthBounds[0].Name, ptrText(ptr))
	}
	var cands []string
	if fm := f.Get("format"); fm != nil && fm.Kind == jsonval.String {
		if s, ok := formatSamples[fm.Str]; ok {
			cands = append(cands, s)
		}
	}
	want := max(lo, 1) // a non-empty string where allowed
	if p := f.Get("pattern"); p != nil {
		if s, ok := minimalMatch(p.Str); ok {
			want = max(lo, utf8.RuneCountInString(s))
		}
	}
	if hi >= 0 {
		want = min(want, hi)
	}
	if s, ok := d.stringOfLen(f, want); ok {
		cands = append(cands, s)
	}
	cands = append(cands, "a", "A", "0", "example", "")
	for _, c := range cands {
		v := jsonString(c)
		if d.check(f, v, 0) {
			return v, nil
		}
	}
	return nil, fmt.Errorf("no string satisfies the schema at %s", ptrText(ptr))
}

// minimalMatch returns the shortest-repetition string patternString builds for the pattern p.
func minimalMatch(p string) (string, bool) {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	ok := patternString(re, 0, &b)
	return b.String(), ok
}

// stringOfLen returns a string of n code points, and whether it matches the pattern of f (if any) and is
// not known to break its format.
func (d *deriver) stringOfLen(f *jsonval.Value, n int) (string, bool) {
	if n < 0 {
		return "", false
	}
	plain := strings.Repeat("a", n)
	if fm := f.Get("format"); fm != nil && fm.Kind == jsonval.String {
		if _, known := format.Lookup(fm.Str); known {
			if s := formatSamples[fm.Str]; utf8.RuneCountInString(s) == n {
				return s, true
			}
			return plain, false
		}
	}
	p := f.Get("pattern")
	if p == nil {
		return plain, true
	}
	re, err := syntax.Parse(p.Str, syntax.Perl)
	if err != nil {
		return plain, false
	}
	var b strings.Builder
	if !patternString(re, 0, &b) {
		return plain, false
	}
	s := b.String()
	if k := utf8.RuneCountInString(s); k < n {
		b.Reset()
		patternString(re, n-k, &b)
		s = b.String()
		if k := utf8.RuneCountInString(s); k < n {
			s += strings.Repeat(string(padRune(re)), n-k)
		}
	}
	if utf8.RuneCountInString(s) != n || !d.match(p.Str, s) {
		return plain, false
	}
	return s, true
}

// patternString appends to b a string the parsed pattern re matches, with every repetition at its
// minimum (once for +) except that the first repetitions with room repeat more, growing the result by up
// to extra runes. It reports false when re matches nothing.
func patternString(re *syntax.Regexp, extra int, b *strings.Builder) bool {
	return (&patternWalk{extra: extra, b: b}).walk(re)
}

// patternWalk is one walk of patternString: extra is the growth still to place.
type patternWalk struct {
	extra int
	b     *strings.Builder
}

// walk writes a string re matches and reports false when it matches nothing.
func (w *patternWalk) walk(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpLiteral:
		w.b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return false
		}
		w.b.WriteRune(classRune(re.Rune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		w.b.WriteByte('a')
	case syntax.OpCapture:
		return w.walk(re.Sub[0])
	case syntax.OpStar:
		return w.repeat(re.Sub[0], 0, -1)
	case syntax.OpPlus:
		return w.repeat(re.Sub[0], 1, -1)
	case syntax.OpQuest:
		return w.repeat(re.Sub[0], 0, 1)
	case syntax.OpRepeat:
		return w.repeat(re.Sub[0], re.Min, re.Max)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !w.walk(sub) {
				return false
			}
		}
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			var t strings.Builder
			if patternString(sub, 0, &t) {
				return w.walk(sub)
			}
		}
		return false
	}
	return true // anchors, boundaries, empty match
}

// repeat writes sub lo times, plus as many whole extra repetitions (up to hi, -1 for no limit) as fit in
// the growth still to place.
func (w *patternWalk) repeat(sub *syntax.Regexp, lo, hi int) bool {
	n := lo
	if w.extra > 0 && (hi < 0 || hi > lo) {
		var t strings.Builder
		if patternString(sub, 0, &t) {
			if l := utf8.RuneCountInString(t.String()); l > 0 {
				k := w.extra / l
				if hi >= 0 {
					k = min(k, hi-lo)
				}
				n += k
				w.extra -= k * l
			}
		}
	}
	inner := &patternWalk{b: w.b}
	for range n {
		if !inner.walk(sub) {
			return false
		}
	}
	return true
}

// classRune picks a rune of a character class (pairs of inclusive ranges): an ASCII letter or digit if
// there is one, else printable ASCII, else the first rune.
func classRune(ranges []rune) rune {
	for _, pick := range []func(rune) bool{
		func(r rune) bool { return r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) },
		func(r rune) bool { return r > ' ' && r < 0x7f },
	} {
		for i := 0; i+1 < len(ranges); i += 2 {
			for r := ranges[i]; r <= ranges[i+1] && r < 0x80; r++ {
				if pick(r) {
					return r
				}
			}
		}
	}
	return ranges[0]
}

// padRune returns a rune to append to a string matched by an unanchored-at-end pattern.
func padRune(re *syntax.Regexp) rune {
	if re.Op == syntax.OpConcat && len(re.Sub) > 0 {
		return padRune(re.Sub[len(re.Sub)-1])
	}
	if re.Op == syntax.OpCharClass && len(re.Rune) > 0 {
		return classRune(re.Rune)
	}
	return 'a'
}
