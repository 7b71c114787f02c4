// Command synthwrite writes synthetic tool files (package synth) into a
// folder, to measure toolgate generate and check on them:
//
//	go run ./gen/internal/synth/synthwrite -n 1000 -seed 12 /tmp/synth
//	toolgate generate --schemas /tmp/synth --out /tmp/synthpkg --package tools
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/toolgate/toolgate/gen/internal/synth"
)

func main() {
	n := flag.Int("n", 1000, "the number of tools")
	seed := flag.Uint64("seed", 12, "the seed")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: synthwrite [-n tools] [-seed seed] folder")
		os.Exit(2)
	}
	if err := os.MkdirAll(flag.Arg(0), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := synth.Write(flag.Arg(0), *seed, *n); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
