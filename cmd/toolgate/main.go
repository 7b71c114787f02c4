// Toolgate turns canonical LLM tool definitions into a Go package that makes
// tool calls safe to execute: typed argument structs, and decoders that read
// the model's argument bytes once, straight into the struct, rejecting
// unknown members at every level, wrong types (nothing is coerced), duplicate
// member names and every violated schema keyword with a stable error.
//
// Put one JSON file per tool in a folder:
//
//	{
//	  "name": "refund_order",
//	  "description": "Refund part or all of an order.",
//	  "parameters": {
//	    "type": "object",
//	    "properties": {
//	      "orderId": {"type": "string", "pattern": "^[A-Z][A-Z0-9-]{2,31}$"},
//	      "amountInCents": {"type": "integer", "minimum": 1, "maximum": 100000}
//	    },
//	    "required": ["orderId", "amountInCents"]
//	  }
//	}
//
// and one line in the package that should hold the code, say tools/ beside
// schemas/ (go generate runs it in the package's folder, so the paths are
// relative to tools/):
//
//	//go:generate go tool toolgate generate --schemas ../schemas --out .
//
// Each tool gets <tool>_tool.go with RefundOrderArgs, DecodeRefundOrderArgs,
// MarshalJSON/UnmarshalJSON and the effective schema; toolgate.go holds what
// the package needs once. In CI, from the module's root,
//
//	go tool toolgate check --schemas schemas --out tools
//
// fails with exit code 1 and a diff when the package is stale. toolgate
// becomes a tool of the module with `go get -tool
// github.com/toolgate/toolgate/cmd/toolgate@latest` once the module is
// published, and until then from a checkout with the replace line of the
// README's "In your service".
//
// Usage:
//
//	toolgate generate [flags]   write the generated files
//	toolgate check [flags]      fail with a diff when they are stale
//	toolgate export --provider P [flags]
//	                            print the tool definitions sent to provider
//	                            P (openai-chat, openai-responses, anthropic,
//	                            gemini, gemini-legacy, mcp) as a JSON array
//	toolgate lint [flags]       report lint findings as file:line:column
//	                            (--format human, json, sarif or github);
//	                            exit 1 on an error-level finding
//	toolgate diff OLD NEW       classify every schema change from OLD to NEW
//	toolgate diff --base REV    (folders or files), or from git revision REV
//	                            to --schemas: breaking, widening or
//	                            compatible, for callers and queued calls
//	                            (--format human, json, markdown or
//	                            github); exit 1
//	                            on a breaking change toolgate-diff.json does
//	                            not allow with a reason; --calls DIR also
//	                            replays recorded calls against both
//	toolgate test --calls DIR   replay recorded calls (runtime/callrecord)
//	                            against --schemas; exit 1 when one is not
//	                            decided as recorded
//	toolgate vet [packages]     report, as file:line:column, the ways a
//	                            tool call goes around the gate (package
//	                            gen/vet); exit 1 when there is one
//	toolgate version            print the module version, the VCS revision
//	                            it was built from and the runtime version
//	                            the generated code needs (also --version)
//
// Flags of generate, check and export ('toolgate COMMAND --help' prints,
// on stdout, the flags of COMMAND and no others):
//
//	--schemas PATH   a folder of *.json tool files, or one tool file;
//	                 repeatable (default ./schemas)
//	--out DIR        generate and check only: the output package
//	                 directory (default ./generated)
//	--package NAME   generate and check only: the package name (default:
//	                 the package already in --out, else $GOPACKAGE when
//	                 --out is the directory go generate runs in, else the
//	                 folder name)
//	--open-objects   plain JSON Schema semantics: an object schema without
//	                 additionalProperties is open (default: closed)
//	--catalog FILE   generate and check only: also write (check: compare)
//	                 a Markdown catalog of the tools at FILE
//	--format F       generate and check only: human (default), json, or
//	                 for check github (see Output formats)
//	--providers P,…  the model providers tools are exported to, unless a
//	                 tool's x-toolgate providers says otherwise; a tool a
//	                 listed provider cannot carry faithfully is an invalid
//	                 definition. Default: none chosen, each tool goes to
//	                 every provider that can carry it, and generate and
//	                 export print a notice on stderr for each one left out
//
// toolgate owns the files in --out whose first line is
// "// Code generated by toolgate. DO NOT EDIT." and no others: generate
// rewrites them and removes the ones no tool produces any more; check
// reports a stale, missing or extra one.
//
// generate and check refuse only what is certainly wrong: besides the
// generator's own errors, a finding of a certain lint rule (bounds-inverted,
// provider-refused, lint-config) is an invalid tool definition. generate,
// check and export print every problem of every tool file in one run, one
// a line, sorted by file and place, as
// "file:line:column: KEYWORD: message (at POINTER)" (a lint finding as
// lint prints it); a misspelt keyword or member says what it is likely
// meant to be ("did you mean"). What is
// only likely wrong is a warning, printed on stderr as
// "file:line:column: warning KIND: message (at POINTER)", and the code is
// generated: the generator's own warnings (a default its schema rejects, a
// format toolgate does not assert, a root object without its type), the
// heuristic error-level lint rules (trusted-identity, name-confusable,
// enum-spelling, required-unknown) and an ambiguous oneOf. toolgate lint
// --fail-on warning makes them fail CI. --lint-config (default
// toolgate-lint.json, when it exists) disables a rule per tool or per file
// with a reason.
//
// Output formats. Every command takes -q/--quiet: when it succeeds it
// prints nothing (as sqlc and buf), when it fails it prints all it would
// have; a machine-readable document (--format json, sarif or github, and
// export's definitions) is printed all the same. Without -q, generate lists
// each file it wrote or removed ("wrote generated/a_tool.go"). Messages on
// stderr start with the command ("toolgate generate: ..."), problems in a
// tool file with its place ("schemas/a.json:4:7: ..." or
// "schemas/a.json#/pointer: ...").
//
// --format github (lint, check, diff) prints a GitHub Actions
// workflow-command annotation a line on stdout,
//
//	::error file=schemas/a.json,line=4,col=7,title=trusted-identity::message
//
// (::warning and ::notice for warnings, hints and changes that are not
// breaking), each field escaped as the runner unescapes it, so that no file
// name or message can end a command or start another. check annotates each
// stale, missing or extra file; diff each change, on the tool's file.
//
// --format json (generate, check) prints one JSON object on stdout:
//
//	{
//	  "command": "check",
//	  "exit_code": 1,
//	  "problems": [{"file": "schemas/a.json", "line": 4, "column": 7,
//	    "pointer": "/parameters/properties/x", "keyword": "default-invalid",
//	    "message": "...", "severity": "warning"}],
//	  "stale": ["generated/a_tool.go"], "missing": [], "extra": []
//	}
//
// generate's has "written" and "removed" (the paths, with the catalog)
// instead of "stale", "missing" and "extra". problems are the errors and
// warnings about the tool definitions (severity "error" or "warning";
// keyword is the schema keyword, lint rule or "oneOf"; line and column are
// 1-based, 0 when unknown, and file is "" for an I/O error). Every list is
// present, paths use forward slashes. Usage errors print only on stderr.
//
// lint --format sarif writes SARIF 2.1.0 with tool.driver.version (the
// module version, as 'toolgate version' prints it) and artifact URIs
// percent-encoded (RFC 3986), relative to the working directory, with
// forward slashes.
//
// Exit codes, alike in every command:
//
//	0  success
//	1  check: generated code is stale; lint: a finding at --fail-on;
//	   diff: a breaking change not allowed; test: a call decided otherwise;
//	   vet: a finding
//	2  usage: a bad flag or argument, and a --schemas, --calls, OLD or NEW
//	   path that does not exist, or --schemas paths that hold no *.json
//	   file (diff reads such a folder as no tools)
//	3  invalid tool definitions (a chosen provider that cannot carry a
//	   tool among them), or an invalid lint or diff config
//	4  any other failure (such as I/O, or vet's packages that do not load)
package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/spf13/pflag"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/provider"
)

// Exit codes.
const (
	exitOK      = 0
	exitDrift   = 1
	exitUsage   = 2
	exitInvalid = 3
	exitFailure = 4
)

func main() {
	keepHeapFloor(heapFloor)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `toolgate turns canonical tool schemas into typed Go decoders.

Usage:
  toolgate generate [flags]   write the generated Go files
  toolgate check [flags]      exit 1 with a diff when they are stale
  toolgate export --provider P [flags]
                              print the tool definitions for provider P
  toolgate lint [flags]       check the tool files against the lint rules;
                              exit 1 on an error-level finding
  toolgate diff OLD NEW       classify the schema changes from OLD to NEW
  toolgate diff --base REV    ... from git revision REV to --schemas;
                              exit 1 on a breaking change not allowed
  toolgate test --calls DIR   replay recorded calls against the schemas;
                              exit 1 when one is decided otherwise
  toolgate vet [packages]     report tool calls that go around the gate;
                              exit 1 when one does
  toolgate version            print toolgate's version (also --version)

Run 'toolgate COMMAND --help' for the flags of a command.
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "generate", "check":
		return runGenerate(args[0], args[1:], stdout, stderr)
	case "export":
		return runExport(args[1:], stdout, stderr)
	case "lint":
		return runLint(args[1:], stdout, stderr)
	case "diff":
		return runDiff(args[1:], stdout, stderr)
	case "test":
		return runTest(args[1:], stdout, stderr)
	case "vet":
		return runVet(args[1:], stdout, stderr)
	case "version", "--version":
		return runVersion(stdout)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "toolgate: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

func runGenerate(cmd string, args []string, stdout, stderr io.Writer) (code int) {
	fs := pflag.NewFlagSet("toolgate "+cmd, pflag.ContinueOnError)
	schemas := fs.StringArray("schemas", []string{"schemas"}, "a folder of *.json tool files, or a tool file; repeatable")
	out := fs.String("out", "generated", "the output package directory")
	pkg := fs.String("package", "", "the Go package name (default: the package in --out, else $GOPACKAGE, else the folder name)")
	open := fs.Bool("open-objects", false, "an object schema without additionalProperties is open (plain JSON Schema)")
	provs := fs.StringSlice("providers", nil, "the providers tools are exported to unless a tool's x-toolgate providers says otherwise (default: every provider that can carry the tool, of "+providerNames()+")")
	lintCfg := fs.String("lint-config", defaultLintConfig, "the lint config (generate and check run the error-level lint rules: the certain ones refuse a tool, the heuristic ones warn)")
	strictOneOf := fs.Bool("strict-oneof", false, "a oneOf whose branches can match one value (a warning by default) is an error")
	catalogPath := fs.String("catalog", "", "also write (check: compare) a Markdown catalog of the tools at this path")
	formats := []string{"human", "json"}
	if cmd == "check" {
		formats = append(formats, "github")
	}
	format := fs.String("format", "human", "the output: "+orList(formats)+" (json: one JSON object on stdout, described by go doc github.com/toolgate/toolgate/cmd/toolgate)")
	quiet := quietFlag(fs)
	if cmd == "check" {
		setUsage(fs, "toolgate check [flags]",
			"Renders the generated Go files in memory and compares them with --out;\nexits 1 with a unified diff when any is stale, missing or extra.",
			"toolgate check --schemas ../schemas --out ./tools --catalog ../schemas/CATALOG.md")
	} else {
		setUsage(fs, "toolgate generate [flags]",
			"Writes the generated Go files for the tools in --schemas to --out and lists\nthe files it wrote or removed.",
			"toolgate generate --schemas ../schemas --out . --providers openai-chat,anthropic")
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if !slices.Contains(formats, *format) {
		fmt.Fprintf(stderr, "toolgate %s: --format must be %s, not %q\n", cmd, orList(formats), *format)
		return exitUsage
	}
	if *quiet {
		var done func(int)
		stdout, stderr, done = hush(stdout, stderr, *format != "human")
		defer func() { done(code) }()
	}
	rep := &reporter{cmd: cmd, format: *format, stdout: stdout, stderr: stderr}
	var res generateResult
	if *format == "json" {
		// The JSON document is the whole of stdout; what would be printed
		// there in the human format is in it.
		doc := stdout
		stdout = io.Discard
		defer func() { writeGenerateJSON(doc, cmd, code, rep, &res, stderr) }()
	}
	name, err := packageName(*pkg, *out)
	if err != nil {
		fmt.Fprintf(stderr, "toolgate %s: %v\n", cmd, err)
		return exitUsage
	}
	providers, code := parseProviders(cmd, *provs, stderr)
	if code != exitOK {
		return code
	}
	if code := checkSchemas(cmd, *schemas, true, schemasHint, stderr); code != exitOK {
		return code
	}
	tools, err := gen.LoadAll(*schemas...)
	if err != nil {
		return rep.loadErrors(loadProblems(err, gen.Analyze(tools, gen.Options{OpenObjects: *open, Providers: providers}), fs, *lintCfg))
	}
	defer rep.summary()
	var generated []gen.Warning
	opts := gen.Options{Package: name, OutDir: *out, OpenObjects: *open, Providers: providers, Warn: func(w gen.Warning) { generated = append(generated, w) }}
	if cmd == "generate" {
		opts.Notice = func(n gen.Notice) { fmt.Fprintln(stderr, noticeLine(cmd, &rep.loc, n)) }
	}
	// One analysis of the tools serves the generator, the lint rules and
	// the catalog.
	set := gen.Analyze(tools, opts)
	files, err := set.Generate()
	if err != nil {
		return rep.loadErrors(withRefusals(err, fs, *lintCfg, lintSet(set)))
	}
	for _, w := range generated {
		rep.generator(w)
	}
	var (
		drift    []gen.Drift
		checkErr error
		checking sync.WaitGroup
	)
	defer checking.Wait()
	if cmd == "check" {
		// The comparison with --out runs beside the oneOf and lint checks;
		// its answer is read only when they pass.
		checking.Go(func() { drift, checkErr = gen.Check(*out, files) })
	}
	if code := oneOfWarnings(tools, gen.Options{OpenObjects: *open}, *strictOneOf, rep); code != exitOK {
		return code
	}
	if code := lintErrors(fs, *lintCfg, lintSet(set), rep); code != exitOK {
		return code
	}
	if cmd == "check" {
		checking.Wait()
		if checkErr != nil {
			rep.failed(checkErr)
			return exitFailure
		}
		res.drift = drift
		if *format == "github" {
			for _, d := range drift {
				fmt.Fprintln(stdout, annotation("error", d.File, 0, 0, "toolgate check", d.File+" is "+d.Problem+"; run toolgate generate"))
			}
		} else {
			for _, d := range drift {
				fmt.Fprintf(stdout, "%s: %s\n", d.File, d.Problem)
			}
			for _, d := range drift {
				fmt.Fprint(stdout, d.Diff)
			}
		}
		stale := 0
		if *catalogPath != "" {
			st, code := writeCatalog(rep, stdout, *catalogPath, set)
			if code != exitOK {
				return code
			}
			if st {
				stale = 1
				res.drift = append(res.drift, gen.Drift{File: *catalogPath, Problem: "stale"})
			}
		}
		if len(drift)+stale == 0 {
			return exitOK
		}
		fmt.Fprintf(stderr, "toolgate check: %d generated file(s) out of date; run toolgate generate\n", len(drift)+stale)
		return exitDrift
	}
	// What was written is reported also when a write fails part-way.
	written, removed, err := gen.Write(*out, files)
	for _, f := range written {
		res.written = append(res.written, filepath.Join(*out, f))
		fmt.Fprintf(stdout, "wrote %s\n", filepath.Join(*out, f))
	}
	for _, f := range removed {
		res.removed = append(res.removed, filepath.Join(*out, f))
		fmt.Fprintf(stdout, "removed %s\n", filepath.Join(*out, f))
	}
	if err != nil {
		rep.failed(err)
		return exitFailure
	}
	if *catalogPath != "" {
		wrote, code := writeCatalog(rep, stdout, *catalogPath, set)
		if wrote {
			res.written = append(res.written, *catalogPath)
		}
		return code
	}
	return exitOK
}

// orList writes "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// parseProviders checks the names of --providers.
func parseProviders(cmd string, names []string, stderr io.Writer) ([]provider.Provider, int) {
	var providers []provider.Provider
	for _, p := range names {
		if !slices.Contains(provider.All, provider.Provider(p)) {
			fmt.Fprintf(stderr, "toolgate %s: --providers: %q is not one of %s\n", cmd, p, providerNames())
			return nil, exitUsage
		}
		providers = append(providers, provider.Provider(p))
	}
	return providers, exitOK
}

func providerNames() string {
	names := make([]string, len(provider.All))
	for i, p := range provider.All {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}

// packageName decides the package name: the flag, else the package of the
// Go files already in out, else $GOPACKAGE when out is the directory go
// generate runs in, else out's folder name.
func packageName(flag, out string) (string, error) {
	if flag != "" {
		if !token.IsIdentifier(flag) {
			return "", fmt.Errorf("--package %q is not a Go identifier", flag)
		}
		return flag, nil
	}
	if name := existingPackage(out); name != "" {
		return name, nil
	}
	if gp := os.Getenv("GOPACKAGE"); gp != "" {
		if abs, err := filepath.Abs(out); err == nil {
			if wd, err := os.Getwd(); err == nil && abs == wd {
				return gp, nil
			}
		}
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	name := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			return unicode.ToLower(r)
		}
		return -1
	}, filepath.Base(abs))
	if !token.IsIdentifier(name) {
		return "", fmt.Errorf("cannot derive a package name from %q; set --package", out)
	}
	return name, nil
}

// existingPackage returns the package name of the non-test Go files in dir.
func existingPackage(dir string) string {
	matches, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, m := range matches {
		if strings.HasSuffix(m, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), m, nil, parser.PackageClauseOnly)
		if err == nil {
			return f.Name.Name
		}
	}
	return ""
}
