package gen

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
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

// Error writes the error on one line, with every part escaped
// (unsafeRune): a file name or a member name in a pointer can hold
// anything. An error with a place in its file reads as compilers and
// linters write one, "file:line:column: keyword: message (at POINTER)";
// one without reads "file#POINTER: keyword: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(escapeText(e.File, unsafeOrNewline))
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Column))
	} else if e.Pointer != "" {
		b.WriteString("#")
		b.WriteString(escapeText(e.Pointer, unsafeOrNewline))
	}
	b.WriteString(": ")
	if e.Keyword != "" {
		b.WriteString(escapeText(e.Keyword, unsafeOrNewline))
		b.WriteString(": ")
	}
	b.WriteString(escapeText(e.Message, unsafeRune))
	if e.Line > 0 && e.Pointer != "" {
		b.WriteString(" (at ")
		b.WriteString(escapeText(e.Pointer, unsafeOrNewline))
		b.WriteString(")")
	}
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

// Sorted returns the errors of l, flattened, in file order, then by
// place in the file (line, column; an error without a place first), then
// by message: the order a reader fixes them in, whatever order the stages
// and the workers found them in. An error is placed by its Place method
// (an *Error's, or another error's, such as the CLI's lint findings); one
// without sorts by its message alone, before those of the files.
func (l ErrorList) Sorted() ErrorList {
	// Each error's place and message are read once, not at every
	// comparison.
	type keyed struct {
		err          error
		file, msg    string
		line, column int
	}
	flat := l.Flat()
	if len(flat) == 0 {
		return nil
	}
	keys := make([]keyed, len(flat))
	for i, e := range flat {
		keys[i].err, keys[i].msg = e, e.Error()
		keys[i].file, keys[i].line, keys[i].column = place(e)
	}
	slices.SortStableFunc(keys, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.column, b.column), cmp.Compare(a.msg, b.msg))
	})
	out := make(ErrorList, len(keys))
	for i, k := range keys {
		out[i] = k.err
	}
	return out
}

// Place returns where e is: its file, and its line and column (0 when it
// has no place in the file).
func (e *Error) Place() (file string, line, column int) { return e.File, e.Line, e.Column }

// place is where Sorted puts err.
func place(err error) (file string, line, column int) {
	var p interface {
		Place() (string, int, int)
	}
	if errors.As(err, &p) {
		return p.Place()
	}
	return "", 0, 0
}
