package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/catalog"
)

// writeCatalog renders the catalog for generate (writing it) or check
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
	tmp, err := os.CreateTemp(filepath.Dir(path), ".catalog-*")
	if err == nil {
		_, err = tmp.Write(data)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), path)
		}
		if err != nil {
			os.Remove(tmp.Name())
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "toolgate generate: %v\n", err)
		return false, exitFailure
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	return false, exitOK
}
