package realset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/runtime/contract"
)

// mcpTools are the MCP tools the set takes, as (file under mcp/, prefix,
// tool name): enums with bounded integers (list_issues, search_code),
// oneOf and anyOf (update_issue_labels, issue_write, projects_write,
// get_ip_details), type arrays with null, closed nested objects in arrays
// (push_files, set_issue_fields, create_entities), patterns, formats and
// exclusive bounds (the Cloudflare Radar tools, fetch), minItems
// (read_multiple_files) and plain string-only tools (Okta, Alfresco).
var mcpTools = []struct{ file, prefix, name string }{
	{"github/issue_write.snap", "github", "issue_write"},
	{"github/list_issues.snap", "github", "list_issues"},
	{"github/search_code.snap", "github", "search_code"},
	{"github/update_issue_labels.snap", "github", "update_issue_labels"},
	{"github/set_issue_fields.snap", "github", "set_issue_fields"},
	{"github/push_files.snap", "github", "push_files"},
	{"github/projects_write.snap", "github", "projects_write"},
	{"github/pull_request_read.snap", "github", "pull_request_read"},
	{"captured-tools-list/cloudflare-radar.json", "radar", "get_http_data"},
	{"captured-tools-list/cloudflare-radar.json", "radar", "get_traffic_anomalies"},
	{"captured-tools-list/cloudflare-radar.json", "radar", "get_ip_details"},
	{"captured-tools-list/mcp-server-fetch.json", "mcpfetch", "fetch"},
	{"captured-tools-list/server-memory.json", "memory", "create_entities"},
	{"captured-tools-list/server-filesystem.json", "fs", "read_multiple_files"},
	{"captured-tools-list/server-filesystem.json", "fs", "edit_file"},
	{"captured-tools-list/server-github.json", "ghserver", "create_pull_request_review"},
	{"docker-registry/okta-mcp-server.tools.json", "okta", "create_device_assurance_policy"},
	{"docker-registry/alfresco.tools.json", "alfresco", "create_node"},
}

type mcpTool struct {
	Name        string
	Description string
	InputSchema json.RawMessage
}

func loadMCP(corpora string) ([]Tool, error) {
	var out []Tool
	for _, sel := range mcpTools {
		path := filepath.Join(corpora, "mcp", sel.file)
		t, err := mcpFind(path, sel.name)
		if err != nil {
			return nil, err
		}
		inst, err := contract.Instances(t.InputSchema, 1)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", path, sel.name, err)
		}
		name, goName := rename(sel.prefix, sel.name)
		source := fmt.Sprintf("mcp/%s %s", sel.file, sel.name)
		out = append(out, Tool{
			Name:        name,
			GoName:      goName,
			Source:      source,
			Parameters:  t.InputSchema,
			Description: description(t.Description, source),
			Call:        inst[0].JSON,
			CallSource:  "contract base instance",
		})
	}
	return out, nil
}

// mcpFind reads the tool named name from a file holding one tool (a .snap),
// a tools list, or a captured tools/list response ({"tools": [...]}).
func mcpFind(path, name string) (mcpTool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return mcpTool{}, err
	}
	var tools []mcpTool
	switch data = bytes.TrimSpace(data); {
	case bytes.HasPrefix(data, []byte("[")):
		err = json.Unmarshal(data, &tools)
	default:
		var doc struct {
			mcpTool
			Tools []mcpTool
		}
		err = json.Unmarshal(data, &doc)
		tools = append(doc.Tools, doc.mcpTool)
	}
	if err != nil {
		return mcpTool{}, fmt.Errorf("%s: %w", path, err)
	}
	for _, t := range tools {
		if t.Name == name {
			return t, nil
		}
	}
	return mcpTool{}, fmt.Errorf("%s: no tool %q", path, name)
}
