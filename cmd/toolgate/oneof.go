package main

import (
	"fmt"
	"io"

	"github.com/toolgate/toolgate/gen"
)

// oneOfWarnings prints, for generate and check, every oneOf whose branches
// the generator proves can match one value (gen.OneOfOverlaps), naming both
// branches and the value. With --strict-oneof they are errors (exit 3).
func oneOfWarnings(cmd string, tools []*gen.Tool, opts gen.Options, strict bool, wr *warner, stderr io.Writer) int {
	n := 0
	for _, t := range tools {
		for _, o := range gen.OneOfOverlaps(t, opts) {
			n++
			if strict {
				fmt.Fprintf(stderr, "%v\n", o)
			} else {
				wr.warn(o.File, o.Pointer, "oneOf", o.Message())
			}
		}
	}
	if strict && n > 0 {
		fmt.Fprintf(stderr, "toolgate %s: %d ambiguous oneOf (--strict-oneof)\n", cmd, n)
		return exitInvalid
	}
	return exitOK
}
