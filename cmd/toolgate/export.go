package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/lint"
	"github.com/toolgate/toolgate/runtime/provider"
)

// runExport is `toolgate export --provider P`: it writes no Go code, so it
// takes none of the flags of the output package (--out, --package) nor of
// the checks generate and check run (--lint-config, --strict-oneof,
// --catalog).
func runExport(args []string, stdout, stderr io.Writer) (code int) {
	fs := pflag.NewFlagSet("toolgate export", pflag.ContinueOnError)
	prov := fs.String("provider", "", "the provider: "+providerNames())
	schemas := fs.StringArray("schemas", []string{"schemas"}, "a folder of *.json tool files, or a tool file; repeatable")
	open := fs.Bool("open-objects", false, "an object schema without additionalProperties is open (plain JSON Schema)")
	provs := fs.StringSlice("providers", nil, "the providers tools are exported to unless a tool's x-toolgate providers says otherwise (default: every provider that can carry the tool, of "+providerNames()+")")
	quiet := quietFlag(fs)
	setUsage(fs, "toolgate export --provider P [flags]",
		"Prints the tool definitions that --provider is sent, as a JSON array, and\non stderr a notice for each tool left out, with the reason.",
		"toolgate export --provider openai-chat --schemas ./schemas > tools.json")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if *prov == "" {
		fmt.Fprintf(stderr, "toolgate export: --provider is required (%s)\n", providerNames())
		return exitUsage
	}
	if *quiet {
		// The definitions are the output asked for; the notices are not.
		var done func(int)
		stdout, stderr, done = hush(stdout, stderr, true)
		defer func() { done(code) }()
	}
	providers, code := parseProviders("export", *provs, stderr)
	if code != exitOK {
		return code
	}
	if code := checkSchemas("export", *schemas, true, schemasHint, stderr); code != exitOK {
		return code
	}
	opts := gen.Options{OpenObjects: *open, Providers: providers}
	tools, err := gen.LoadAll(*schemas...)
	if err != nil {
		return reportLoad("export", loadProblems(err, gen.Analyze(tools, opts), fs, defaultLintConfig), stderr)
	}
	return export(provider.Provider(*prov), gen.Analyze(tools, opts), fs, stdout, stderr)
}

// export prints the definitions of set's tools for p as an indented JSON
// array.
// When it fails, it reports what generate would: the generator's problems
// with the certain lint findings (under toolgate-lint.json, when it
// exists; fl has no --lint-config).
func export(p provider.Provider, set *gen.Set, fl *pflag.FlagSet, stdout, stderr io.Writer) int {
	if !slices.Contains(provider.All, p) {
		fmt.Fprintf(stderr, "toolgate export: --provider must be one of %s\n", providerNames())
		return exitUsage
	}
	defs, leftOut, err := set.Export(p)
	if err != nil {
		return reportLoad("export", withRefusals(err, fl, defaultLintConfig, lintSet(set)), stderr)
	}
	list := make([]string, len(defs))
	for i, d := range defs {
		list[i] = d.JSON
	}
	// json.Indent keeps the bytes of each definition (no HTML escaping).
	var out bytes.Buffer
	if err := json.Indent(&out, []byte("["+strings.Join(list, ",")+"]"), "", "  "); err != nil {
		fmt.Fprintf(stderr, "toolgate export: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(stdout, "%s\n", out.Bytes())
	var loc lint.Locator
	for _, n := range leftOut {
		fmt.Fprintln(stderr, noticeLine("export", &loc, n))
	}
	return exitOK
}
