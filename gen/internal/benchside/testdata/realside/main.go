// Realside prints the side-by-side decode table of `make bench-real`: the
// toolgate decoder of each tool of the real set (gen/internal/realset;
// package real is generated from it by the Makefile, with realprep's index
// of its tools and calls) on the set's valid call,
// against encoding/json.Valid, the strict reader's skip of the same bytes
// and santhosh-tekuri/jsonschema validation of the decoded value (the
// first pass of the two-pass alternative: there is no hand-written struct
// for these tools). Run it from the repository root.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/toolgate/toolgate/gen/internal/benchside"
	"github.com/toolgate/toolgate/gen/internal/benchside/testdata/real"
)

func main() {
	rounds := flag.Int("rounds", 10, "interleaved rounds")
	batch := flag.Duration("batch", 20*time.Millisecond, "CPU time per contender per round")
	flag.Parse()
	cases, err := buildCases()
	if err == nil {
		err = benchside.Report(os.Stdout, cases, benchside.Options{Rounds: *rounds, Batch: *batch}, "A ratio is toolgate's time over the column's, on one valid call per tool.")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "realside:", err)
		os.Exit(1)
	}
	fmt.Println()
	fmt.Println("| payload | schema from | call |")
	fmt.Println("|---|---|---|")
	for _, t := range real.Tools {
		fmt.Printf("| %s | %s | %s |\n", t.Name, t.Source, t.CallSource)
	}
}

func buildCases() ([]benchside.Case, error) {
	var cases []benchside.Case
	for _, t := range real.Tools {
		s, err := benchside.Compile(t.Name, t.Schema)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		cases = append(cases, benchside.Case{Name: t.Name, Data: []byte(t.Call), Accept: true, Contenders: []benchside.Contender{
			{Name: "toolgate", Run: t.Decode},
			benchside.JSONValid,
			benchside.ReaderSkip,
			{Name: "jsonschema", Run: func(b []byte) error { return benchside.Validate(s, b) }},
		}})
	}
	return cases, nil
}
