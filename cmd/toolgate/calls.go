package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/callreplay"
)

// runTest is `toolgate test --calls DIR`: every recorded call must be
// decided as it was recorded, by the current schemas.
func runTest(args []string, stdout, stderr io.Writer) (code int) {
	fl := pflag.NewFlagSet("toolgate test", pflag.ContinueOnError)
	calls := fl.String("calls", "", "a folder of call records (runtime/callrecord fixtures)")
	schemas := fl.StringArray("schemas", []string{"schemas"}, "a folder of *.json tool files, or a tool file; repeatable")
	open := fl.Bool("open-objects", false, "an object schema without additionalProperties is open (plain JSON Schema)")
	quiet := quietFlag(fl)
	setUsage(fl, "toolgate test --calls DIR [flags]",
		"Replays every recorded call against the tools in --schemas and exits 1 when\none is not decided as recorded (accepted, or refused for the same keywords)\nor cannot be replayed (a record the masking could not make replayable\nwithout keeping a secret: delete it, or record the call again).",
		"toolgate test --calls runtime/callrecord/testdata/refund_order --schemas ./schemas")
	if code, ok := parseFlags(fl, args, stdout, stderr); !ok {
		return code
	}
	if *calls == "" {
		fmt.Fprintln(stderr, "toolgate test: --calls is required")
		fl.Usage()
		return exitUsage
	}
	if *quiet {
		var done func(int)
		stdout, stderr, done = hush(stdout, stderr, false)
		defer func() { done(code) }()
	}
	if code := checkSchemas("test", []string{*calls}, false, callsHint, stderr); code != exitOK {
		return code
	}
	if code := checkSchemas("test", *schemas, true, schemasHint, stderr); code != exitOK {
		return code
	}
	entries, err := callreplay.LoadDir(*calls)
	if err != nil {
		return reportLoad("test", err, stderr)
	}
	tools, err := gen.Load(*schemas...)
	if err != nil {
		return reportLoad("test", err, stderr)
	}
	set, err := callreplay.Compile(gen.Analyze(tools, gen.Options{OpenObjects: *open}))
	if err != nil {
		return reportLoad("test", err, stderr)
	}
	failed, unreplayable := 0, 0
	for _, e := range entries {
		want, got := callreplay.Recorded(e.Record), set.Decide(e.Record)
		name := filepath.Base(e.File)
		switch {
		case got.Code == callreplay.NotReplayable:
			unreplayable++
			fmt.Fprintf(stdout, "UNREPLAYABLE  %s: recorded %s; not replayable: %q\n", name, want, e.Record.Reason)
		case callreplay.Agrees(want, got):
			fmt.Fprintf(stdout, "ok    %s: %s\n", name, got)
		default:
			failed++
			fmt.Fprintf(stdout, "FAIL  %s: recorded %s, now %s%s\n", name, want, got, versionNote(e.Record.Version, set.Version(e.Record.Tool)))
		}
	}
	fmt.Fprintf(stdout, "%d call(s): %d as recorded, %d changed, %d not replayable\n", len(entries), len(entries)-failed-unreplayable, failed, unreplayable)
	if failed > 0 || unreplayable > 0 {
		return exitDrift
	}
	return exitOK
}

// callsHint says what --calls takes, after a folder that does not exist.
const callsHint = "--calls names a folder of call records (runtime/callrecord fixtures)"

func versionNote(recorded, now string) string {
	if recorded == now {
		return ""
	}
	return fmt.Sprintf(" (recorded against %s, now %s)", recorded, now)
}

// callChange is a recorded call whose outcome changes.
type callChange struct {
	Class string `json:"class"`
	File  string `json:"file"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// callsReport is the replay of recorded calls against OLD and NEW.
type callsReport struct {
	Replayed int `json:"replayed"`
	Breaking int `json:"breaking"`
	Widening int `json:"widening"`
	// Unreplayable counts the records without arguments to replay; each is
	// a change of class "not replayable".
	Unreplayable int          `json:"unreplayable"`
	Changes      []callChange `json:"changes"`
}

// replayDiff decides the recorded calls in dir against old and new and
// reports each call whose outcome changes: accepted → refused is breaking
// (for queued calls), refused → accepted widening; and each record that
// cannot be replayed, which is neither and not unchanged.
func replayDiff(dir string, oldSet, newSet *gen.Set, stderr io.Writer) (*callsReport, int) {
	entries, err := callreplay.LoadDir(dir)
	if err != nil {
		return nil, reportLoad("diff", err, stderr)
	}
	o, err := callreplay.Compile(oldSet)
	if err != nil {
		return nil, reportLoad("diff", err, stderr)
	}
	n, err := callreplay.Compile(newSet)
	if err != nil {
		return nil, reportLoad("diff", err, stderr)
	}
	r := &callsReport{Replayed: len(entries), Changes: []callChange{}}
	for _, e := range entries {
		a, b := o.Decide(e.Record), n.Decide(e.Record)
		class := ""
		switch {
		case a.Code == callreplay.NotReplayable:
			class = "not replayable"
			r.Unreplayable++
			a, b = callreplay.Recorded(e.Record), callreplay.Outcome{Code: strconv.Quote(e.Record.Reason)}
		case a.Accepted() && !b.Accepted():
			class = "breaking"
			r.Breaking++
		case !a.Accepted() && b.Accepted():
			class = "widening"
			r.Widening++
		default:
			continue
		}
		r.Changes = append(r.Changes, callChange{class, filepath.Base(e.File), a.String(), b.String()})
	}
	return r, exitOK
}

// write renders r for people (human) or a pull request (markdown).
func (r *callsReport) write(w io.Writer, format string) error {
	summary := fmt.Sprintf("%d recorded call(s) replayed: %d accepted → refused (breaking for queued calls), %d refused → accepted (widening), %d not replayable, %d unchanged", r.Replayed, r.Breaking, r.Widening, r.Unreplayable, r.Replayed-r.Breaking-r.Widening-r.Unreplayable)
	if format == "markdown" {
		fmt.Fprintf(w, "### Recorded calls: %s\n\n", summary)
		if len(r.Changes) > 0 {
			fmt.Fprintf(w, "| change | call | old | new |\n|---|---|---|---|\n")
			for _, c := range r.Changes {
				fmt.Fprintf(w, "| %s | `%s` | %s | %s |\n", c.Class, c.File, c.Old, c.New)
			}
			fmt.Fprintln(w)
		}
		return nil
	}
	fmt.Fprintln(w, "recorded calls:")
	for _, c := range r.Changes {
		if c.Class == "not replayable" {
			fmt.Fprintf(w, "  %s %s: recorded %s; %s\n", c.Class, c.File, c.Old, c.New)
			continue
		}
		fmt.Fprintf(w, "  %-10s %s: %s → %s\n", c.Class, c.File, c.Old, c.New)
	}
	_, err := fmt.Fprintln(w, summary)
	return err
}
