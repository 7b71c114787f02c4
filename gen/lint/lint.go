// Package lint checks canonical tool files for what a strict decoder cannot
// catch: vague or confusable names, descriptions that leave the model
// guessing, open or shapeless schemas, unbounded text, arguments that should
// come from the session rather than the model, and rules a provider cannot
// express. Each finding has a rule ID, a severity and the file:line:column of
// the JSON it is about.
package lint

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/jsonpos"
	"github.com/toolgate/toolgate/gen/internal/workers"
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Severity orders findings: an Error fails lint, a Warning fails lint
// only with --fail-on warning and should be fixed or disabled with a
// reason, a Hint is a note. generate and check fail only on the Error
// rules that are certain (Rule.Certain); the others are warnings there.
type Severity uint8

// The severities.
const (
	Hint Severity = iota
	Warning
	Error
)

func (s Severity) String() string { return [...]string{"hint", "warning", "error"}[s] }

// Finding is one problem found.
type Finding struct {
	Rule     string
	Severity Severity
	// Tool is the tool's name ("" for a finding about a config).
	Tool string
	File string
	// Pointer locates the JSON the finding is about in File.
	Pointer string
	Pos     jsonpos.Pos
	Message string
}

// String renders "file:line:col: severity rule: message".
func (f Finding) String() string {
	return fmt.Sprintf("%s:%s: %s %s: %s", f.File, f.Pos, f.Severity, f.Rule, f.Message)
}

// Options control a run.
type Options struct {
	// Config holds the rules disabled per tool or per file.
	Config Config
	// MinSeverity drops findings below it (generate runs the Error rules):
	// the rules below it do not run.
	MinSeverity Severity
	// Generating marks the run of generate and check: the rules of the
	// generator's own warnings (default-invalid, format-unknown,
	// root-type-implied, never-valid) do not run, the generator reported them.
	Generating bool
}

// Result is what a run found.
type Result struct {
	// Findings are in file, position and rule order.
	Findings []Finding
	// Suppressed counts the findings a config or a tool file's
	// x-toolgate-lint disabled, by rule.
	Suppressed map[string]int
	// Invalid are the errors of tools the generator refuses (as
	// gen.Generate reports them); the other rules ran on them all the same.
	Invalid []error
}

// Counts returns the number of findings per rule.
func (r *Result) Counts() map[string]int {
	c := map[string]int{}
	for _, f := range r.Findings {
		c[f.Rule]++
	}
	return c
}

// Errors returns the number of Error findings.
func (r *Result) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == Error {
			n++
		}
	}
	return n
}

// source is one tool file read again for x-toolgate-lint and, when a
// finding in it is reported, the positions of its values.
type source struct {
	doc  *jsonval.Value
	data []byte
	pos  *jsonpos.Map
}

// find returns the position of the value at ptr, reading the positions of
// the file's values the first time.
func (s *source) find(ptr string) (jsonpos.Pos, error) {
	if s.pos == nil {
		pos, err := jsonpos.Read(s.data)
		if err != nil {
			return jsonpos.Pos{}, err
		}
		s.pos = pos
	}
	return s.pos.Find(ptr), nil
}

// Run lints the tools of set, which gen.Analyze returned for the tools
// gen.Load returned: the provider fit and the generator's warnings are
// read from its analysis, under its options (the providers tools are
// exported to unless a tool's x-toolgate providers says otherwise; none
// means all). An error means a tool file could not be read again.
func Run(set *gen.Set, opts Options) (*Result, error) {
	tools := set.Tools()
	// Files are read and tools checked in parallel, each into its own slot;
	// the results are then taken in tool order, so the findings and the
	// errors do not depend on the scheduling.
	var files []string
	index := map[string]int{}
	for _, t := range tools {
		if _, ok := index[t.File]; !ok {
			index[t.File] = len(files)
			files = append(files, t.File)
		}
	}
	read, readErrs := workers.Map(len(files), func(i int) (*source, error) { return readSource(files[i]) })
	sources := map[string]*source{}
	res := &Result{Suppressed: map[string]int{}}
	var all []Finding
	var infos []*toolInfo
	for _, t := range tools {
		i := index[t.File]
		if readErrs[i] != nil {
			return nil, readErrs[i]
		}
		sources[t.File] = read[i]
		ti, cfgFindings := newToolInfo(t, read[i].doc)
		all = append(all, cfgFindings...)
		infos = append(infos, ti)
	}
	checked := make([]*checker, len(infos))
	fitErrs := make([]error, len(infos))
	workers.Run(len(infos), func(i int) {
		c := &checker{ti: infos[i], min: opts.MinSeverity}
		c.tool()
		fitErrs[i] = c.providerFit(set)
		c.generatorWarnings(set, opts)
		checked[i] = c
	})
	for i, c := range checked {
		if fitErrs[i] != nil {
			res.Invalid = append(res.Invalid, fitErrs[i])
		}
		all = append(all, c.out...)
	}
	all = append(all, confusableTools(infos, opts.MinSeverity)...)
	byName := map[string]*toolInfo{}
	for _, ti := range infos {
		byName[ti.t.Name] = ti
	}
	for _, f := range all {
		if f.Severity < opts.MinSeverity {
			continue
		}
		if ti := byName[f.Tool]; ti != nil && (ti.allows(f) || opts.Config.allows(f, ti.t.Pointer)) {
			res.Suppressed[f.Rule]++
			continue
		}
		pos, err := sources[f.File].find(f.Pointer)
		if err != nil {
			return nil, &gen.Error{File: f.File, Message: err.Error()}
		}
		f.Pos = pos
		res.Findings = append(res.Findings, f)
	}
	sort.SliceStable(res.Findings, func(i, j int) bool {
		a, b := res.Findings[i], res.Findings[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Pos.Offset != b.Pos.Offset {
			return a.Pos.Offset < b.Pos.Offset
		}
		return a.Rule < b.Rule
	})
	return res, nil
}

// readSource reads and parses a tool file again, with the positions of its
// JSON values.
func readSource(file string) (*source, error) {
	data, err := gen.ReadToolFile(file)
	if err != nil {
		return nil, err
	}
	doc, err := jsonval.Parse(data)
	if err != nil {
		return nil, &gen.Error{File: file, Message: err.Error()}
	}
	return &source{doc: doc, data: data}, nil
}

// toolInfo is a tool with its raw definition.
type toolInfo struct {
	t *gen.Tool
	// params is the parameters (or inputSchema) schema as written, and
	// base the pointer to it in t.File.
	params *jsonval.Value
	base   string
	// allow are the tool file's own suppressions.
	allow []Suppression
	// readOnly is MCP's annotations.readOnlyHint.
	readOnly bool
	// destructiveAt points at what makes the tool destructive: its
	// x-toolgate destructive, else its annotations.destructiveHint.
	destructiveAt string
}

func newToolInfo(t *gen.Tool, doc *jsonval.Value) (*toolInfo, []Finding) {
	obj := jsonval.Resolve(doc, t.Pointer)
	ti := &toolInfo{t: t}
	if h := obj.Get("annotations").Get("readOnlyHint"); h != nil && h.Kind == jsonval.Bool {
		ti.readOnly = h.Bool
	}
	ti.destructiveAt = t.Pointer + "/x-toolgate/destructive"
	if d := obj.Get("x-toolgate").Get("destructive"); d == nil || d.Kind != jsonval.Bool || !d.Bool {
		ti.destructiveAt = t.Pointer + "/annotations/destructiveHint"
	}
	for _, key := range []string{"parameters", "inputSchema"} {
		if p := obj.Get(key); p != nil {
			ti.params, ti.base = p, t.Pointer+"/"+key
		}
	}
	var bad []Finding
	if x := obj.Get(allowMember); x != nil {
		var problems []configProblem
		ti.allow, problems = parseSuppressions(x, true)
		for _, p := range problems {
			bad = append(bad, Finding{Rule: RuleConfig, Severity: Error, Tool: t.Name, File: t.File, Pointer: t.Pointer + "/" + allowMember + p.ptr, Message: p.msg})
		}
	}
	return ti, bad
}

// allowMember is the tool file member that disables rules for the tool.
const allowMember = "x-toolgate-lint"

func (ti *toolInfo) allows(f Finding) bool {
	for _, s := range ti.allow {
		if s.Rule == f.Rule && (s.At == "" || within(f.Pointer, ti.t.Pointer+s.At)) {
			return true
		}
	}
	return false
}

func within(ptr, prefix string) bool {
	return ptr == prefix || strings.HasPrefix(ptr, prefix+"/")
}

// matchFile reports whether the file pattern (a path or a filepath.Match
// glob, slash-separated) names file or a trailing part of its path, so that
// "schemas/*.json" matches "./schemas/a.json" and "/src/app/schemas/a.json".
func matchFile(pattern, file string) bool {
	f := filepath.ToSlash(filepath.Clean(file))
	p := filepath.ToSlash(filepath.Clean(pattern))
	for {
		if ok, err := filepath.Match(p, f); err == nil && ok {
			return true
		}
		i := strings.Index(f, "/")
		if i < 0 {
			return false
		}
		f = f[i+1:]
	}
}
