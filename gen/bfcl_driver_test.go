package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgate/toolgate/gen/internal/gobuild"
)

// bfclVerdict is what the test's driver program reports for an input.
type bfclVerdict struct {
	Accepted bool
	// Encoded is the accepted value's MarshalJSON.
	Encoded string
	// Error is the decoder's refusal, or the encoder's error.
	Error string
	// RepresentationOnly is contract.RepresentationOnly of a refusal.
	RepresentationOnly bool
}

// bfclRun writes and runs the driver program over the inputs; it returns
// the verdict on each input and the effective schema each tool's package
// embeds.
func bfclRun(t *testing.T, mod string, pkgs []string, tools []bfclTool, inputs []bfclInput) ([]bfclVerdict, map[int]string) {
	var src bytes.Buffer
	src.WriteString(bfclDriverHead)
	for _, p := range pkgs {
		fmt.Fprintf(&src, "\t%q\n", "bfclrt/"+p)
	}
	src.WriteString(")\n\nvar tools = map[int]tool{\n")
	for i, tool := range tools {
		if tool.pkg != "" {
			fmt.Fprintf(&src, "\t%d: entry(%s.Decode%sArgs, %[2]s.%[3]sSchema),\n", i, tool.pkg, tool.goName)
		}
	}
	src.WriteString("}\n")
	src.WriteString(bfclDriverBody)
	driver, err := format.Source(src.Bytes())
	if err != nil {
		t.Fatalf("the driver program: %v\n%s", err, src.Bytes())
	}
	gobuild.WriteFiles(t, mod, "driver", map[string][]byte{"main.go": driver})
	type line struct {
		Tool  int
		Input string
	}
	lines := make([]line, len(inputs))
	for i, in := range inputs {
		lines[i] = line{in.tool, string(in.input)}
	}
	data, err := json.Marshal(lines)
	if err != nil {
		t.Fatal(err)
	}
	in, out := filepath.Join(mod, "inputs.json"), filepath.Join(mod, "verdicts.json")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := gobuild.Go(t, mod, "run", "./driver", in, out); err != nil {
		t.Fatalf("the driver program fails: %v\n%s", err, msg)
	}
	data, err = os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Schemas  map[int]string
		Verdicts []bfclVerdict
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Verdicts) != len(inputs) {
		t.Fatalf("the driver program judged %d inputs of %d", len(res.Verdicts), len(inputs))
	}
	return res.Verdicts, res.Schemas
}

// bfclDriverHead is the driver program up to the imports of the generated
// packages: it reads the inputs (tool index and input) from the file named
// by its first argument and writes every tool's embedded schema and the
// verdict on each input to the second.
const bfclDriverHead = `// Written by TestBFCLRoundTrip.

package main

import (
	"encoding/json"
	"os"

	"github.com/toolgate/toolgate/runtime/contract"
	"github.com/toolgate/toolgate/runtime/jsonval"

`

// bfclDriverBody is the rest of the driver program, after its table of
// tools (index → entry(Decode<Go name>Args, <Go name>Schema)).
const bfclDriverBody = `
// tool is one generated tool: its decoder, which re-encodes what it
// accepts, and its effective schema.
type tool struct {
	decode func([]byte) (encoded []byte, decodeErr, encodeErr error)
	schema string
}

func entry[A json.Marshaler](decode func([]byte) (A, error), schema string) tool {
	return tool{func(b []byte) ([]byte, error, error) {
		v, err := decode(b)
		if err != nil {
			return nil, err, nil
		}
		enc, err := v.MarshalJSON()
		return enc, nil, err
	}, schema}
}

type verdict struct {
	Accepted           bool
	Encoded, Error     string
	RepresentationOnly bool
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var inputs []struct {
		Tool  int
		Input string
	}
	if err := json.Unmarshal(data, &inputs); err != nil {
		panic(err)
	}
	out := struct {
		Schemas  map[int]string
		Verdicts []verdict
	}{Schemas: map[int]string{}}
	for i, t := range tools {
		out.Schemas[i] = t.schema
	}
	for _, in := range inputs {
		t := tools[in.Tool]
		enc, decodeErr, encodeErr := t.decode([]byte(in.Input))
		v := verdict{Accepted: decodeErr == nil, Encoded: string(enc)}
		switch {
		case decodeErr != nil:
			v.Error = decodeErr.Error()
			eff, err := jsonval.Parse([]byte(t.schema))
			if err != nil {
				panic(err)
			}
			v.RepresentationOnly = contract.RepresentationOnly(eff, []byte(in.Input), decodeErr)
		case encodeErr != nil:
			v.Error = encodeErr.Error()
		}
		out.Verdicts = append(out.Verdicts, v)
	}
	data, err = json.Marshal(out)
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile(os.Args[2], data, 0o644); err != nil {
		panic(err)
	}
}
`
