package gen_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// compileOracle compiles an effective schema with santhosh-tekuri/jsonschema
// as runtime/contract's oracle does: draft 2020-12, formats asserted.
func compileOracle(t *testing.T, name, schema string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	url := "toolgate-oracle:///" + name + ".json"
	if err := c.AddResource(url, strings.NewReader(schema)); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: the oracle cannot compile the effective schema: %v", name, err)
	}
	return s
}

// oracleJudges reports whether the oracle finds data valid, numbers read
// exactly (json.Number).
func oracleJudges(t *testing.T, s *jsonschema.Schema, data []byte) bool {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("the oracle cannot read %s: %v", data, err)
	}
	return s.Validate(v) == nil
}
