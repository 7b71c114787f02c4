package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
)

// WriteHuman writes one finding a line, then the totals (with the invalid
// tool definitions, when there are any) and the count per rule.
func WriteHuman(w io.Writer, r *Result) error {
	var n [3]int
	for _, f := range r.Findings {
		n[f.Severity]++
		if _, err := fmt.Fprintf(w, "%s [%s]\n", f, f.Tool); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "%d error(s), %d warning(s), %d hint(s)", n[Error], n[Warning], n[Hint])
	if len(r.Invalid) > 0 {
		fmt.Fprintf(w, "; %d invalid tool definition(s)", len(r.Invalid))
	}
	fmt.Fprintln(w)
	counts := r.Counts()
	for _, id := range sortedKeys(counts) {
		fmt.Fprintf(w, "  %-22s %d\n", id, counts[id])
	}
	for _, id := range sortedKeys(r.Suppressed) {
		fmt.Fprintf(w, "  %-22s %d disabled with a reason\n", id, r.Suppressed[id])
	}
	return nil
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

type jsonFinding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Tool     string `json:"tool"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Pointer  string `json:"pointer"`
	Message  string `json:"message"`
}

// WriteJSON writes {"findings": [...], "counts": {...}, "suppressed": {...}}.
func WriteJSON(w io.Writer, r *Result) error {
	out := struct {
		Findings   []jsonFinding  `json:"findings"`
		Counts     map[string]int `json:"counts"`
		Suppressed map[string]int `json:"suppressed"`
	}{Findings: []jsonFinding{}, Counts: r.Counts(), Suppressed: r.Suppressed}
	for _, f := range r.Findings {
		out.Findings = append(out.Findings, jsonFinding{f.Rule, f.Severity.String(), f.Tool, filepath.ToSlash(f.File), f.Pos.Line, f.Pos.Column, f.Pointer, f.Message})
	}
	return encode(w, out)
}

func encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// SARIF 2.1.0, the subset code-scanning tools read.
type (
	sarifLog struct {
		Version string     `json:"version"`
		Schema  string     `json:"$schema"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool     `json:"tool"`
		ColumnKind string        `json:"columnKind"`
		Results    []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string       `json:"id"`
		ShortDescription     sarifText    `json:"shortDescription"`
		DefaultConfiguration sarifDefault `json:"defaultConfiguration"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifDefault struct {
		Level string `json:"level"`
	}
	sarifResult struct {
		RuleID    string          `json:"ruleId"`
		RuleIndex int             `json:"ruleIndex"`
		Level     string          `json:"level"`
		Message   sarifText       `json:"message"`
		Locations []sarifLocation `json:"locations"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
	}
)

func sarifLevel(s Severity) string { return [...]string{"note", "warning", "error"}[s] }

// WriteSARIF writes a SARIF 2.1.0 log with every rule and finding;
// version is toolgate's (tool.driver.version).
func WriteSARIF(w io.Writer, r *Result, version string) error {
	run := sarifRun{ColumnKind: "unicodeCodePoints", Results: []sarifResult{}}
	run.Tool.Driver = sarifDriver{Name: "toolgate", Version: version, InformationURI: "https://github.com/toolgate/toolgate"}
	index := map[string]int{}
	for i, rule := range Rules {
		index[rule.ID] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{rule.ID, sarifText{rule.Summary}, sarifDefault{sarifLevel(rule.Severity)}})
	}
	for _, f := range r.Findings {
		run.Results = append(run.Results, sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity), Message: sarifText{f.Message},
			Locations: []sarifLocation{{sarifPhysical{sarifArtifact{fileURI(f.File)}, sarifRegion{f.Pos.Line, f.Pos.Column}}}},
		})
	}
	return encode(w, sarifLog{Version: "2.1.0", Schema: "https://json.schemastore.org/sarif-2.1.0.json", Runs: []sarifRun{run}})
}

// fileURI is the URI reference of a file for SARIF (RFC 3986): a relative
// path stays relative, with forward slashes, an absolute one is a file: URI,
// and every byte but an unreserved one and the slash is percent-encoded, so
// that "plan #2.json" is plan%20%232.json, not "plan " and a fragment.
func fileURI(file string) string {
	p := filepath.ToSlash(file)
	prefix := ""
	if filepath.IsAbs(file) {
		prefix = "file://"
		if !strings.HasPrefix(p, "/") {
			prefix += "/" // C:/dir/a.json
		}
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString(prefix)
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~', c == '/':
			b.WriteByte(c)
		case c == ':' && prefix != "" && i == 1:
			b.WriteByte(c) // the drive letter's colon of file:///C:/...
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}
