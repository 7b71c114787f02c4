// Realprep is the first step of `make bench-real`: it writes the tool file
// of each tool of the real set (package realset, read from -corpora) into
// -tools, for toolgate to generate package real from, and writes into
// -pkg, that package's folder, real_tools.go: the decoder and effective
// schema of each tool by tool name, which realside measures. Run it from
// the repository root.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/generated/internal/benchside/realset"
)

func main() {
	corpora := flag.String("corpora", "../shared/corpora", "the shared corpora")
	tools := flag.String("tools", "", "the folder to write the tool files into")
	pkg := flag.String("pkg", "generated/internal/benchside/testdata/real", "the folder of the generated package")
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
	b.WriteString("// Written by realprep for make bench-real (not by toolgate, not committed).\n\npackage real\n\n")
	b.WriteString("// Decoders are the decoders of the real set's tools, by tool name.\nvar Decoders = map[string]func([]byte) error{\n")
	for _, t := range set {
		file, err := t.File()
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tools, t.Name+".json"), file, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&b, "%sToolName: func(b []byte) error { _, err := Decode%sArgs(b); return err },\n", t.GoName, t.GoName)
	}
	b.WriteString("}\n\n// Schemas are their effective schemas, by tool name.\nvar Schemas = map[string]string{\n")
	for _, t := range set {
		fmt.Fprintf(&b, "%sToolName: %sSchema,\n", t.GoName, t.GoName)
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
