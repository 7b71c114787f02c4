package callrecord

import (
	"math/big"
	"regexp/syntax"
	"strings"
	"unicode"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Placeholders: the candidate values the masker tries in place of a value
// it does not keep. Each is checked against the schema before it is used
// (see masker.pick); these only propose.

// formatExamples are valid stand-ins for strings that satisfy a format.
var formatExamples = map[string]string{
	"date":          "2000-01-01",
	"date-time":     "2000-01-01T00:00:00Z",
	"time":          "00:00:00Z",
	"duration":      "P1D",
	"email":         "a@example.com",
	"idn-email":     "a@example.com",
	"hostname":      "example.com",
	"idn-hostname":  "example.com",
	"ipv4":          "192.0.2.1",
	"ipv6":          "2001:db8::1",
	"uri":           "https://example.com/",
	"uri-reference": "https://example.com/",
	"iri":           "https://example.com/",
	"iri-reference": "https://example.com/",
	"uuid":          "00000000-0000-4000-8000-000000000000",
}

// classMask replaces each letter and digit of s by its class: an
// upper-case letter becomes A, any other letter a, a digit 1; spaces,
// punctuation, symbols and control characters stay (patterns and the
// gate's control-character checks test them).
func classMask(s string) []rune {
	out := []rune(s)
	for i, r := range out {
		out[i] = classOf(r)
	}
	return out
}

func classOf(r rune) rune {
	switch {
	case unicode.IsUpper(r):
		return 'A'
	case unicode.IsLetter(r):
		return 'a'
	case unicode.IsDigit(r):
		return '1'
	}
	return r
}

// maxExample bounds the length of a string built from a pattern.
const maxExample = 4096

// patternExample returns a string that pattern matches, built from the
// pattern alone: its literal parts as written, one member of each class
// (1, a or A when the class has it), and extra more repetitions of every
// repetition that allows them. ok is false when none can be built.
func patternExample(pattern string, extra int) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	if !writeExample(&b, re.Simplify(), extra) {
		return "", false
	}
	return b.String(), true
}

func writeExample(b *strings.Builder, re *syntax.Regexp, extra int) bool {
	if b.Len() > maxExample {
		return false
	}
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		r, ok := classMember(re.Rune)
		if !ok {
			return false
		}
		b.WriteRune(r)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('x')
	case syntax.OpCapture:
		return writeExample(b, re.Sub[0], extra)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !writeExample(b, s, extra) {
				return false
			}
		}
	case syntax.OpAlternate:
		return writeExample(b, re.Sub[0], extra)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := re.Min, re.Max
		switch re.Op {
		case syntax.OpStar:
			lo, hi = 0, -1
		case syntax.OpPlus:
			lo, hi = 1, -1
		case syntax.OpQuest:
			lo, hi = 0, 1
		}
		n := lo + extra
		if hi >= 0 && n > hi {
			n = hi
		}
		for range n {
			if !writeExample(b, re.Sub[0], extra) {
				return false
			}
		}
	}
	return true
}

// classMember picks a member of the class with the rune ranges r: 1, a or
// A when it has them, else its first printable member.
func classMember(r []rune) (rune, bool) {
	in := func(c rune) bool {
		for i := 0; i+1 < len(r); i += 2 {
			if r[i] <= c && c <= r[i+1] {
				return true
			}
		}
		return false
	}
	for _, c := range []rune{'1', 'a', 'A', 'x'} {
		if in(c) {
			return c, true
		}
	}
	for i := 0; i+1 < len(r); i += 2 {
		for c := r[i]; c <= r[i+1] && c < r[i]+128; c++ {
			if unicode.IsPrint(c) {
				return c, true
			}
		}
	}
	if len(r) >= 2 {
		return r[0], true
	}
	return 0, false
}

// numberCandidates proposes numbers for a sensitive number under the
// schemas locs: small ones, each bound and step of the schemas and its
// neighbours, and the first multiple of each step at or past each lower
// bound.
func numberCandidates(locs []loc) []string {
	out := []string{"0", "1", "-1", "0.5"}
	one := big.NewRat(1, 1)
	for _, l := range locs {
		var bounds, steps []*big.Rat
		for _, kw := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
			if v := l.s.Get(kw); v != nil && v.Kind == jsonval.Number {
				if r := v.Rat(); r != nil {
					bounds = append(bounds, r)
				}
			}
		}
		if v := l.s.Get("multipleOf"); v != nil && v.Kind == jsonval.Number {
			if r := v.Rat(); r != nil && r.Sign() > 0 {
				steps = append(steps, r)
			}
		}
		for _, b := range bounds {
			out = append(out, ratText(b), ratText(new(big.Rat).Add(b, one)), ratText(new(big.Rat).Sub(b, one)))
			for _, m := range steps {
				q := new(big.Rat).Quo(b, m)
				n := new(big.Int).Quo(q.Num(), q.Denom()) // truncated toward zero
				for _, k := range []int64{0, 1, 2} {
					at := new(big.Rat).SetInt(new(big.Int).Add(n, big.NewInt(k)))
					out = append(out, ratText(at.Mul(at, m)))
				}
			}
		}
		for _, m := range steps {
			out = append(out, ratText(m))
		}
	}
	return out
}

// ratText writes r as JSON number text: an integer, or a decimal when r
// has one within 30 digits (else a close decimal, which the check then
// refuses if it must).
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	s := r.FloatString(30)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
