package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/toolgate/toolgate/gen"
)

// generateResult is what generate wrote or removed, or what check found
// out of date.
type generateResult struct {
	written, removed []string
	drift            []gen.Drift
}

// The documents of generate --format json and check --format json (see
// the package comment). Every list is present, empty when there is
// nothing in it; paths use forward slashes.
type (
	generateJSON struct {
		Command  string    `json:"command"`
		ExitCode int       `json:"exit_code"`
		Problems []problem `json:"problems"`
		Written  []string  `json:"written"`
		Removed  []string  `json:"removed"`
	}
	checkJSON struct {
		Command  string    `json:"command"`
		ExitCode int       `json:"exit_code"`
		Problems []problem `json:"problems"`
		Stale    []string  `json:"stale"`
		Missing  []string  `json:"missing"`
		Extra    []string  `json:"extra"`
	}
)

// writeGenerateJSON writes the JSON document of cmd, which ended with
// code, on w.
func writeGenerateJSON(w io.Writer, cmd string, code int, rep *reporter, res *generateResult, stderr io.Writer) {
	problems := slashed(rep.problems)
	var doc any
	if cmd == "check" {
		c := checkJSON{Command: cmd, ExitCode: code, Problems: problems, Stale: []string{}, Missing: []string{}, Extra: []string{}}
		for _, d := range res.drift {
			f := filepath.ToSlash(d.File)
			switch d.Problem {
			case "missing":
				c.Missing = append(c.Missing, f)
			case "extra":
				c.Extra = append(c.Extra, f)
			default:
				c.Stale = append(c.Stale, f)
			}
		}
		doc = c
	} else {
		doc = generateJSON{Command: cmd, ExitCode: code, Problems: problems, Written: slashedPaths(res.written), Removed: slashedPaths(res.removed)}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		fmt.Fprintf(stderr, "toolgate %s: %v\n", cmd, err)
	}
}

func slashed(ps []problem) []problem {
	out := make([]problem, len(ps))
	for i, p := range ps {
		p.File = filepath.ToSlash(p.File)
		out[i] = p
	}
	return out
}

func slashedPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.ToSlash(p)
	}
	return out
}
