package main

import (
	"fmt"
	"io"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/lint"
)

// warner prints the warnings of generate and check on stderr, one a line,
// the way lint prints a finding, with the pointer after it:
//
//	schemas/a.json:4:7: warning default-invalid: the default "dontcare" … (at /parameters/properties/x/default)
//
// The generator's warnings, the heuristic lint rules and the ambiguous
// oneOf all go through it: one channel, each line locating what it is
// about.
type warner struct {
	w   io.Writer
	loc lint.Locator
	n   int
}

// warn prints one warning of kind (a lint rule ID or a keyword) about the
// JSON at ptr in file.
func (wr *warner) warn(file, ptr, kind, msg string) {
	wr.n++
	at := file
	if pos, err := wr.loc.Find(file, ptr); err == nil {
		at += ":" + pos.String()
	}
	fmt.Fprintln(wr.w, gen.Printable(fmt.Sprintf("%s: warning %s: %s (at %s)", at, kind, msg, orRoot(ptr))))
}

// generator prints a generation warning.
func (wr *warner) generator(w gen.Warning) { wr.warn(w.File, w.Pointer, w.Kind, w.Message) }

// finding prints a lint finding as a warning.
func (wr *warner) finding(f lint.Finding) { wr.warn(f.File, f.Pointer, f.Rule, f.Message) }

// summary ends the warnings of cmd with their count, when there are any.
func (wr *warner) summary(cmd string) {
	if wr.n > 0 {
		fmt.Fprintf(wr.w, "toolgate %s: %d warning(s); the code is generated all the same (toolgate lint --fail-on warning fails on them)\n", cmd, wr.n)
	}
}

// orRoot names the empty pointer.
func orRoot(ptr string) string {
	if ptr == "" {
		return "the document root"
	}
	return ptr
}
