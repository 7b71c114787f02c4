package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/lint"
)

// problem is one error or warning of a command about the tool files, as
// --format json lists it. Line and Column are 1-based, 0 when the problem
// has no place in a file (an I/O error: File is then "" too).
type problem struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Pointer  string `json:"pointer"`
	Keyword  string `json:"keyword"`
	Message  string `json:"message"`
	Severity string `json:"severity"` // "error" or "warning"
}

// reporter reports the problems of generate, check, export, test (and the
// unloadable files of lint) in one format:
//
//   - human: one a line on stderr; a warning as lint prints a finding,
//     with the pointer after it:
//     schemas/a.json:4:7: warning default-invalid: the default … (at /parameters/properties/x/default)
//   - github: a workflow-command annotation a line on stdout;
//   - json: kept in problems, for the command's JSON document.
//
// The counts that end a run go to stderr in every format. The generator's
// warnings, the heuristic lint rules and the ambiguous oneOf all go through
// warn: one channel, each line locating what it is about.
type reporter struct {
	cmd            string
	format         string
	stdout, stderr io.Writer
	loc            lint.Locator
	warnings       int
	problems       []problem
}

// report prints or keeps p; human is its line in the human format.
func (r *reporter) report(p problem, human string) {
	switch r.format {
	case "json":
		r.problems = append(r.problems, p)
	case "github":
		fmt.Fprintln(r.stdout, annotation(p.Severity, p.File, p.Line, p.Column, p.Keyword, p.Message))
	default:
		fmt.Fprintln(r.stderr, gen.Printable(human))
	}
}

// locate fills in p's line and column from its pointer when it has none.
func (r *reporter) locate(p *problem) {
	if p.Line != 0 || p.File == "" {
		return
	}
	if pos, err := r.loc.Find(p.File, p.Pointer); err == nil {
		p.Line, p.Column = pos.Line, pos.Column
	}
}

// warn reports p, a warning whose Keyword is its kind (a lint rule ID or
// a keyword), located from its pointer when it has no line.
func (r *reporter) warn(p problem) {
	r.warnings++
	p.Severity = "warning"
	r.locate(&p)
	at := p.File
	if p.Line != 0 {
		at = fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
	}
	r.report(p, fmt.Sprintf("%s: warning %s: %s (at %s)", at, p.Keyword, p.Message, orRoot(p.Pointer)))
}

// generator reports a generation warning.
func (r *reporter) generator(w gen.Warning) {
	r.warn(problem{File: w.File, Pointer: w.Pointer, Keyword: w.Kind, Message: w.Message})
}

// finding reports a lint finding as a warning, at the place lint found it
// (the file is not read again to locate it).
func (r *reporter) finding(f lint.Finding) {
	r.warn(problem{File: f.File, Line: f.Pos.Line, Column: f.Pos.Column, Pointer: f.Pointer, Keyword: f.Rule, Message: f.Message})
}

// refused reports a lint finding as an error.
func (r *reporter) refused(f lint.Finding) {
	r.report(problem{File: f.File, Line: f.Pos.Line, Column: f.Pos.Column, Pointer: f.Pointer, Keyword: f.Rule, Message: f.Message, Severity: "error"}, refusal{f}.Error())
}

// failed reports an error that is not about a tool file's content (I/O).
func (r *reporter) failed(err error) {
	r.report(problem{Message: err.Error(), Severity: "error"}, fmt.Sprintf("toolgate %s: %v", r.cmd, err))
}

// summary ends the warnings with their count, when there are any.
func (r *reporter) summary() {
	if r.warnings > 0 {
		fmt.Fprintf(r.stderr, "toolgate %s: %d warning(s); the code is generated all the same (toolgate lint --fail-on warning fails on them)\n", r.cmd, r.warnings)
	}
}

// loadErrors reports generation errors, sorted by file and place, with
// the certain lint findings a run reports beside them (withRefusals), and
// picks the exit code: problems with the tool definitions are 3; anything
// else among them (I/O) makes it 4.
func (r *reporter) loadErrors(err error) int {
	var list gen.ErrorList
	if !errors.As(err, &list) {
		list = gen.ErrorList{err}
	}
	code := exitInvalid
	errs := list.Sorted()
	lintErrs := 0
	for _, e := range errs {
		var (
			ge *gen.Error
			rf refusal
			ce *lint.ConfigError
		)
		switch {
		case errors.As(e, &rf):
			lintErrs++
			r.refused(rf.f)
		case errors.As(e, &ge):
			// A *gen.Error escapes itself (its string is the human line).
			p := problem{File: ge.File, Line: ge.Line, Column: ge.Column, Pointer: ge.Pointer, Keyword: ge.Keyword, Message: ge.Message, Severity: "error"}
			if p.Pointer != "" {
				r.locate(&p)
			}
			r.report(p, ge.Error())
		case errors.As(e, &ce):
			r.report(problem{File: ce.File, Pointer: ce.Pointer, Message: ce.Message, Severity: "error"}, ce.Error())
		default:
			code = exitFailure
			r.failed(e)
		}
	}
	if code == exitInvalid {
		fmt.Fprintf(r.stderr, "toolgate %s: %d problem(s) in the tool definitions", r.cmd, len(errs))
		if lintErrs > 0 {
			fmt.Fprintf(r.stderr, ", %d of them lint error(s) (disable a rule with a reason: toolgate lint --help)", lintErrs)
		}
		fmt.Fprintln(r.stderr)
	}
	return code
}

// reportLoad is loadErrors for a command that reports in the human format.
func reportLoad(cmd string, err error, stderr io.Writer) int {
	return (&reporter{cmd: cmd, format: "human", stderr: stderr}).loadErrors(err)
}

// orRoot names the empty pointer.
func orRoot(ptr string) string {
	if ptr == "" {
		return "the document root"
	}
	return ptr
}

// noticeLine is a notice as generate and export print it on stderr: the
// command, then the place as a warning gives it (file:line:column, the
// pointer after the message).
func noticeLine(cmd string, loc *lint.Locator, n gen.Notice) string {
	at := n.File
	if pos, err := loc.Find(n.File, n.Pointer); err == nil && pos.Line > 0 {
		at = fmt.Sprintf("%s:%d:%d", n.File, pos.Line, pos.Column)
	}
	return gen.Printable(fmt.Sprintf("toolgate %s: notice: %s: tool %s is not exported to %s: %s (at %s)", cmd, at, n.Tool, n.Provider, n.Reason, orRoot(n.Pointer)))
}
