// Realprep is the first step of `make bench-real`: it writes the tool file
// of each tool of the real set (package realset, read from -corpora) into
// -tools, for toolgate to generate package real from, and writes into
// -pkg, that package's folder, real_tools.go: each tool's name, decoder,
// effective schema, valid call and where they come from, in the set's
// order, which realside measures. Run it from the repository root.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/gen/internal/realset"
)

func main() {
	corpora := flag.String("corpora", "../shared/corpora", "the shared corpora")
	tools := flag.String("tools", "", "the folder to write the tool files into")
	pkg := flag.String("pkg", "gen/internal/benchside/testdata/real", "the folder of the generated package")
	flag.Parse()
	if err := run(*corpora, *tools, *pkg); err != nil {
		fmt.Fprintln(os.Stderr, "realprep:", err)
		os.Exit(1)
	}
}

func run(corpora, tools, pkg string) error {
	set, err := realset.Load(corpora)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(`// Written by realprep for make bench-real (not by toolgate, not committed).

package real

// A Tool is one tool of the real set: its decoder, effective schema and
// valid call, and where the schema and the call come from.
type Tool struct {
	Name, Source, CallSource, Call, Schema string
	Decode                                 func([]byte) error
}

// Tools are the real set's tools, in its order.
var Tools = []Tool{
`)
	for _, t := range set {
		file, err := t.File()
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tools, t.Name+".json"), file, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&b, "{Name: %sToolName, Source: %q, CallSource: %q, Call: %q, Schema: %sSchema, Decode: func(b []byte) error { _, err := Decode%sArgs(b); return err }},\n",
			t.GoName, t.Source, t.CallSource, t.Call, t.GoName, t.GoName)
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(pkg, "real_tools.go"), src, 0o644)
}
