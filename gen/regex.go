package gen

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
)

// ecmaSpace is ECMA-262's WhiteSpace and LineTerminator set, which its \s
// matches: RE2's \s is only [\t\n\f\r ].
const ecmaSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// translations caches ecmaToRE2's answer per pattern, for the whole
// process: each pattern is translated and compiled once, however many
// schemas and tools repeat it. It is safe for concurrent use. Patterns
// come from third-party tool files, so it holds at most maxTranslations of
// them (cached counts those stored): past that, a new pattern is
// translated each time it is asked for, with the same answer.
var (
	translations sync.Map // pattern → translation
	cached       atomic.Int64
)

// maxTranslations bounds translations: a catalog of thousands of tools has
// far fewer distinct patterns.
const maxTranslations = 1 << 14

type translation struct {
	re  string
	err error
}

// ecmaToRE2 translates a JSON Schema pattern (ECMA-262 syntax) into Go's
// RE2 syntax where the two differ in meaning and RE2 accepts both
// spellings: \s and \S take ECMA-262's set of white space. Whatever RE2
// cannot compile (lookaround, backreferences) is an error. The translation
// is checked by compiling the result.
func ecmaToRE2(pattern string) (string, error) {
	if t, ok := translations.Load(pattern); ok {
		return t.(translation).re, t.(translation).err
	}
	re, err := translate(pattern)
	if cached.Load() < maxTranslations {
		if _, loaded := translations.LoadOrStore(pattern, translation{re, err}); !loaded {
			cached.Add(1)
		}
	}
	return re, err
}

// translate is ecmaToRE2 without the cache.
func translate(pattern string) (string, error) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern):
			next := pattern[i+1]
			i++
			switch {
			case next == 'c' && i+1 < len(pattern) && isASCIILetter(pattern[i+1]):
				// \cX is the control character X mod 32; RE2 has no \c.
				i++
				fmt.Fprintf(&b, `\x{%x}`, pattern[i]%32)
			case next == 's' && inClass:
				b.WriteString(ecmaSpace)
			case next == 's':
				b.WriteString("[" + ecmaSpace + "]")
			case next == 'S' && !inClass:
				b.WriteString("[^" + ecmaSpace + "]")
			default:
				// \S inside a class has no RE2 spelling as a set union; it is
				// kept as written (RE2's \S) and the rest is left alone.
				b.WriteByte('\\')
				b.WriteByte(next)
			}
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
			// A ']' right after '[' or '[^' is a literal.
			if i+1 < len(pattern) && pattern[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(pattern) && pattern[i+1] == ']' {
				b.WriteByte(']')
				i++
			}
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	out := b.String()
	if _, err := regexp.Compile(out); err != nil {
		_, origErr := regexp.Compile(pattern)
		if origErr != nil {
			return "", origErr
		}
		return "", err
	}
	return out, nil
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
