package main

import (
	"fmt"
	"io"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/catalog"
)

// writeCatalog renders the catalog of set's tools for generate (writing it, as the Go
// files are written: only when it changed, with mode 0644) or check
// (comparing it); changed reports a catalog generate wrote or check found
// out of date.
func writeCatalog(rep *reporter, stdout io.Writer, path string, set *gen.Set) (changed bool, code int) {
	data, err := catalog.Render(set, path)
	if err != nil {
		return false, rep.loadErrors(err)
	}
	if rep.cmd == "check" {
		diff, err := catalog.Check(path, data)
		if err != nil {
			rep.failed(err)
			return false, exitFailure
		}
		switch {
		case diff == "":
			return false, exitOK
		case rep.format == "github":
			fmt.Fprintln(stdout, annotation("error", path, 0, 0, "toolgate check", path+" is stale; run toolgate generate --catalog "+path))
		default:
			fmt.Fprintf(stdout, "%s: stale\n%s", path, diff)
		}
		return true, exitOK
	}
	written, err := gen.WriteChanged(path, data)
	if err != nil {
		rep.failed(err)
		return false, exitFailure
	}
	if written {
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	return written, exitOK
}
