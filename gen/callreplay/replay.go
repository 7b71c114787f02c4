// Package callreplay decides recorded calls (runtime/callrecord fixtures)
// against a set of tool schemas, for `toolgate test --calls` and
// `toolgate diff --calls`. The decision is santhosh-tekuri/jsonschema's on
// the tool's effective schema, with formats asserted: the validator the
// generated contract tests hold the decoders to. It decides acceptance and
// the violated keywords; it does not see what only the strict reader
// refuses (duplicate member names, which a recorded, re-marshalled
// argument object cannot hold anyway).
package callreplay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/callrecord"
)

// UnknownTool is the outcome code of a call to a tool the set lacks.
const UnknownTool = "unknown_tool"

// Outcome is how a set of schemas decides a call.
type Outcome struct {
	// Code is callrecord.Accepted, invalid_arguments or UnknownTool.
	Code string
	// Keywords are the violated keywords, sorted and distinct.
	Keywords []string
}

// Accepted reports whether the call passes.
func (o Outcome) Accepted() bool { return o.Code == callrecord.Accepted }

func (o Outcome) String() string {
	if len(o.Keywords) == 0 {
		return o.Code
	}
	return o.Code + " (" + strings.Join(o.Keywords, ", ") + ")"
}

// Schemas are the compiled effective schemas of a set of tools.
type Schemas struct {
	tools map[string]compiled
}

type compiled struct {
	version string
	schema  *jsonschema.Schema
}

// Compile compiles the effective schema of every tool. err is an invalid
// tool definition.
func Compile(tools []*gen.Tool, opts gen.Options) (*Schemas, error) {
	s := &Schemas{tools: map[string]compiled{}}
	var errs gen.ErrorList
	for _, t := range tools {
		eff, version, err := gen.Schema(t, opts)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft2020
		c.AssertFormat = !opts.FormatAnnotation
		url := "toolgate-replay:///" + t.Name + ".json"
		if err := c.AddResource(url, bytes.NewReader(eff.Marshal())); err != nil {
			return nil, err
		}
		cs, err := c.Compile(url)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", t.Name, err)
		}
		s.tools[t.Name] = compiled{version, cs}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return s, nil
}

// Version returns the schema version of a tool, or "".
func (s *Schemas) Version(tool string) string { return s.tools[tool].version }

// Decide decides a recorded call.
func (s *Schemas) Decide(r *callrecord.Record) Outcome {
	c, ok := s.tools[r.Tool]
	if !ok {
		return Outcome{Code: UnknownTool}
	}
	dec := json.NewDecoder(bytes.NewReader(r.Args.Marshal()))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return Outcome{Code: "invalid_json"}
	}
	err := c.schema.Validate(v)
	if err == nil {
		return Outcome{Code: callrecord.Accepted}
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return Outcome{Code: "invalid_arguments"}
	}
	set := map[string]bool{}
	var leaves func(e *jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := e.KeywordLocation
			set[loc[strings.LastIndex(loc, "/")+1:]] = true
		}
		for _, c := range e.Causes {
			leaves(c)
		}
	}
	leaves(ve)
	o := Outcome{Code: "invalid_arguments"}
	for k := range set {
		o.Keywords = append(o.Keywords, k)
	}
	sort.Strings(o.Keywords)
	return o
}

// Recorded is a record's own outcome, in Outcome form.
func Recorded(r *callrecord.Record) Outcome {
	o := Outcome{Code: r.Code}
	for _, v := range r.Violations {
		if !slices.Contains(o.Keywords, v.Keyword) {
			o.Keywords = append(o.Keywords, v.Keyword)
		}
	}
	sort.Strings(o.Keywords)
	return o
}

// Agrees reports whether a decision matches a recorded outcome: the same
// code, and every recorded keyword among the decided ones (the gate may
// stop at the first violation; the validator reports them all).
func Agrees(recorded, decided Outcome) bool {
	if recorded.Code != decided.Code {
		return false
	}
	for _, k := range recorded.Keywords {
		if !slices.Contains(decided.Keywords, k) {
			return false
		}
	}
	return true
}

// Entry is one fixture file.
type Entry struct {
	File   string
	Record *callrecord.Record
}

// LoadDir reads the *.json records of dir, in name order.
func LoadDir(dir string) ([]Entry, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s holds no call records (*.json)", dir)
	}
	var out []Entry
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		r, err := callrecord.Parse(data)
		if err != nil {
			return nil, &gen.Error{File: f, Message: err.Error()}
		}
		out = append(out, Entry{f, r})
	}
	return out, nil
}
