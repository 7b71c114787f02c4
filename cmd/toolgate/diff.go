package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/schemadiff"
)

// defaultDiffConfig is read when --diff-config is not given and it exists.
const defaultDiffConfig = "toolgate-diff.json"

func runDiff(args []string, stdout, stderr io.Writer) (code int) {
	fl := pflag.NewFlagSet("toolgate diff", pflag.ContinueOnError)
	base := fl.String("base", "", "compare --schemas with the same paths at this git revision (instead of OLD NEW)")
	schemas := fl.StringArray("schemas", []string{"schemas"}, "with --base: a folder of *.json tool files, or a tool file; repeatable")
	format := fl.String("format", "human", "the output: human, json, markdown or github (workflow-command annotations)")
	cfgPath := fl.String("diff-config", defaultDiffConfig, "the breaking changes accepted, each with a reason")
	open := fl.Bool("open-objects", false, "an object schema without additionalProperties is open (plain JSON Schema)")
	calls := fl.String("calls", "", "also replay the call records in this folder against OLD and NEW and report each whose outcome changes")
	quiet := quietFlag(fl)
	setUsage(fl, "toolgate diff [flags] OLD NEW\n       toolgate diff --base REV [--schemas PATH]... [flags]",
		"Classifies every change of every tool from OLD to NEW (folders or tool files)\nas breaking, widening or compatible, for callers and for queued calls; exits 1\non a breaking change no --diff-config entry allows, or (--calls) on a recorded\ncall the old schemas accept and the new ones refuse.",
		"toolgate diff --base origin/main --format markdown")
	if code, ok := parseArgs(fl, args, stdout, stderr); !ok {
		return code
	}
	if (*base == "") != (fl.NArg() == 2) || (*base != "" && fl.NArg() != 0) || (*base == "" && fl.Changed("schemas")) {
		fmt.Fprintf(stderr, "toolgate diff: give OLD and NEW, or --base REV (with --schemas)\n")
		fl.Usage()
		return exitUsage
	}
	if !slices.Contains([]string{"human", "json", "markdown", "github"}, *format) {
		fmt.Fprintf(stderr, "toolgate diff: --format must be human, json, markdown or github, not %q\n", *format)
		return exitUsage
	}
	if *quiet {
		var done func(int)
		stdout, stderr, done = hush(stdout, stderr, *format != "human")
		defer func() { done(code) }()
	}
	// A folder without tool files is a set of no tools (a revision before
	// they existed); a path that does not exist is a mistake.
	if *base != "" {
		code = checkSchemas("diff", *schemas, false, schemasHint, stderr)
	} else {
		code = checkSchemas("diff", fl.Args(), false, "OLD and NEW name folders of *.json tool files or files", stderr)
	}
	if code == exitOK && *calls != "" {
		code = checkSchemas("diff", []string{*calls}, false, callsHint, stderr)
	}
	if code != exitOK {
		return code
	}
	var cfg schemadiff.Config
	if _, err := os.Stat(*cfgPath); fl.Changed("diff-config") || !errors.Is(err, fs.ErrNotExist) {
		c, err := schemadiff.LoadConfig(*cfgPath)
		if err != nil {
			fmt.Fprintf(stderr, "toolgate diff: %v\n", err)
			var ce *schemadiff.ConfigError
			if errors.As(err, &ce) {
				return exitInvalid
			}
			return exitFailure
		}
		cfg = c
	}
	oldPaths, newPaths := []string{fl.Arg(0)}, []string{fl.Arg(1)}
	if *base != "" {
		dir, err := os.MkdirTemp("", "toolgate-diff-")
		if err != nil {
			fmt.Fprintf(stderr, "toolgate diff: %v\n", err)
			return exitFailure
		}
		defer os.RemoveAll(dir)
		oldPaths, err = checkout(*base, *schemas, dir)
		if err != nil {
			fmt.Fprintf(stderr, "toolgate diff: --base %s: %v\n", *base, err)
			return exitFailure
		}
		newPaths = *schemas
	}
	oldTools, err := loadOrEmpty(oldPaths)
	if err != nil {
		return reportLoad("diff", err, stderr)
	}
	newTools, err := loadOrEmpty(newPaths)
	if err != nil {
		return reportLoad("diff", err, stderr)
	}
	// One analysis of each side serves the comparison and the replay.
	opts := gen.Options{OpenObjects: *open}
	oldSet, newSet := gen.Analyze(oldTools, opts), gen.Analyze(newTools, opts)
	rep, err := schemadiff.Compare(oldSet, newSet, cfg)
	if err != nil {
		return reportLoad("diff", err, stderr)
	}
	n, allowed := rep.Count(schemadiff.Breaking)
	var cr *callsReport
	if *calls != "" {
		var code int
		if cr, code = replayDiff(*calls, oldSet, newSet, stderr); code != exitOK {
			return code
		}
		n += cr.Breaking
	}
	switch {
	case *format == "json" && cr != nil:
		err = schemadiff.Encode(stdout, struct {
			schemadiff.JSONReport
			Calls *callsReport `json:"calls"`
		}{schemadiff.ToJSON(rep), cr})
	case *format == "json":
		err = schemadiff.WriteJSON(stdout, rep)
	case *format == "markdown":
		err = schemadiff.WriteMarkdown(stdout, rep)
	case *format == "github":
		err = writeDiffGitHub(stdout, rep, newTools, oldTools)
	default:
		err = schemadiff.WriteHuman(stdout, rep)
	}
	if err == nil && cr != nil && *format != "json" && *format != "github" {
		fmt.Fprintln(stdout)
		err = cr.write(stdout, *format)
	}
	if err != nil {
		fmt.Fprintf(stderr, "toolgate diff: %v\n", err)
		return exitFailure
	}
	if n > allowed {
		return exitDrift
	}
	return exitOK
}

// writeDiffGitHub writes a change a line as a workflow-command annotation
// on the file of the tool (the new one, the old one for a removed tool): a
// breaking change no config allows is ::error, one allowed ::warning, the
// others ::notice, titled with the kind of change.
func writeDiffGitHub(w io.Writer, r *schemadiff.Report, newTools, oldTools []*gen.Tool) error {
	files := map[string]string{}
	for _, list := range [][]*gen.Tool{oldTools, newTools} {
		for _, t := range list {
			files[t.Name] = t.File
		}
	}
	for _, t := range r.Tools {
		for _, c := range t.Changes {
			level := "notice"
			if c.Worst() == schemadiff.Breaking {
				level = "error"
				if c.Allowed != "" {
					level = "warning"
				}
			}
			msg := fmt.Sprintf("%s: %s %s (callers: %s, queued calls: %s)", t.Name, c.Worst(), c.Kind, c.Callers, c.Queued)
			if c.Pointer != "" {
				msg += " at " + c.Pointer
			}
			if c.Allowed != "" {
				msg += "; allowed: " + c.Allowed
			}
			if _, err := fmt.Fprintln(w, annotation(level, files[t.Name], 0, 0, c.Kind, msg)); err != nil {
				return err
			}
		}
	}
	return nil
}

// loadOrEmpty loads tool files; a folder with none (a revision before the
// tools existed) is an empty set, not an error.
func loadOrEmpty(paths []string) ([]*gen.Tool, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	tools, err := gen.Load(paths...)
	var ge *gen.Error
	if errors.As(err, &ge) && strings.HasPrefix(ge.Message, "no tools found") {
		return nil, nil
	}
	return tools, err
}

// checkout writes the tool files that paths named at git revision rev
// into dir and returns their paths there. A folder contributes its *.json
// files, as gen.Load reads them, and a file or folder the *.json files in
// the subfolders beside it, the definitions files its tools may reference;
// a path missing at rev contributes nothing.
func checkout(rev string, paths []string, dir string) ([]string, error) {
	git := func(args ...string) ([]byte, error) {
		cmd := exec.Command("git", args...)
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
		}
		return out, nil
	}
	if _, err := git("rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("not a commit in this repository")
	}
	prefix, err := git("rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range paths {
		rel := path.Clean(strings.TrimSpace(string(prefix)) + filepath.ToSlash(p))
		list, err := git("ls-tree", "--name-only", "--full-tree", rev, "--", rel, rel+"/")
		if err != nil {
			return nil, err
		}
		var files []string
		for _, f := range strings.Split(strings.TrimSpace(string(list)), "\n") {
			if f == rel || (strings.HasSuffix(f, ".json") && path.Dir(f) == rel) {
				files = append(files, f)
			}
		}
		if len(files) > 0 {
			folder := rel
			if files[0] == rel {
				folder = path.Dir(rel)
			}
			defs, err := git("ls-tree", "-r", "--name-only", "--full-tree", rev, "--", folder+"/")
			if err != nil {
				return nil, err
			}
			for _, f := range strings.Split(strings.TrimSpace(string(defs)), "\n") {
				if strings.HasSuffix(f, ".json") && path.Dir(f) != folder {
					files = append(files, f)
				}
			}
		}
		target := filepath.Join(dir, filepath.FromSlash(rel))
		for _, f := range files {
			data, err := git("show", rev+":"+f)
			if err != nil {
				return nil, err
			}
			name := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(name, data, 0o644); err != nil {
				return nil, err
			}
		}
		if len(files) > 0 {
			out = append(out, target)
		}
	}
	return out, nil
}
