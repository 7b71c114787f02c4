package benchside

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/runtime/jsonread"
)

// JSONValid is encoding/json.Valid on the payload: a syntax check.
var JSONValid = Contender{Name: "json.Valid", Run: func(b []byte) error {
	if !json.Valid(b) {
		return errors.New("invalid JSON")
	}
	return nil
}}

// ReaderSkip is the strict reader's skip of the payload (package jsonread,
// which the decoders read with), with its default limits.
var ReaderSkip = Contender{Name: "reader skip", Run: func(b []byte) error {
	var r jsonread.Reader
	r.Reset(b, jsonread.DefaultLimits)
	r.Skip()
	r.Finish()
	if e := r.Err(); e != nil {
		return e
	}
	return nil
}}

// Compile compiles a tool's JSON Schema with santhosh-tekuri/jsonschema,
// as draft 2020-12 with formats asserted.
func Compile(name, schema string) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	url := "bench:///" + name + ".json"
	if err := c.AddResource(url, strings.NewReader(schema)); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// Validate decodes data into interface{} (UseNumber) and validates the
// value with s: the first pass of the two-pass alternative.
func Validate(s *jsonschema.Schema, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	return s.Validate(doc)
}
