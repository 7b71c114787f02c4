package realset

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/toolgate/toolgate/gen/internal/suiteskip"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// corpora returns ../shared/corpora from the module root, or skips (fails
// under CI=true) when it is missing.
func corpora(t *testing.T) string {
	dir := filepath.Join("..", "..", "..", "..", "shared", "corpora")
	suiteskip.Missing(t, "real tool sets", dir)
	return dir
}

// TestLoad: the set is the same on every load, its names are distinct, and
// every call is valid by an independent validator (santhosh-tekuri/jsonschema,
// formats asserted) against the tool's schema.
func TestLoad(t *testing.T) {
	dir := corpora(t)
	set, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(bfclIDs) + len(mcpTools); len(set) != want {
		t.Fatalf("%d tools, want %d", len(set), want)
	}
	again, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	goNames := map[string]bool{}
	for i, tool := range set {
		if names[tool.Name] || goNames[tool.GoName] {
			t.Errorf("%s (%s) is named twice", tool.Name, tool.GoName)
		}
		names[tool.Name], goNames[tool.GoName] = true, true
		if !bytes.Equal(tool.Call, again[i].Call) || !bytes.Equal(tool.Parameters, again[i].Parameters) {
			t.Errorf("%s differs from one load to the next", tool.Name)
		}
		if err := validate(tool); err != nil {
			t.Errorf("%s: the call %s is not valid: %v", tool.Name, tool.Call, err)
		}
		if _, err := tool.File(); err != nil {
			t.Errorf("%s: %v", tool.Name, err)
		}
	}
}

// validate checks t.Call against t.Parameters with formats asserted.
func validate(t Tool) error {
	c := jsonschema.NewCompiler()
	c.AssertFormat = true
	if err := c.AddResource("realset:///"+t.Name, bytes.NewReader(t.Parameters)); err != nil {
		return err
	}
	s, err := c.Compile("realset:///" + t.Name)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(t.Call))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	return s.Validate(doc)
}

// TestGroundTruth: BFCL's lists of acceptable values become one value: the
// first one that is neither "" (may be omitted) nor null, inside objects
// and arrays too; an object that is not such a list is kept as it is.
func TestGroundTruth(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":[1,2],"b":["",true],"c":[""],"d":["",null]}`, `{"a":1,"b":true}`},
		{`{"o":[{"x":["",3],"y":[[1,2]]}]}`, `{"o":{"x":3,"y":[1,2]}}`},
		{`{"l":[[{"k":["v"]},{"k":["w"]}]]}`, `{"l":[{"k":"v"},{"k":"w"}]}`},
		{`{"p":[{"lat":1.5,"lon":2}]}`, `{"p":{"lat":1.5,"lon":2}}`},
	} {
		v, err := jsonval.Parse([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(groundTruth(v).Marshal()); got != tc.want {
			t.Errorf("groundTruth(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestRename(t *testing.T) {
	for _, tc := range []struct{ prefix, in, name, goName string }{
		{"bfcl", "uber.eat.order", "bfcl_uber_eat_order", "BfclUberEatOrder"},
		{"bfcl", "getDataForProfessional", "bfcl_getDataForProfessional", "BfclGetDataForProfessional"},
		{"vectra", "Summarize Detection", "vectra_Summarize_Detection", "VectraSummarizeDetection"},
	} {
		if name, goName := rename(tc.prefix, tc.in); name != tc.name || goName != tc.goName {
			t.Errorf("rename(%q, %q) = %q, %q; want %q, %q", tc.prefix, tc.in, name, goName, tc.name, tc.goName)
		}
	}
	if d := description("", "x"); !strings.HasPrefix(d, "A real tool (from x") {
		t.Errorf("description of none = %q", d)
	}
}

// TestBFCLCalls: every ground-truth call of the corpus is read (3,302, as
// the corpus README counts them), with the tool file of the function it
// names and its arguments as an object.
func TestBFCLCalls(t *testing.T) {
	calls, err := BFCLCalls(corpora(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 3302 {
		t.Errorf("%d ground-truth calls, want 3,302", len(calls))
	}
	for _, c := range calls {
		var tool struct{ Name string }
		if err := json.Unmarshal(c.Tool, &tool); err != nil || tool.Name != c.Function {
			t.Errorf("%s: the tool file of %s names %q (%v)", c.ID, c.Function, tool.Name, err)
		}
		if args, err := jsonval.Parse(c.Args); err != nil || args.Kind != jsonval.Object {
			t.Errorf("%s: the arguments %s are not an object (%v)", c.ID, c.Args, err)
		}
	}
}
