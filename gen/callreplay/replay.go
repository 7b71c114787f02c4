// Package callreplay decides recorded calls (runtime/callrecord fixtures)
// against a set of tool schemas, for `toolgate test --calls` and
// `toolgate diff --calls`. The decision is callrecord.Checker's:
// santhosh-tekuri/jsonschema on the tool's effective schema, with formats
// asserted, the validator the generated contract tests hold the decoders
// to and the recorder checked the masked arguments with. It decides
// acceptance and the violated keywords; it does not see what only the
// strict reader refuses (duplicate member names, which a recorded,
// re-marshalled argument object cannot hold anyway). A record that is not
// replayable has no arguments to decide: its outcome is NotReplayable,
// which agrees with nothing.
package callreplay

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/callrecord"
)

// Outcome codes besides callrecord.Accepted and invalid_arguments.
const (
	// UnknownTool is the outcome of a call to a tool the set lacks.
	UnknownTool = "unknown_tool"
	// NotReplayable is the outcome of a record that holds no arguments
	// (callrecord.Record.Replayable is false).
	NotReplayable = "not_replayable"
	// Unjudged is the outcome of arguments the validator cannot judge (a
	// number past its limits, in a record written by hand).
	Unjudged = "unjudged"
)

// Outcome is how a set of schemas decides a call.
type Outcome struct {
	// Code is callrecord.Accepted, invalid_arguments, UnknownTool,
	// NotReplayable or Unjudged.
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
	check   *callrecord.Checker
}

// Compile compiles the effective schema of every tool of set, their
// analysis (gen.Analyze). err is an invalid tool definition.
func Compile(set *gen.Set) (*Schemas, error) {
	opts := set.Options()
	s := &Schemas{tools: map[string]compiled{}}
	var errs gen.ErrorList
	for _, t := range set.Tools() {
		eff, version, err := set.Schema(t)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c, err := callrecord.NewChecker(t.Name, string(eff.Marshal()), !opts.FormatAnnotation)
		if err != nil {
			return nil, err // it names the tool
		}
		s.tools[t.Name] = compiled{version, c}
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
	if !r.Replayable {
		return Outcome{Code: NotReplayable}
	}
	c, ok := s.tools[r.Tool]
	if !ok {
		return Outcome{Code: UnknownTool}
	}
	d, err := c.check.Decide(r.Args)
	switch {
	case err != nil:
		return Outcome{Code: Unjudged}
	case d.Valid:
		return Outcome{Code: callrecord.Accepted}
	}
	return Outcome{Code: "invalid_arguments", Keywords: d.Keywords()}
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
	if recorded.Code != decided.Code || decided.Code == NotReplayable {
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
		data, err := readRecord(f)
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

// maxRecordBytes bounds a record file: the arguments the gate reads are at
// most 1 MiB (jsonread.DefaultLimits), and a record adds little to them.
const maxRecordBytes = 2 << 20

// readRecord reads a record file of at most maxRecordBytes.
func readRecord(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecordBytes+1))
	if err == nil && len(data) > maxRecordBytes {
		err = &gen.Error{File: path, Message: fmt.Sprintf("a call record is at most %d bytes", maxRecordBytes)}
	}
	return data, err
}
