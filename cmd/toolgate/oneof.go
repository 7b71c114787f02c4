package main

import (
	"fmt"

	"github.com/toolgate/toolgate/gen"
)

// oneOfWarnings prints, for generate and check, every oneOf whose branches
// the generator proves can match one value (gen.OneOfOverlaps), naming both
// branches and the value. With --strict-oneof they are errors (exit 3).
func oneOfWarnings(tools []*gen.Tool, opts gen.Options, strict bool, rep *reporter) int {
	n := 0
	for _, t := range tools {
		for _, o := range gen.OneOfOverlaps(t, opts) {
			n++
			if strict {
				p := problem{File: o.File, Pointer: o.Pointer, Keyword: "oneOf", Message: o.Message(), Severity: "error"}
				rep.locate(&p)
				rep.report(p, fmt.Sprint(o))
			} else {
				rep.warn(problem{File: o.File, Pointer: o.Pointer, Keyword: "oneOf", Message: o.Message()})
			}
		}
	}
	if strict && n > 0 {
		fmt.Fprintf(rep.stderr, "toolgate %s: %d ambiguous oneOf (--strict-oneof)\n", rep.cmd, n)
		return exitInvalid
	}
	return exitOK
}
