package gen

import (
	"errors"

	"github.com/toolgate/toolgate/gen/internal/jsonpos"
	"github.com/toolgate/toolgate/runtime/jsonread"
)

// located fills in the line and column of each *Error of err (an *Error
// or an ErrorList, nested or not) that has a file and no place yet, from
// its pointer, and returns err. Each file named is read and its positions
// mapped once, and only here: a run without errors never pays for it. An
// error whose file cannot be read or parsed again keeps no place.
func located(err error) error {
	if err == nil {
		return nil
	}
	maps := map[string]*jsonpos.Map{}
	var list ErrorList
	if !errors.As(err, &list) {
		list = ErrorList{err}
	}
	for _, e := range list.Flat() {
		var ge *Error
		if !errors.As(e, &ge) || ge.Line > 0 || ge.File == "" {
			continue
		}
		m, ok := maps[ge.File]
		if !ok {
			if data, rerr := ReadToolFile(ge.File); rerr == nil {
				m, _ = jsonpos.Read(data)
			}
			maps[ge.File] = m
		}
		if m != nil {
			p := m.Find(ge.Pointer)
			ge.Line, ge.Column = p.Line, p.Column
		}
	}
	return err
}

// placed is l with every error placed (located), flattened and sorted: how
// the exported functions return a list of problems.
func (l ErrorList) placed() ErrorList {
	located(l)
	return l.Sorted()
}

// syntaxError is the error of a tool file that is not JSON, placed at the
// byte at fault.
func syntaxError(path string, data []byte, err error) *Error {
	var se *jsonread.SyntaxError
	if !errors.As(err, &se) || se.Offset < 0 {
		return &Error{File: path, Message: err.Error()}
	}
	p := jsonpos.At(data, se.Offset)
	return &Error{File: path, Message: "invalid JSON: " + se.Reason, Line: p.Line, Column: p.Column}
}
