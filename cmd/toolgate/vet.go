package main

import (
	"cmp"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/toolgate/toolgate/gen/vet"
)

// runVet runs the analyzer of package gen/vet on the packages the
// arguments name (default ./...), test files included, and prints each
// finding as file:line:column: [check] message.
func runVet(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("toolgate vet", pflag.ContinueOnError)
	setUsage(fs, "toolgate vet [packages]",
		"Reports the ways a tool call can go around the gate in the packages named\n(default ./...): tool-call arguments decoded outside it, executors called\naround it, hand-edited generated code, policies that never read the\nprincipal. Prints each finding as file:line:column; exits 1 when there is\none.",
		"toolgate vet ./...")
	// vet prints nothing when it finds nothing; it takes -q as every
	// command does, so that a CI script can pass it to all of them.
	quietFlag(fs)
	if code, ok := parseArgs(fs, args, stdout, stderr); !ok {
		return code
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: true}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		fmt.Fprintf(stderr, "toolgate vet: %v\n", err)
		return exitFailure
	}
	failed := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			fmt.Fprintf(stderr, "toolgate vet: %v\n", e)
			failed = true
		}
	})
	if failed {
		return exitFailure
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{vet.Analyzer}, pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "toolgate vet: %v\n", err)
		return exitFailure
	}
	findings := vetFindings(graph)
	for _, f := range findings {
		fmt.Fprintln(stdout, f.text)
	}
	if len(findings) > 0 {
		return exitDrift
	}
	return exitOK
}

// A vetFinding is one diagnostic, placed and printed.
type vetFinding struct {
	file      string
	line, col int
	text      string
}

// vetFindings gathers the diagnostics of the root packages once each (a
// package and its test variant report the same ones), and the calls of an
// executor from a package that does not import the one binding it
// (vet.CrossPackage), in file order.
func vetFindings(graph *checker.Graph) []vetFinding {
	wd, _ := os.Getwd()
	seen := map[string]bool{}
	var out []vetFinding
	var results []*vet.Result
	type placed struct {
		d    analysis.Diagnostic
		fset *token.FileSet
	}
	var all []placed
	for _, act := range graph.Roots {
		for _, d := range act.Diagnostics {
			all = append(all, placed{d, act.Package.Fset})
		}
		if r, ok := act.Result.(*vet.Result); ok {
			results = append(results, r)
		}
	}
	if len(graph.Roots) > 0 {
		for _, d := range vet.CrossPackage(results) {
			all = append(all, placed{d, graph.Roots[0].Package.Fset})
		}
	}
	for _, p := range all {
		pos := p.fset.Position(p.d.Pos)
		file := pos.Filename
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
		text := fmt.Sprintf("%s:%d:%d: [%s] %s", file, pos.Line, pos.Column, p.d.Category, p.d.Message)
		if !seen[text] {
			seen[text] = true
			out = append(out, vetFinding{file, pos.Line, pos.Column, text})
		}
	}
	slices.SortFunc(out, func(a, b vetFinding) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col), cmp.Compare(a.text, b.text))
	})
	return out
}
