package contract

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/schema"
)

// checkSource compares the canonical file with what the code was generated
// from, and explains a difference per provider.
func checkSource(t *testing.T, tool Tool) {
	data, err := os.ReadFile(tool.Source)
	if err != nil {
		t.Fatalf("tool %s: cannot read its canonical file: %v", tool.Name, err)
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) == tool.SourceSHA256 {
		return
	}
	msg := []string{fmt.Sprintf("tool %s: %s changed since the code was generated; run go generate", tool.Name, tool.Source)}
	desc, params, err := canonical(data, tool.Name)
	if err != nil {
		t.Fatalf("%s\n%v", msg[0], err)
	}
	now := schema.Effective(params, tool.OpenObjects)
	if ptr, d := difference(mustParse(t, tool.Schema), now, ""); ptr != "" || d != "" {
		msg = append(msg, fmt.Sprintf("effective schema: at %s: %s", orRoot(ptr), d))
	}
	nowTool := provider.Tool{Name: tool.Name, Description: desc, Schema: string(now.Marshal()), MCP: tool.MCP, Destructive: tool.Destructive}
	for _, def := range tool.Definitions {
		fresh, err := provider.Project(def.Provider, nowTool)
		if err != nil {
			msg = append(msg, fmt.Sprintf("provider %s: the tool would now be refused: %v", def.Provider, err))
			continue
		}
		if ptr, d := difference(mustParse(t, def.JSON), mustParse(t, fresh.JSON), ""); ptr != "" || d != "" {
			msg = append(msg, fmt.Sprintf("provider %s: the definition sent differs at %s: %s", def.Provider, orRoot(ptr), d))
		}
	}
	t.Error(strings.Join(msg, "\n\t"))
}

// findTool finds the named tool in a tool file (one tool, {"tools": [...]}
// or an array) and returns the tool object.
func findTool(data []byte, name string) (*jsonval.Value, error) {
	doc, err := jsonval.Parse(data)
	if err != nil {
		return nil, err
	}
	candidates := []*jsonval.Value{doc}
	switch {
	case doc.Kind == jsonval.Array:
		candidates = doc.Items
	case doc.Get("tools") != nil && doc.Get("name") == nil:
		candidates = doc.Get("tools").Items
	}
	for _, c := range candidates {
		if n := c.Get("name"); n != nil && n.Str == name {
			return c, nil
		}
	}
	return nil, fmt.Errorf("the file no longer defines tool %s", name)
}

// canonical finds the named tool in a tool file and returns its description
// and parameters schema.
func canonical(data []byte, name string) (string, *jsonval.Value, error) {
	c, err := findTool(data, name)
	if err != nil {
		return "", nil, err
	}
	params := c.Get("parameters")
	if params == nil {
		params = c.Get("inputSchema")
	}
	if params == nil {
		return "", nil, fmt.Errorf("tool %s has no parameters any more", name)
	}
	desc := ""
	if d := c.Get("description"); d != nil {
		desc = d.Str
	}
	return desc, params, nil
}
