// Toolgate-vet is toolgate's analyzer (package gen/vet) as a standalone
// checker, for go vet:
//
//	go install github.com/toolgate/toolgate/cmd/toolgate-vet
//	go vet -vettool=$(which toolgate-vet) ./...
//
// or on its own: toolgate-vet ./... (the flags of
// golang.org/x/tools/go/analysis/singlechecker: -json, -fix, -c=N, …).
// It reports tool-call arguments decoded outside the gate, executors called
// around it, hand-edited generated code and policies that never read the
// principal, each as file:line:column, and exits non-zero when it reports.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/toolgate/toolgate/gen/vet"
)

func main() { singlechecker.Main(vet.Analyzer) }
