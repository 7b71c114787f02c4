package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/pflag"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/lint"
)

// defaultLintConfig is read when --lint-config is not given and it exists.
const defaultLintConfig = "toolgate-lint.json"

// lintConfig loads the lint configuration: the flag's file, else
// toolgate-lint.json when it exists.
func lintConfig(fl *pflag.FlagSet, path string) (lint.Config, error) {
	if !fl.Changed("lint-config") {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return lint.Config{}, nil
		}
	}
	return lint.LoadConfig(path)
}

func runLint(args []string, stdout, stderr io.Writer) (code int) {
	fl := pflag.NewFlagSet("toolgate lint", pflag.ContinueOnError)
	schemas := fl.StringArray("schemas", []string{"schemas"}, "a folder of *.json tool files, or a tool file; repeatable")
	format := fl.String("format", "human", "the output: human, json, sarif or github (workflow-command annotations)")
	cfgPath := fl.String("lint-config", defaultLintConfig, "the lint config: rules disabled per tool or file, with a reason")
	show := fl.String("min-severity", "hint", "the least severe findings shown: hint, warning or error")
	failOn := fl.String("fail-on", "error", "the least severe finding that makes lint exit 1: warning or error")
	provs := fl.StringSlice("providers", nil, "the providers tools are exported to unless a tool's x-toolgate providers says otherwise (default all: "+providerNames()+")")
	quiet := quietFlag(fl)
	setUsage(fl, "toolgate lint [flags]",
		"Checks the tool files in --schemas against the lint rules and prints each\nfinding as file:line:column; exits 1 when any is an error (or, with\n--fail-on warning, a warning).",
		"toolgate lint --schemas ./schemas --format sarif --fail-on warning > lint.sarif")
	if code, ok := parseFlags(fl, args, stdout, stderr); !ok {
		return code
	}
	if !slices.Contains([]string{"human", "json", "sarif", "github"}, *format) {
		fmt.Fprintf(stderr, "toolgate lint: --format must be human, json, sarif or github, not %q\n", *format)
		return exitUsage
	}
	minSev, okShow := severities[*show]
	failSev, okFail := severities[*failOn]
	if !okShow || !okFail || failSev == lint.Hint {
		fmt.Fprintf(stderr, "toolgate lint: --min-severity is hint, warning or error and --fail-on is warning or error\n")
		return exitUsage
	}
	if *quiet {
		var done func(int)
		stdout, stderr, done = hush(stdout, stderr, *format != "human")
		defer func() { done(code) }()
	}
	providers, code := parseProviders("lint", *provs, stderr)
	if code != exitOK {
		return code
	}
	cfg, err := lintConfig(fl, *cfgPath)
	if err != nil {
		fmt.Fprintf(stderr, "toolgate lint: %s\n", gen.Printable(err.Error()))
		return configExit(err)
	}
	if code := checkSchemas("lint", *schemas, true, schemasHint, stderr); code != exitOK {
		return code
	}
	tools, invalid, err := loadEach(*schemas)
	if err != nil {
		fmt.Fprintf(stderr, "toolgate lint: %s\n", gen.Printable(err.Error()))
		return exitFailure
	}
	res, err := lint.Run(gen.Analyze(tools, gen.Options{Providers: providers}), lint.Options{Config: cfg, MinSeverity: minSev})
	if err != nil {
		return reportLoad("lint", err, stderr)
	}
	// The tool definitions toolgate refuses are reported before the
	// findings, so that the totals end the output, and counted in them.
	invalid = append(invalid, res.Invalid...)
	res.Invalid = invalid
	code = exitOK
	if len(invalid) > 0 {
		rep := &reporter{cmd: "lint", format: "human", stdout: stdout, stderr: stderr}
		if *format == "github" {
			rep.format = "github"
		}
		code = rep.loadErrors(gen.ErrorList(invalid))
	}
	switch *format {
	case "json":
		err = lint.WriteJSON(stdout, res)
	case "sarif":
		err = lint.WriteSARIF(stdout, res, toolVersion())
	case "github":
		err = writeLintGitHub(stdout, res)
	default:
		err = lint.WriteHuman(stdout, res)
	}
	if err != nil {
		fmt.Fprintf(stderr, "toolgate lint: %v\n", err)
		return exitFailure
	}
	if code != exitOK {
		return code
	}
	for _, f := range res.Findings {
		if f.Severity >= failSev {
			return exitDrift
		}
	}
	return exitOK
}

// writeLintGitHub writes a finding a line as a workflow-command
// annotation: an error finding is ::error, a warning ::warning, a hint
// ::notice, titled with its rule.
func writeLintGitHub(w io.Writer, r *lint.Result) error {
	for _, f := range r.Findings {
		level := [...]string{lint.Hint: "notice", lint.Warning: "warning", lint.Error: "error"}[f.Severity]
		if _, err := fmt.Fprintln(w, annotation(level, f.File, f.Pos.Line, f.Pos.Column, f.Rule, f.Message)); err != nil {
			return err
		}
	}
	return nil
}

var severities = map[string]lint.Severity{"hint": lint.Hint, "warning": lint.Warning, "error": lint.Error}

// loadEach loads every tool file on its own, so that one invalid file does
// not hide the findings in the others: it returns the tools of the files
// that load and the errors of those that do not. err is a path that cannot
// be listed (checkSchemas has made sure the paths exist and hold tool
// files).
func loadEach(paths []string) (tools []*gen.Tool, invalid []error, err error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, nil, err
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(p, "*.json"))
		if err != nil {
			return nil, nil, err
		}
		files = append(files, matches...)
	}
	for _, f := range files {
		// A file with problems still contributes the tools that can be
		// linted: every problem of every file is reported in one run.
		ts, err := gen.LoadAll(f)
		if err != nil {
			invalid = append(invalid, err)
		}
		tools = append(tools, ts...)
	}
	return tools, invalid, nil
}

// configExit is 3 for an invalid config, 4 for one that cannot be read.
func configExit(err error) int {
	var ce *lint.ConfigError
	if errors.As(err, &ce) {
		return exitInvalid
	}
	return exitFailure
}

// lintErrors runs the error-level rules for generate and check. A finding
// of a certain rule (lint.Rule.Certain: inverted bounds, a chosen provider
// that cannot carry the tool, an invalid config) is an invalid tool
// definition (exit 3); the heuristic ones (trusted-identity,
// name-confusable, enum-spelling…) are warnings.
func lintErrors(fl *pflag.FlagSet, cfgPath string, set *gen.Set, rep *reporter) int {
	cfg, err := lintConfig(fl, cfgPath)
	if err != nil {
		fmt.Fprintf(rep.stderr, "toolgate %s: %s\n", rep.cmd, gen.Printable(err.Error()))
		return configExit(err)
	}
	refused, warned, err := lint.Refusals(set, cfg)
	if err != nil {
		return rep.loadErrors(err)
	}
	for _, f := range warned {
		rep.finding(f)
	}
	if len(refused) == 0 {
		return exitOK
	}
	for _, f := range refused {
		rep.refused(f)
	}
	fmt.Fprintf(rep.stderr, "toolgate %s: %d lint error(s); fix them, or disable a rule with a reason (toolgate lint --help)\n", rep.cmd, len(refused))
	return exitInvalid
}

// refusal is a finding of a certain lint rule reported among the errors of
// the tool definitions (withRefusals), placed and sorted with them.
type refusal struct{ f lint.Finding }

// Error is the finding as lint prints it, with its pointer as a generation
// error ends: "file:line:column: error RULE: message (at POINTER)".
func (r refusal) Error() string { return r.f.String() + " (at " + orRoot(r.f.Pointer) + ")" }

// Place is where the finding is, for gen.ErrorList.Sorted.
func (r refusal) Place() (file string, line, column int) {
	return r.f.File, r.f.Pos.Line, r.f.Pos.Column
}

// withRefusals adds to err, the problems of the tool definitions, the
// findings of the certain lint rules for set (what lintErrors refuses
// once the generator accepts them): one list for reportLoad, so that a run
// reports every problem of every file at once. A lint config or tool file
// that cannot be read is added as its error.
func withRefusals(err error, fl *pflag.FlagSet, cfgPath string, set *gen.Set) error {
	list := gen.ErrorList{err}
	cfg, cerr := lintConfig(fl, cfgPath)
	if cerr != nil {
		return append(list, cerr)
	}
	refused, _, rerr := lint.Refusals(set, cfg)
	if rerr != nil {
		return append(list, rerr)
	}
	for _, f := range refused {
		// A tool a chosen provider cannot carry is among the generator's
		// own errors already.
		if f.Rule != lint.RuleProviderRefused {
			list = append(list, refusal{f})
		}
	}
	return list
}

// loadProblems adds to err, what gen.LoadAll found, what the generator
// (Set.Err) and the certain lint rules find in set, the analysis of the
// tools it returned beside it. An error that is not about the definitions
// (a path that cannot be read) is reported alone.
func loadProblems(err error, set *gen.Set, fl *pflag.FlagSet, cfgPath string) error {
	var list gen.ErrorList
	if !errors.As(err, &list) {
		return err
	}
	if verr := set.Err(); verr != nil {
		err = gen.ErrorList{err, verr}
	}
	return withRefusals(err, fl, cfgPath, lintSet(set))
}

// lintSet is the analysis the lint rules read for set's tools: set itself,
// unless it reads objects as open (--open-objects), which the lint rules
// never do: they read the tools analysed again, with objects closed and
// the same providers.
func lintSet(set *gen.Set) *gen.Set {
	if !set.Options().OpenObjects {
		return set
	}
	return gen.Analyze(set.Tools(), gen.Options{Providers: set.Options().Providers})
}
