package gen

import (
	"errors"
	"strings"

	"github.com/toolgate/toolgate/runtime/provider"
)

// Error is a generation error: what is wrong, where (the file and a JSON
// pointer into it) and, for schema problems, the keyword involved.
type Error struct {
	File    string
	Pointer string
	Keyword string
	Message string
	// Line and Column are the 1-based position in File of the value at
	// Pointer (of the byte at fault, for invalid JSON), in Unicode code
	// points; 0 when the error has no place in a file.
	Line, Column int
	// Provider is set when the error is a chosen provider that cannot
	// carry the tool.
	Provider provider.Provider
}

// Error writes the file, pointer and keyword on one line, and every part
// with unsafeRune escaped: a file name or a member name in a pointer can
// hold anything.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(escapeText(e.File, unsafeOrNewline))
	if e.Pointer != "" {
		b.WriteString("#")
		b.WriteString(escapeText(e.Pointer, unsafeOrNewline))
	}
	b.WriteString(": ")
	if e.Keyword != "" {
		b.WriteString(escapeText(e.Keyword, unsafeOrNewline))
		b.WriteString(": ")
	}
	b.WriteString(escapeText(e.Message, unsafeRune))
	return b.String()
}

// ErrorList is every generation error found in one run.
type ErrorList []error

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap lets errors.As find the individual errors.
func (l ErrorList) Unwrap() []error { return l }

// Flat lists the errors of l, with nested lists flattened, in order.
func (l ErrorList) Flat() []error {
	var out []error
	for _, e := range l {
		var inner ErrorList
		if errors.As(e, &inner) {
			out = append(out, inner.Flat()...)
			continue
		}
		out = append(out, e)
	}
	return out
}
