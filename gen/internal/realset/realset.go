// Package realset is the deterministic set of real tool schemas and valid
// calls that `make bench-real` measures side by side: functions of the
// Berkeley function-calling leaderboard with a call built from the
// corpus's own ground truth, and MCP tools (the GitHub MCP server, the
// captured tools/list responses, the Docker registry's) with the valid
// base instance runtime/contract derives from the schema (the MCP corpora
// hold no calls). BFCLCalls reads every BFCL ground-truth call with the
// function it calls, for gen's round-trip test. The corpora are read from
// ../shared/corpora at run time; nothing of them is copied into the
// repository.
package realset

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// A Tool is one real tool, renamed so that the names of the set do not
// collide (the source's prefix, dots as underscores).
type Tool struct {
	Name   string // tool name in the set, e.g. "github_issue_write"
	GoName string // its Go name (x-toolgate goName), e.g. "GithubIssueWrite"
	Source string // where it comes from: corpus file and entry
	// Parameters is the JSON Schema of the arguments (BFCL's dialect
	// translated, see BFCLSchema).
	Parameters  json.RawMessage
	Description string
	// Call is a valid call; CallSource says how it was made
	// ("ground truth <id>" or "contract base instance").
	Call       []byte
	CallSource string
}

// File returns the tool file toolgate generates the tool from.
func (t Tool) File() ([]byte, error) {
	return json.Marshal(struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
		Meta        map[string]any  `json:"x-toolgate"`
		Lint        map[string]any  `json:"x-toolgate-lint"`
	}{t.Name, t.Description, t.Parameters, map[string]any{"goName": t.GoName}, lintOff})
}

// lintOff disables the lint rule some corpus tools break (an acting
// user's id taken from the model): the set is measured, never dispatched.
var lintOff = map[string]any{"disable": []map[string]string{{
	"rule":   "trusted-identity",
	"reason": "a corpus tool measured by make bench-real, never dispatched",
}}}

// Load reads the set from corpora (the ../shared/corpora folder), in a
// fixed order: the BFCL functions, then the MCP tools.
func Load(corpora string) ([]Tool, error) {
	bfcl, err := loadBFCL(corpora)
	if err != nil {
		return nil, err
	}
	mcp, err := loadMCP(corpora)
	if err != nil {
		return nil, err
	}
	return append(bfcl, mcp...), nil
}

// rename gives a source's tool its name and Go name in the set.
func rename(prefix, name string) (string, string) {
	n := prefix + "_" + strings.NewReplacer(".", "_", " ", "_", "-", "_").Replace(name)
	var g strings.Builder
	for _, part := range strings.Split(n, "_") {
		if part == "" {
			continue
		}
		r := []rune(part)
		r[0] = unicode.ToUpper(r[0])
		g.WriteString(string(r))
	}
	return n, g.String()
}

// description makes a tool's description long enough for toolgate's lint
// (several corpus tools have a terse one or none).
func description(d, source string) string {
	d = strings.TrimSpace(d)
	if d == "" {
		d = "A real tool"
	}
	return fmt.Sprintf("%s (from %s; measured by make bench-real only).", strings.TrimSuffix(d, "."), source)
}
