package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/internal/suiteskip"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// generatedSchemas are the effective schemas of the demo tools.
var generatedSchemas = map[string]string{
	"cancel_order":            generated.CancelOrderSchema,
	"create_shipment":         generated.CreateShipmentSchema,
	"get_order_status":        generated.GetOrderStatusSchema,
	"refund_order":            generated.RefundOrderSchema,
	"schedule_order_dispatch": generated.ScheduleOrderDispatchSchema,
}

// oracleSchema compiles schema with santhosh-tekuri/jsonschema, formats asserted; the draft follows
// $schema (2020-12 when absent).
func oracleSchema(schema []byte) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.AssertFormat = true
	const url = "toolgate-instances:///schema.json"
	if err := c.AddResource(url, bytes.NewReader(schema)); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// oracleAccepts reports whether the oracle accepts the document data.
func oracleAccepts(t testing.TB, s *jsonschema.Schema, data []byte) bool {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("instance is not JSON: %v: %s", err, data)
	}
	return s.Validate(v) == nil
}

// agreeWithOracle checks the base is first and valid, and that every instance's Valid is the oracle's
// verdict; it returns the instances by name.
func agreeWithOracle(t *testing.T, schema []byte, ins []Instance) map[string]Instance {
	t.Helper()
	s, err := oracleSchema(schema)
	if err != nil {
		t.Fatalf("oracle cannot compile the schema: %v", err)
	}
	if len(ins) == 0 || ins[0].Name != "valid" || !ins[0].Valid {
		t.Fatalf("first instance is not the valid base: %+v", ins)
	}
	byName := map[string]Instance{}
	for _, in := range ins {
		if got := oracleAccepts(t, s, in.JSON); got != in.Valid {
			t.Errorf("%q: Valid=%v but the oracle says %v: %s", in.Name, in.Valid, got, in.JSON)
		}
		if _, dup := byName[in.Name]; dup {
			t.Errorf("two instances named %q", in.Name)
		}
		byName[in.Name] = in
	}
	return byName
}

// expect checks that each named instance exists with the given validity.
func expect(t *testing.T, byName map[string]Instance, want map[string]bool) {
	t.Helper()
	for name, valid := range want {
		in, ok := byName[name]
		if !ok {
			var names []string
			for n := range byName {
				names = append(names, n)
			}
			t.Errorf("no instance %q; have %q", name, names)
			continue
		}
		if in.Valid != valid {
			t.Errorf("%q: Valid=%v, want %v: %s", name, in.Valid, valid, in.JSON)
		}
	}
}

func TestInstancesGeneratedSchemas(t *testing.T) {
	want := map[string]map[string]bool{
		"refund_order": {
			"/amountInCents minimum-1":                     false,
			"/amountInCents maximum":                       true,
			"/amountInCents maximum+1":                     false,
			"/amountInCents minimum+1":                     true,
			"/amountInCents string for integer":            false,
			"/amountInCents fraction":                      false,
			"/amountInCents integer written as decimal":    true,
			"missing required orderId":                     false,
			"unknown member":                               false,
			`/reason enum "fraudulent"`:                    true,
			`/reason enum "duplicate" leading space`:       false,
			`/reason enum "fraudulent" other case`:         false,
			"/notifyCustomer object for boolean":           false,
			"/orderId pattern mismatch (trailing newline)": false,
			"/orderId null":                                false,
			"JSON string for object":                       false,
			"drop optional notifyCustomer":                 true,
		},
		"create_shipment": {
			"/address missing required line1":                false,
			"/line_items/0 unknown member":                   false,
			"/line_items maxItems":                           true,
			"/line_items maxItems+1":                         false,
			"/line_items minItems-1":                         false,
			"/insured_value multipleOf×7":                    true,
			"/insured_value multipleOf+half":                 false,
			"/insured_value exclusiveMinimum":                false,
			"/insured_value exclusiveMinimum+0.01":           true,
			"/address/line2 maxLength":                       true,
			"/address/line2 maxLength+1":                     false,
			"/address/line2 maxLength in 2-byte runes":       true,
			"/address/name minLength-1":                      false,
			"/address/country pattern mismatch (other case)": false,
			`/service enum "next_day"`:                       true,
		},
		"schedule_order_dispatch": {
			"/note null":                         true,
			"/dispatch_date format date invalid": false,
			`/currency enum "EUR"`:               true,
		},
		"cancel_order": {
			"/reason minLength-1":                 false,
			"/reason minLength-1 in 2-byte runes": false,
			"/reason minLength+1":                 true, "/restock string for boolean": false,
		},
		"get_order_status": {
			"/includeHistory other boolean": true,
		},
	}
	for name, schema := range generatedSchemas {
		t.Run(name, func(t *testing.T) {
			ins, err := Instances([]byte(schema), 1000)
			if err != nil {
				t.Fatal(err)
			}
			expect(t, agreeWithOracle(t, []byte(schema), ins), want[name])
			again, err := Instances([]byte(schema), 1000)
			if err != nil || !reflect.DeepEqual(ins, again) {
				t.Errorf("a second call differs (err %v)", err)
			}
			short, err := Instances([]byte(schema), 7)
			if err != nil || !reflect.DeepEqual(short, ins[:min(7, len(ins))]) {
				t.Errorf("Instances(schema, 7) is not the first 7 of the full matrix (err %v)", err)
			}
			t.Logf("%d instances", len(ins))
		})
	}
}

func TestInstancesKeywords(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   map[string]bool
	}{
		{"integer bounds", `{"type":"object","properties":{"n":{"type":"integer","minimum":-5,"maximum":5}},"required":["n"],"additionalProperties":false}`,
			map[string]bool{"/n minimum-1": false, "/n minimum": true, "/n maximum": true, "/n maximum+1": false, "/n fraction": false, "/n string for integer": false}},
		{"exclusive number bounds", `{"type":"object","properties":{"x":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}},"required":["x"]}`,
			map[string]bool{"/x exclusiveMinimum": false, "/x exclusiveMinimum-0.5": false, "/x exclusiveMaximum": false, "/x exclusiveMaximum+0.5": false}},
		{"multipleOf", `{"type":"object","properties":{"m":{"type":"number","multipleOf":0.1,"minimum":0.3}},"required":["m"]}`,
			map[string]bool{"/m multipleOf+half": false, "/m multipleOf×7": true, "/m multipleOf×1999": true, "/m minimum-0.1": false}},
		{"integer multipleOf fraction", `{"type":"object","properties":{"m":{"type":"integer","multipleOf":1.5}},"required":["m"]}`,
			map[string]bool{"valid": true}},
		{"string lengths", `{"type":"object","properties":{"s":{"type":"string","minLength":2,"maxLength":4}},"required":["s"]}`,
			map[string]bool{"/s minLength-1": false, "/s maxLength": true, "/s maxLength+1": false, "/s maxLength in 2-byte runes": true, "/s number for string": false}},
		{"pattern with lengths", `{"type":"object","properties":{"p":{"type":"string","pattern":"^(ab|cd)+-[0-9]{2,}$","minLength":9}},"required":["p"]}`,
			map[string]bool{"/p minLength+1": true, "/p minLength-1": false, "/p pattern mismatch (leading space)": false}},
		{"pattern classes", `{"type":"object","properties":{"p":{"type":"string","pattern":"^[^\"\\\\]\\d\\w\\s?x*\\.(?:y|z)$"}},"required":["p"]}`, nil},
		{"unanchored pattern", `{"type":"object","properties":{"p":{"type":"string","pattern":"[0-9]","minLength":3,"maxLength":3}},"required":["p"]}`,
			map[string]bool{"/p maxLength+1": false}},
		{"formats", `{"type":"object","properties":{` +
			`"a":{"type":"string","format":"date"},"b":{"type":"string","format":"date-time"},"c":{"type":"string","format":"time"},` +
			`"d":{"type":"string","format":"email"},"e":{"type":"string","format":"uuid"},"f":{"type":"string","format":"uri"},` +
			`"g":{"type":"string","format":"ipv4"},"h":{"type":"string","format":"ipv6"},"i":{"type":"string","format":"hostname"},` +
			`"j":{"type":"string","format":"duration"},"k":{"type":"string","format":"not-a-format"}},` +
			`"required":["a","b","c","d","e","f","g","h","i","j","k"]}`,
			map[string]bool{"/a format date invalid": false, "/b format date-time invalid": false, "/c format time invalid": false,
				"/d format email invalid": false, "/e format uuid invalid": false, "/f format uri invalid": false,
				"/g format ipv4 invalid": false, "/h format ipv6 invalid": false, "/i format hostname invalid": false,
				"/j format duration invalid": false}},
		{"unevaluatedProperties over branches", `{"type":"object","properties":{"pet":{"oneOf":[` +
			`{"type":"object","properties":{"kind":{"const":"cat"},"lives":{"type":"integer"}},"required":["kind"]},` +
			`{"type":"object","properties":{"kind":{"const":"dog"},"bark":{"type":"boolean"}},"required":["kind"]}],"unevaluatedProperties":false},` +
			`"more":{"allOf":[{"properties":{"a":{"type":"string"}}},{"properties":{"b":{"type":"string"}}}],"unevaluatedProperties":false}},"required":["pet","more"],"additionalProperties":false}`, nil},
		{"unevaluatedItems", `{"type":"object","properties":{"t":{"type":"array","prefixItems":[{"type":"string"}],"contains":{"type":"integer"},"unevaluatedItems":false}},"required":["t"]}`, nil},
		{"enum and const", `{"type":"object","properties":{"e":{"enum":["red","Green",3,null]},"c":{"const":"fixed"}},"required":["e","c"]}`,
			map[string]bool{`/e enum "Green"`: true, `/e enum "Green" other case`: false, `/e enum 3`: true, `/e null`: true, `/c const "fixed" leading space`: false, `/c const "fixed" other case`: false}},
		{"nullable", `{"type":"object","properties":{"n":{"type":["integer","null"],"minimum":3}},"required":["n"]}`,
			map[string]bool{"/n null": true, "/n minimum-1": false}},
		{"open and schema-valued additionalProperties", `{"type":"object","properties":{"o":{"type":"object","additionalProperties":true},"s":{"type":"object","additionalProperties":{"type":"integer"}}},"required":["o","s"]}`,
			map[string]bool{"/o unknown member": true, "/s unknown member": false, "/s/extra string for integer": false}},
		{"patternProperties", `{"type":"object","patternProperties":{"^x-[a-z]+$":{"type":"boolean"}},"additionalProperties":false}`,
			map[string]bool{"/x-a object for boolean": false, "unknown member": false}},
		{"arrays", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer","minimum":0,"maximum":9},"minItems":2,"maxItems":4,"uniqueItems":true}},"required":["a"]}`,
			map[string]bool{"/a minItems-1": false, "/a maxItems": true, "/a maxItems+1": false, "/a uniqueItems duplicate": false, "/a/0 minimum-1": false, "/a JSON string for array": false}},
		{"unique strings", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"minItems":3,"uniqueItems":true}},"required":["a"]}`,
			map[string]bool{"/a uniqueItems duplicate": false, "/a minItems-1": false}}, {"unique objects", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"k":{"enum":["p","q","r"]}},"required":["k"],"additionalProperties":false},"minItems":3,"uniqueItems":true}},"required":["a"]}`,
			map[string]bool{"/a minItems-1": false}},
		{"prefixItems", `{"type":"object","properties":{"t":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}},"required":["t"]}`,
			map[string]bool{"/t extra item": false, "/t/1 string for integer": false, "/t/0 number for string": false}},
		{"contains", `{"type":"object","properties":{"c":{"type":"array","items":{"type":"integer"},"contains":{"const":7},"maxContains":1}},"required":["c"]}`, nil},
		{"refs and recursion", `{"type":"object","properties":{"tree":{"$ref":"#/$defs/node"}},"required":["tree"],"$defs":{"node":{"type":"object","properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/node"}},"parent":{"$ref":"#/$defs/node"}},"required":["label"],"additionalProperties":false}}}`,
			map[string]bool{"/tree missing required label": false, "/tree unknown member": false}},
		{"ref with siblings", `{"type":"object","properties":{"r":{"$ref":"#/$defs/s","maxLength":3}},"required":["r"],"$defs":{"s":{"type":"string","minLength":2}}}`,
			map[string]bool{"/r maxLength+1": false, "/r minLength-1": false}},
		{"draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"p":{"$ref":"#/definitions/pair"},"q":{"$ref":"#/definitions/pair","maxItems":0}},"required":["p"],"definitions":{"pair":{"type":"array","items":[{"type":"string"},{"type":"boolean"}],"additionalItems":false}}}`,
			map[string]bool{"/p extra item": false, "/p/1 object for boolean": false}},
		{"allOf", `{"type":"object","allOf":[{"properties":{"a":{"type":"integer"}},"required":["a"]},{"properties":{"a":{"minimum":10},"b":{"type":"string"}},"required":["b"]}]}`,
			map[string]bool{"/a minimum-1": false, "missing required b": false}},
		{"anyOf and oneOf", `{"type":"object","properties":{"u":{"anyOf":[{"type":"string","minLength":2},{"type":"integer"}]},"o":{"oneOf":[{"type":"integer","maximum":0},{"type":"integer","minimum":0}]}},"required":["u","o"]}`,
			map[string]bool{"/u number for string": true}},
		{"not", `{"type":"object","properties":{"n":{"type":"string","not":{"const":"a"}}},"required":["n"]}`, nil},
		{"if then else", `{"type":"object","properties":{"k":{"enum":["a","b"]},"v":{"type":"integer"}},"required":["k"],"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["v"]},"else":{"not":{"required":["v"]}}}`,
			map[string]bool{"missing required v": false, `/k enum "b"`: false}},
		{"dependentRequired", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"dependentRequired":{"a":["b"]}}`,
			map[string]bool{"drop optional b": false, "drop optional a": true}},
		{"object counts and names", `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"minProperties":2,"maxProperties":2,"propertyNames":{"maxLength":3}}`,
			map[string]bool{"minProperties-1": false, "maxProperties+1": false, "unknown member": false}},
		{"untyped and boolean schemas", `{"type":"object","properties":{"any":{},"t":true,"n":{"description":"anything"}},"required":["any","t"]}`,
			map[string]bool{"/any set to {}": true, "/t set to 2500": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ins, err := Instances([]byte(tt.schema), 500)
			if err != nil {
				t.Fatal(err)
			}
			expect(t, agreeWithOracle(t, []byte(tt.schema), ins), tt.want)
		})
	}
}

func TestInstancesErrors(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"not JSON", `{"type":`, "not JSON"},
		{"root not an object schema", `true`, "root is not an object schema"},
		{"root type", `{"type":"string"}`, "type does not include object"},
		{"contradiction", `{"type":"object","properties":{"n":{"type":"integer","minimum":5,"maximum":4}},"required":["n"]}`, "no number satisfies the bounds at /n"},
		{"false member", `{"type":"object","properties":{"n":false},"required":["n"]}`, "at /n"},
		{"required recursion", `{"type":"object","properties":{"a":{"$ref":"#"}},"required":["a"]}`, "recursive schema"},
		{"bad pattern", `{"type":"object","properties":{"p":{"type":"string","pattern":"(?<=a)b"}}}`, "pattern at /properties/p/pattern"},
		{"remote ref", `{"type":"object","properties":{"p":{"$ref":"other.json#/x"}}}`, `$ref "other.json#/x" at /properties/p/$ref does not resolve`},
		{"unsupported keyword", `{"type":"object","$dynamicRef":"#x"}`, "unsupported keyword $dynamicRef at /$dynamicRef"},
		{"unsupported draft", `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`, "unsupported $schema"},
		{"bad keyword value", `{"type":"object","properties":{"n":{"minimum":"1"}}}`, "minimum at /properties/n/minimum is not a number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ins, err := Instances([]byte(tt.schema), 100)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q (instances %d)", err, tt.want, len(ins))
			}
		})
	}
	if _, err := Instances([]byte(`{"type":"object"}`), 0); err == nil {
		t.Error("max 0: no error")
	}
}

// TestInstancesMCPCorpus runs Instances over the input schemas of the GitHub MCP server's tools: for
// every schema the oracle compiles, Instances builds a base the oracle accepts (or says clearly why it
// cannot), and every instance's Valid agrees with the oracle.
func TestInstancesMCPCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpora", "mcp", "github")
	suiteskip.Missing(t, "MCP corpus instances", dir)
	files, _ := filepath.Glob(filepath.Join(dir, "*.snap"))
	if len(files) == 0 {
		t.Fatalf("MCP corpus %s holds no *.snap file", dir)
	}
	var compiled, built, refused, instances int
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonval.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		in := doc.Get("inputSchema")
		if in == nil {
			continue
		}
		schema := in.Marshal()
		if _, err := oracleSchema(schema); err != nil {
			continue
		}
		compiled++
		t.Run(strings.TrimSuffix(filepath.Base(file), ".snap"), func(t *testing.T) {
			ins, err := Instances(schema, 400)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "contract: ") {
					t.Errorf("unclear error: %v", err)
				}
				refused++
				t.Logf("refused: %v", err)
				return
			}
			built++
			instances += len(ins)
			agreeWithOracle(t, schema, ins)
		})
	}
	t.Logf("MCP corpus: %d files, %d schemas compiled by the oracle, %d with instances (%d instances), %d refused",
		len(files), compiled, built, instances, refused)
}

func BenchmarkInstancesCreateShipment(b *testing.B) {
	schema := []byte(generated.CreateShipmentSchema)
	for b.Loop() {
		if _, err := Instances(schema, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzInstances checks that Instances never panics and, when it succeeds, starts with the valid base.
func FuzzInstances(f *testing.F) {
	for _, s := range generatedSchemas {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/x"}},{"type":"null"}]}}}`))
	f.Add([]byte(`{"type":"object","properties":{"s":{"type":"string","maxLength":0}}}`))
	nested := `{"type":"integer"}` // once exponential: distinct items at every level
	for range 4 {
		nested = `{"type":"array","uniqueItems":true,"minItems":1,"maxItems":200,"items":` + nested + `}`
	}
	f.Add([]byte(`{"type":"object","properties":{"a":` + nested + `},"required":["a"]}`))
	f.Fuzz(func(t *testing.T, schema []byte) {
		ins, err := Instances(schema, 50)
		if err != nil {
			return
		}
		if len(ins) == 0 || len(ins) > 50 || ins[0].Name != "valid" {
			t.Fatalf("bad matrix: %d instances", len(ins))
		}
		for _, in := range ins {
			if !json.Valid(in.JSON) {
				t.Fatalf("%s: not JSON: %s", in.Name, in.JSON)
			}
		}
	})
}

// Example output of the matrix for a one-member schema, to show the naming.
func ExampleInstances() {
	ins, err := Instances([]byte(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"],"additionalProperties":false}`), 9)
	if err != nil {
		panic(err)
	}
	for _, in := range ins {
		fmt.Printf("%-22s %-5v %s\n", in.Name, in.Valid, in.JSON)
	}
	// Output:
	// valid                  true  {"n":1}
	// null                   false null
	// JSON string for object false "{\"n\":1}"
	// missing required n     false {}
	// unknown member         false {"n":1,"unexpected":"x"}
	// /n null                false {"n":null}
	// /n minimum-1           false {"n":0}
	// /n fraction            false {"n":1.5}
	// /n string for integer  false {"n":"1"}
}
