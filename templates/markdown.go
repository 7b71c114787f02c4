package templates

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The catalog's escapers. Every string from a tool file (file names
// included) reaches the catalog through one of them, so that on a page
// rendered as GitHub Flavored Markdown it stays inside its line and its
// table cell and is shown as written: it cannot start a heading, a list,
// a quote, a code block or a table row, nor open a link, an image, HTML,
// emphasis, math or a code span. A control character, a line separator, a
// bidi control or the BOM, which would hide or reorder what is shown, is
// written as a Go escape (\u202e), and a byte that is not UTF-8 as \xff;
// a line break or tab, as a space.

// text renders s as Markdown text, for a paragraph or a table cell.
func text(s string) string {
	s = strings.TrimLeft(visible(s), " ")
	number := listNumber(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '&':
			b.WriteString("&amp;")
		case c == '<':
			b.WriteString("&lt;")
		case c == '>':
			b.WriteString("&gt;")
		case c == '_' && i > 0 && i+1 < len(s) && isAlnum(s[i-1]) && isAlnum(s[i+1]):
			b.WriteByte(c) // inside a word: never emphasis
		case strings.IndexByte("\\|`*_~[]$", c) >= 0, i == 0 && strings.IndexByte("#-+=", c) >= 0, i == number:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// listNumber returns the index of the '.' or ')' that would make s start
// an ordered list ("1. ", "12) "), or -1.
func listNumber(s string) int {
	i := 0
	for i < len(s) && i < 10 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		return i
	}
	return -1
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// span renders s as a code span outside a table, exactly (backticks
// included), or nothing for "".
func span(s string) string { return codeSpan(visible(s)) }

// code renders s as a code span in a table cell, exactly: a pipe is
// escaped, as a table cell needs even inside a code span.
func code(s string) string { return codeSpan(strings.ReplaceAll(visible(s), "|", `\|`)) }

func codeSpan(s string) string {
	if s == "" {
		return ""
	}
	// A run of backticks inside closes a span opened by a run as long:
	// use a longer one (CommonMark code spans). Padding spaces, one each
	// side, are not part of the content; they also keep a leading or
	// trailing backtick off the fence and the content's own outer spaces.
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.Contains(s, "`") || s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "" {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// visible writes a line break or tab as a space, and every other
// character that is not shown as itself as an escape: a control
// character, U+2028, U+2029, a bidi control or the BOM as \uXXXX, a byte
// that is not UTF-8 as \xXX.
func visible(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			b.WriteByte(' ')
			size = 2
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case hidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// hidden reports whether r is a control character or a character that
// changes how the text around it is shown.
func hidden(r rune) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}
