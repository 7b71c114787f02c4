package gen

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// Every string read from a tool file is data. It reaches generated code
// only as a Go string literal (jen.Lit, goString) or as the text of a //
// line comment (comments), and neither lets it become code:
//
//   - comment text is written after "// ", so no line it makes can open a
//     block comment or start a directive (//go:generate, //line, //export,
//     //extern); a line that would read as a "+build" constraint gets a
//     backslash in front;
//   - in comments, error messages and raw string literals, the runes that
//     can hide or reorder text (unsafeRune: controls, the BOM, bidi
//     controls, the Unicode line and paragraph separators — "Trojan
//     Source", CVE-2021-42574) and invalid UTF-8 are written as Go escapes
//     (\x00, \u202e); string literals holding one are quoted instead of
//     raw.
//
// Names and descriptions are checked when a tool file is loaded
// (checkText): one holding such a rune is an invalid tool definition.

// unsafeRune reports the runes never written into generated code or a
// message as they are: C0 controls other than tab and newline, DEL, C1
// controls, the byte order mark, the bidirectional embedding, override and
// isolate controls, and the line and paragraph separators.
func unsafeRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r == '\ufeff', r == '\u2028', r == '\u2029':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// escapeText writes the runes for which unsafe reports true, and each byte
// of invalid UTF-8, as Go escapes: \x1b, \u202e, \xff.
func escapeText(s string, unsafe func(rune) bool) string {
	if !strings.ContainsFunc(s, unsafe) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafe(r) && r < utf8.RuneSelf:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Printable returns s with the runes that can hide or reorder text on a
// terminal (see unsafeRune) and invalid UTF-8 written as Go escapes, for
// messages that may hold a string from a tool file or a file name.
func Printable(s string) string { return escapeText(s, unsafeRune) }

// unsafeOrNewline is unsafeRune for text that must stay on one line.
func unsafeOrNewline(r rune) bool { return r == '\n' || unsafeRune(r) }

// commentText makes s fit to be wrapped into comment lines: line breaks
// (\r\n, \r) become \n, and what unsafeRune reports is escaped.
func commentText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return escapeText(s, unsafeRune)
}

// commentLine is one line of commentText as jennifer's Comment takes it: a
// whole // comment, which jennifer writes as it is (a line starting with
// "//" or "/*" would be written without the "// " in front).
func commentLine(line string) string {
	if strings.HasPrefix(line, "+build") {
		line = `\` + line
	}
	return "// " + line
}

// checkText refuses, in a name or description, the runes unsafeRune
// reports other than the carriage return (multi-line descriptions may end
// their lines with \r\n). what names the text in the message. (The JSON
// parser has refused invalid UTF-8 already.)
func checkText(what, s string) error {
	for i, r := range s {
		if r != '\r' && unsafeRune(r) {
			return fmt.Errorf("%s %s holds %U (%s) at byte %d; names and descriptions may not hold control, byte order mark, bidi or line separator characters", what, quoteShort(s), r, runeClass(r), i)
		}
	}
	return nil
}

func runeClass(r rune) string {
	switch {
	case r == '\ufeff':
		return "a byte order mark"
	case r == '\u2028' || r == '\u2029':
		return "a line separator"
	case r >= '\u202a':
		return "a bidi control"
	}
	return "a control character"
}

// quoteShort quotes s for a message, cut to its first 64 bytes.
func quoteShort(s string) string {
	if len(s) <= 64 {
		return strconv.Quote(s)
	}
	cut := 64
	for !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}

// ---- helpers ----

// doc writes a doc comment, wrapped, one // line a line.
func (e *emitter) doc(text string) {
	for _, c := range comments(text) {
		e.f.Add(c)
	}
}

// comments renders text as wrapped // comment lines, inert whatever text
// holds (see commentText and commentLine).
func comments(text string) []jen.Code {
	if text == "" {
		return nil
	}
	var out []jen.Code
	for _, line := range strings.Split(wrap(commentText(text)), "\n") {
		out = append(out, jen.Comment(commentLine(line)))
	}
	return out
}

// wrap folds a doc comment at about 76 columns, keeping paragraphs.
func wrap(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/64)
	for i, para := range strings.Split(strings.TrimSpace(s), "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		// After collapseBlanks the words are one space apart: a line is
		// written word by word, n its length so far.
		n := 0
		for w := range strings.SplitSeq(collapseBlanks(strings.TrimSpace(para)), " ") {
			switch {
			case n == 0:
			case n+1+len(w) > 76:
				b.WriteByte('\n')
				n = 0
			default:
				b.WriteByte(' ')
				n++
			}
			b.WriteString(w)
			n += len(w)
		}
	}
	return b.String()
}

// collapseBlanks replaces each run of spaces and tabs in s with one space
// (the regexp [ \t]+ did, at a tenth of the cost; both are ASCII, so a
// byte loop cannot split a rune).
func collapseBlanks(s string) string {
	if !strings.Contains(s, "  ") && !strings.ContainsRune(s, '\t') {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	blank := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' {
			if !blank {
				b.WriteByte(' ')
			}
			blank = true
			continue
		}
		blank = false
		b.WriteByte(c)
	}
	return b.String()
}

// goString is a string literal, raw (backquoted) when that is possible, so
// patterns and schemas read as written; quoted (every unsafeRune escaped)
// otherwise. A raw literal stays on one line: go generate reads directives
// line by line, inside raw strings too.
func goString(s string) jen.Code {
	if !strings.ContainsAny(s, "`\r\n") && !strings.ContainsFunc(s, unsafeRune) && strconv.CanBackquote(s) {
		return jen.Id("`" + s + "`")
	}
	return jen.Lit(s)
}
