package violation

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// MaxEcho bounds, in runes, how much of a received value a message
// repeats. Quoting reads and copies only the bytes shown, so a 1 MiB value
// costs what 64 runes cost.
const MaxEcho = 64

// Quote renders a received string value for a message (see Show), cut
// after MaxEcho runes; a cut value is followed by "…", outside the quotes
// when it is quoted.
func Quote(s []byte) string { return string(AppendQuote(nil, s)) }

// AppendQuote appends Quote(s) to b.
func AppendQuote(b, s []byte) []byte {
	cut := prefixRunes(s, MaxEcho)
	shown := s[:cut]
	if PlainWord(shown) {
		b = append(b, shown...)
	} else {
		// AppendVisible only reads the string it is given.
		b = AppendVisible(b, unsafe.String(unsafe.SliceData(shown), len(shown)))
	}
	if cut < len(s) {
		b = append(b, "…"...)
	}
	return b
}

// Text renders received number text for a message, cut after MaxEcho
// bytes (number text is ASCII) and then followed by "…".
func Text(raw []byte) string { return string(AppendText(nil, raw)) }

// AppendText appends Text(raw) to b.
func AppendText(b, raw []byte) []byte {
	if len(raw) <= MaxEcho {
		return append(b, raw...)
	}
	b = append(b, raw[:MaxEcho]...)
	return append(b, "…"...)
}

// prefixRunes returns the length in bytes of the first n runes of s,
// reading no further.
func prefixRunes(s []byte, n int) int {
	if len(s) <= n {
		return len(s) // no more runes than bytes
	}
	i := 0
	for range n {
		if i >= len(s) {
			return len(s)
		}
		_, size := utf8.DecodeRune(s[i:])
		i += size
	}
	return i
}

// Show renders a string value the way messages show values: bare when it is
// a plain word (GBP, requested_by_customer, 2026-01-31), quoted otherwise
// (see AppendVisible), so that whitespace, case, empty strings and
// invisible characters stay visible.
func Show(s string) string {
	if PlainWord(s) {
		return s
	}
	return string(AppendVisible(make([]byte, 0, len(s)+2), s))
}

// PlainWord reports whether Show leaves s bare: a non-empty run of ASCII
// letters, digits and _.:/@+-.
func PlainWord[T string | []byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !wordByte[s[i]] {
			return false
		}
	}
	return true
}

// wordByte marks the bytes of a plain word: ASCII letters, digits and
// _.:/@+-.
var wordByte = func() (t [256]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_.:/@+-", byte(c)) >= 0
	}
	return t
}()

// BareName reports whether a member name is shown bare in a message path:
// when it is made of letters, digits, '_', '-' and '$' (orderId,
// line_items, größe). Any other name is quoted (see AppendVisible):
// "orderId\u200b", "", "a.b", "two words", so that a name never reads as
// another name, as a path or as no name at all.
func BareName(name []byte) bool {
	if len(name) == 0 {
		return false
	}
	for i := 0; i < len(name); {
		if c := name[i]; c < utf8.RuneSelf {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '$') {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(name[i:])
		i += size
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '$') {
			return false
		}
	}
	return true
}

// AppendVisible appends s to b as a JSON string in which every character
// that does not show as itself is escaped: control and format characters
// (U+200B, bidirectional controls, U+FEFF), separators and spaces other
// than U+0020, private-use and unassigned code points, and invalid UTF-8
// (as \ufffd). A code point above U+FFFF is escaped as a surrogate pair.
func AppendVisible(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	u := func(b []byte, r rune) []byte {
		return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == ' ' || r < utf8.RuneSelf && r > ' ' && r != 0x7f:
			b = append(b, byte(r))
		case r >= utf8.RuneSelf && unicode.IsGraphic(r) && !unicode.IsSpace(r) && !unicode.Is(unicode.Zs, r):
			b = utf8.AppendRune(b, r)
		case r > 0xffff:
			r -= 0x10000
			b = u(u(b, 0xd800+r>>10), 0xdc00+r&0x3ff)
		default:
			b = u(b, r)
		}
	}
	return append(b, '"')
}

// MaxShown bounds, in bytes, a value shown as given to a violation method.
// Quote and Text give at most MaxEcho runes, quoted and escaped (under
// 800 bytes); a longer got, which no generated decoder passes, is cut at a
// rune and marked "…", so that a record's lengths fit (see lenBits).
const MaxShown = 4 << 10

// AppendShown appends got, cut at MaxShown bytes.
func AppendShown(b []byte, got string) []byte {
	if len(got) <= MaxShown {
		return append(b, got...)
	}
	cut := MaxShown
	for cut > 0 && !utf8.RuneStart(got[cut]) {
		cut--
	}
	return append(append(b, got[:cut]...), "…"...)
}
