package gen_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
	"github.com/toolgate/toolgate/gen/internal/realset"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// bfclPackageSize bounds the tools of one generated package, and with it
// the compiler's memory (about 1.7 MiB per tool).
const bfclPackageSize = 400

// bfclTool is one distinct function that a BFCL ground-truth call calls.
type bfclTool struct {
	name string
	file []byte // its tool file (realset.BFCLToolFile)
	// pkg and goName place its generated code: Decode<goName>Args and
	// <goName>Schema in package pkg; pkg is "" when it did not generate.
	pkg, goName string
}

// bfclInput is one input of the round trip: a ground-truth call or one
// mutation of it.
type bfclInput struct {
	tool  int    // index of the tool called
	call  string // the BFCL entry
	what  string // "the ground truth", or the mutation
	input []byte
}

// TestBFCLRoundTrip generates every distinct function that a BFCL
// ground-truth call calls (realset.BFCLCalls), as it is, into packages of
// one temporary module (the n-th function of a generated file name in the
// n-th package that has room), and drives every call and mutations of it
// (each required member dropped, each member given a value of another
// JSON type, each enum member given a value outside its enum, an unknown
// member added) through the generated decoder, with a driver program the
// test writes. The decoder must agree with santhosh-tekuri/jsonschema on
// the effective schema the package embeds (except where the exact value
// keeps a rule its Go value breaks: contract.RepresentationOnly), and every
// value it accepts must encode (MarshalJSON) to the same JSON value as the
// input: numbers by value, members in any order (jsonval.Equal). A
// function that does not generate fails the test unless bfclUpstream
// names it.
func TestBFCLRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the BFCL functions that have ground-truth calls; skipped with -short")
	}
	root := sharedDir(t, "BFCL round trip", "corpora/bfcl")
	calls, err := realset.BFCLCalls(filepath.Dir(root))
	if err != nil {
		t.Fatal(err)
	}
	var tools []bfclTool
	index := map[string]int{}
	var inputs []bfclInput
	for _, c := range calls {
		i, ok := index[string(c.Tool)]
		if !ok {
			i = len(tools)
			index[string(c.Tool)] = i
			tools = append(tools, bfclTool{name: c.Function, file: c.Tool})
		}
		inputs = append(inputs, bfclMutations(t, i, c.ID, c.Tool, c.Args)...)
	}
	mod := gobuild.Module(t, "bfclrt")
	pkgs := bfclGenerate(t, root, mod, tools)
	var checked []bfclInput
	for _, in := range inputs {
		if tools[in.tool].pkg != "" {
			checked = append(checked, in)
		}
	}
	if len(checked) == 0 {
		t.Fatal("no BFCL ground-truth call reaches a generated function")
	}
	start := time.Now()
	verdicts, schemas := bfclRun(t, mod, pkgs, tools, checked)
	ran := time.Since(start)
	oracles := map[int]*jsonschema.Schema{}
	accepted, disagree, roundTrip := 0, 0, 0
	for i, in := range checked {
		tool, v := tools[in.tool], verdicts[i]
		at := fmt.Sprintf("tool %s (%s, %s): input %s", tool.name, in.call, in.what, in.input)
		o, ok := oracles[in.tool]
		if !ok {
			o = compileOracle(t, tool.name, schemas[in.tool])
			oracles[in.tool] = o
		}
		valid := oracleJudges(t, o, in.input)
		if v.Accepted != valid && !(valid && v.RepresentationOnly) {
			disagree++
			t.Errorf("%s: the decoder says %s, santhosh-tekuri/jsonschema says valid=%v on the effective schema %s", at, verdictText(v), valid, schemas[in.tool])
			continue
		}
		if !v.Accepted {
			continue
		}
		accepted++
		if v.Error != "" {
			roundTrip++
			t.Errorf("%s: accepted, but MarshalJSON fails: %s", at, v.Error)
			continue
		}
		a, errA := jsonval.Parse(in.input)
		b, errB := jsonval.Parse([]byte(v.Encoded))
		if errA != nil || errB != nil || !jsonval.Equal(a, b) {
			roundTrip++
			t.Errorf("%s: accepted, but re-encodes as %s (%v, %v)", at, v.Encoded, errA, errB)
		}
	}
	t.Logf("BFCL: %d ground-truth calls of %d distinct functions; %d inputs with the mutations, %d of them checked (their function generated), %d accepted; %d disagreements with the oracle, %d accepted values that do not re-encode to their input; the driver built and ran in %s",
		len(calls), len(tools), len(inputs), len(checked), accepted, disagree, roundTrip, ran.Round(time.Second))
}

func verdictText(v bfclVerdict) string {
	if v.Accepted {
		return "accepted"
	}
	return "refused: " + v.Error
}

// bfclGenerate generates each tool alone, to find those that do not
// generate and the file name each gets (which folds names that differ in
// case or punctuation), places the others in packages of at most
// bfclPackageSize tools where no two share a file name, and writes the
// packages into mod. It returns the packages' names and sets each
// generated tool's pkg and goName.
func bfclGenerate(t *testing.T, root, mod string, tools []bfclTool) []string {
	dir := t.TempDir()
	var upstream map[string]string // tool file → bfclUpstream key, read when needed
	type pkg struct {
		names map[string]bool
		tools []*gen.Tool
		index []int
	}
	var pkgs []*pkg
	for i, tool := range tools {
		path := filepath.Join(dir, fmt.Sprintf("f%04d.json", i))
		if err := os.WriteFile(path, tool.file, 0o644); err != nil {
			t.Fatal(err)
		}
		loaded, err := gen.Load(path)
		var files []gen.File
		if err == nil {
			files, err = gen.Generate(loaded, gen.Options{Package: "bfcl"})
		}
		if err != nil {
			if upstream == nil {
				upstream = map[string]string{}
				for _, fn := range bfclTools(t, root) {
					if key := fn.name + " (" + fn.source + ")"; bfclUpstream[key] != "" {
						upstream[string(fn.file)] = key
					}
				}
			}
			if key, ok := upstream[string(tool.file)]; ok {
				t.Logf("%s is not checked: it is refused as bfclUpstream says", key)
			} else {
				t.Errorf("tool %s is refused, so its calls are not checked: %v\n%s", tool.name, err, tool.file)
			}
			continue
		}
		name := ""
		for _, f := range files {
			if strings.HasSuffix(f.Name, "_tool.go") {
				name = f.Name
			}
		}
		var p *pkg
		for _, q := range pkgs {
			if !q.names[name] && len(q.tools) < bfclPackageSize {
				p = q
				break
			}
		}
		if p == nil {
			p = &pkg{names: map[string]bool{}}
			pkgs = append(pkgs, p)
		}
		p.names[name] = true
		p.tools = append(p.tools, loaded...)
		p.index = append(p.index, i)
	}
	var names []string
	for n, p := range pkgs {
		name := fmt.Sprintf("p%02d", n+1)
		files, err := gen.Generate(p.tools, gen.Options{Package: name, OutDir: filepath.Join(mod, name)})
		if err != nil {
			t.Errorf("package %s of %d tools does not generate, so their calls are not checked: %v", name, len(p.tools), err)
			continue
		}
		goNames := map[string]string{}
		for _, f := range files {
			if !strings.HasSuffix(f.Name, "_tool.go") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Data, parser.SkipObjectResolution)
			if err != nil {
				t.Fatalf("%s/%s: %v", name, f.Name, err)
			}
			for tool, goName := range toolGoNames(file) {
				goNames[tool] = goName
			}
		}
		for _, i := range p.index {
			tools[i].pkg, tools[i].goName = name, goNames[tools[i].name]
			if tools[i].goName == "" {
				t.Fatalf("package %s declares no tool %s", name, tools[i].name)
			}
		}
		if _, _, err := gen.Write(filepath.Join(mod, name), files); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}
