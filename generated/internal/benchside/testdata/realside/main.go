// Realside prints the side-by-side decode table of `make bench-real`: the
// toolgate decoder of each tool of the real set (package realset; package
// real is generated from it by the Makefile) on the set's valid call,
// against encoding/json.Valid, the strict reader's skip of the same bytes
// and santhosh-tekuri/jsonschema validation of the decoded value (the
// first pass of the two-pass alternative: there is no hand-written struct
// for these tools). Run it from the repository root.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/toolgate/toolgate/generated/internal/benchside"
	"github.com/toolgate/toolgate/generated/internal/benchside/realset"
	"github.com/toolgate/toolgate/generated/internal/benchside/testdata/real"
)

func main() {
	corpora := flag.String("corpora", "../shared/corpora", "the shared corpora")
	rounds := flag.Int("rounds", 10, "interleaved rounds")
	batch := flag.Duration("batch", 20*time.Millisecond, "CPU time per contender per round")
	flag.Parse()
	set, err := realset.Load(*corpora)
	var cases []benchside.Case
	if err == nil {
		cases, err = buildCases(set)
	}
	if err == nil {
		err = benchside.Check(cases)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "realside:", err)
		os.Exit(1)
	}
	results := benchside.Run(cases, benchside.Options{Rounds: *rounds, Batch: *batch})
	fmt.Printf("Medians of %d interleaved rounds of per-round CPU-time ratios; %s, %s/%s, %d CPUs (GOMAXPROCS %d).\n",
		*rounds, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	fmt.Println("A ratio is toolgate's time over the column's, on one valid call per tool.")
	fmt.Println()
	benchside.Print(os.Stdout, results, cases)
	fmt.Println()
	fmt.Println("| payload | schema from | call |")
	fmt.Println("|---|---|---|")
	for _, t := range set {
		fmt.Printf("| %s | %s | %s |\n", t.Name, t.Source, t.CallSource)
	}
}

func buildCases(set []realset.Tool) ([]benchside.Case, error) {
	var cases []benchside.Case
	for _, t := range set {
		decode, ok := real.Decoders[t.Name]
		if !ok {
			return nil, fmt.Errorf("%s: not in package real; run make bench-real", t.Name)
		}
		s, err := benchside.Compile(t.Name, real.Schemas[t.Name])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		cases = append(cases, benchside.Case{Name: t.Name, Data: t.Call, Accept: true, Contenders: []benchside.Contender{
			{Name: "toolgate", Run: decode},
			benchside.JSONValid,
			benchside.ReaderSkip,
			{Name: "jsonschema", Run: func(b []byte) error { return benchside.Validate(s, b) }},
		}})
	}
	return cases, nil
}
