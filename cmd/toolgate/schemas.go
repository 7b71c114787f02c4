package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/gen"
)

// schemasHint says what --schemas takes, after a path that names no tool
// file.
const schemasHint = "--schemas names a folder of *.json tool files or a file; default ./schemas"

// checkSchemas checks the tool-file paths of cmd before anything is loaded:
// a path that does not exist, or (when needTools is set) paths that hold no
// tool file at all, is a usage error (exit 2) that says what was expected
// and where, in every command alike. hint says what the paths are.
func checkSchemas(cmd string, paths []string, needTools bool, hint string, stderr io.Writer) int {
	files := 0
	for _, p := range paths {
		st, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stderr, "toolgate %s: %s does not exist (%s)\n", cmd, shownPath(p), hint)
			return exitUsage
		}
		if err != nil {
			fmt.Fprintf(stderr, "toolgate %s: %s\n", cmd, gen.Printable(err.Error()))
			return exitFailure
		}
		if !st.IsDir() {
			files++
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			fmt.Fprintf(stderr, "toolgate %s: %s\n", cmd, gen.Printable(err.Error()))
			return exitFailure
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
				files++
			}
		}
	}
	if needTools && files == 0 {
		shown := make([]string, len(paths))
		for i, p := range paths {
			shown[i] = shownPath(p)
		}
		fmt.Fprintf(stderr, "toolgate %s: no tool files in %s (%s)\n", cmd, strings.Join(shown, ", "), hint)
		return exitUsage
	}
	return exitOK
}

// shownPath is p as a message shows it: escaped, and a relative path that
// does not start with a dot written ./p, so that it reads as a path.
func shownPath(p string) string {
	if !filepath.IsAbs(p) && !strings.HasPrefix(p, ".") {
		p = "." + string(filepath.Separator) + p
	}
	return gen.Printable(p)
}
