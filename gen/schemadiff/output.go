package schemadiff

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

func versions(t ToolDiff) string {
	switch {
	case t.OldVersion == "":
		return "new, " + t.NewVersion
	case t.NewVersion == "":
		return "removed, was " + t.OldVersion
	case t.OldVersion == t.NewVersion:
		return t.NewVersion
	}
	return t.OldVersion + " → " + t.NewVersion
}

func summary(r *Report) string {
	b, ba := r.Count(Breaking)
	w, _ := r.Count(Widening)
	c, _ := r.Count(Compatible)
	return fmt.Sprintf("%d breaking (%d allowed), %d widening, %d compatible", b, ba, w, c)
}

func classes(c Change) string {
	return fmt.Sprintf("callers: %s, queued calls: %s", c.Callers, c.Queued)
}

// WriteHuman writes each tool's changes, worst first, then the totals.
func WriteHuman(w io.Writer, r *Report) error {
	for _, t := range r.Tools {
		fmt.Fprintf(w, "%s (%s)\n", t.Name, versions(t))
		for _, c := range t.Changes {
			fmt.Fprintf(w, "  %-10s %s [%s]\n", c.Worst(), describe(c), classes(c))
			if c.Allowed != "" {
				fmt.Fprintf(w, "             allowed: %s\n", c.Allowed)
			}
		}
	}
	_, err := fmt.Fprintln(w, summary(r))
	return err
}

// WriteMarkdown writes a PR comment: a table per tool.
func WriteMarkdown(w io.Writer, r *Report) error {
	fmt.Fprintf(w, "### toolgate diff: %s\n\n", summary(r))
	esc := func(s string) string {
		return strings.NewReplacer("|", `\|`, "\n", " ", "`", "'").Replace(s)
	}
	for _, t := range r.Tools {
		fmt.Fprintf(w, "#### `%s` (%s)\n\n| change | where | old | new | callers | queued calls |\n|---|---|---|---|---|---|\n", t.Name, esc(versions(t)))
		for _, c := range t.Changes {
			what := "**" + c.Kind + "**"
			if c.Worst() != Breaking {
				what = c.Kind
			}
			if c.Allowed != "" {
				what += " (allowed: " + esc(c.Allowed) + ")"
			}
			where := c.Pointer
			if where == "" {
				where = "(tool)"
			}
			fmt.Fprintf(w, "| %s | `%s` | %s | %s | %s | %s |\n", what, esc(where), code(esc(c.Old)), code(esc(c.New)), c.Callers, c.Queued)
		}
		fmt.Fprintln(w)
	}
	return nil
}

func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + s + "`"
}

type jsonChange struct {
	Kind    string `json:"kind"`
	Pointer string `json:"pointer"`
	Old     string `json:"old,omitempty"`
	New     string `json:"new,omitempty"`
	Callers string `json:"callers"`
	Queued  string `json:"queued"`
	Allowed string `json:"allowed,omitempty"`
}

type jsonTool struct {
	Name       string       `json:"name"`
	OldVersion string       `json:"oldVersion,omitempty"`
	NewVersion string       `json:"newVersion,omitempty"`
	Changes    []jsonChange `json:"changes"`
}

// JSONReport is the JSON form of a Report.
type JSONReport struct {
	Tools      []jsonTool `json:"tools"`
	Breaking   int        `json:"breaking"`
	Allowed    int        `json:"allowed"`
	Widening   int        `json:"widening"`
	Compatible int        `json:"compatible"`
}

// WriteJSON writes {"tools": [...], "breaking": n, "allowed": n, "widening": n, "compatible": n}.
func WriteJSON(w io.Writer, r *Report) error { return Encode(w, ToJSON(r)) }

// Encode writes v as indented JSON without HTML escaping.
func Encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// ToJSON returns the JSON form of r.
func ToJSON(r *Report) JSONReport {
	out := JSONReport{Tools: []jsonTool{}}
	out.Breaking, out.Allowed = r.Count(Breaking)
	out.Widening, _ = r.Count(Widening)
	out.Compatible, _ = r.Count(Compatible)
	for _, t := range r.Tools {
		jt := jsonTool{Name: t.Name, OldVersion: t.OldVersion, NewVersion: t.NewVersion, Changes: []jsonChange{}}
		for _, c := range t.Changes {
			jt.Changes = append(jt.Changes, jsonChange{c.Kind, c.Pointer, c.Old, c.New, c.Callers.String(), c.Queued.String(), c.Allowed})
		}
		out.Tools = append(out.Tools, jt)
	}
	return out
}
