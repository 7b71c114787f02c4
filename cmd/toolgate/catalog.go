package main

import (
	"fmt"
	"io"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/catalog"
)

// writeCatalog renders the catalog for generate (writing it, as the Go
// files are written: only when it changed, with mode 0644) or check
// (comparing it); stale reports a check that found it out of date.
func writeCatalog(cmd, path string, tools []*gen.Tool, opts gen.Options, stdout, stderr io.Writer) (stale bool, code int) {
	data, err := catalog.Render(tools, opts, path)
	if err != nil {
		return false, reportLoad(cmd, err, stderr)
	}
	if cmd == "check" {
		diff, err := catalog.Check(path, data)
		if err != nil {
			fmt.Fprintf(stderr, "toolgate check: %v\n", err)
			return false, exitFailure
		}
		if diff != "" {
			fmt.Fprintf(stdout, "%s: stale\n%s", path, diff)
			return true, exitOK
		}
		return false, exitOK
	}
	written, err := gen.WriteChanged(path, data)
	if err != nil {
		fmt.Fprintf(stderr, "toolgate generate: %v\n", err)
		return false, exitFailure
	}
	if written {
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	return false, exitOK
}
