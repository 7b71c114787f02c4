package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolgate/toolgate/gen/internal/workers"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
)

// A Tool is one canonical tool definition as read from a file.
type Tool struct {
	Name        string
	Description string
	// File is the path the tool was read from, as given to Load.
	File string
	// Pointer locates the tool inside File ("" for a one-tool file,
	// "/tools/3" for a list).
	Pointer string
	// SourceSHA256 is the hex SHA-256 of File's bytes.
	SourceSHA256 string
	// Meta is the parsed x-toolgate metadata.
	Meta Meta

	params    *jsonval.Value // the parameters (or MCP inputSchema) schema
	paramsKey string         // "parameters" or "inputSchema"
	output    *jsonval.Value // the result's schema (outputSchema), or nil
	mcpExtras []jsonval.Member
	memoed    *toolMemo // memo.go
	// warnings are what loading accepted with a caveat (an implied root
	// type); Generate reports them with the model's.
	warnings []Warning
	// declared is the parameters schema as the file declares it, when
	// impliedObjectRoot read it otherwise (params).
	declared *jsonval.Value
}

// Meta is a tool's optional toolgate metadata, the "x-toolgate" member of
// its file.
type Meta struct {
	// GoName overrides the Go name derived from the tool name.
	GoName string
	// Version overrides the schema version (a content hash by default).
	Version string
	// Roles, when non-empty, limits the tool to principals with one of them.
	Roles []string
	// Sensitive marks every argument as sensitive: messages never echo them.
	Sensitive bool
	// Destructive marks a tool whose calls change state irreversibly
	// (x-toolgate destructive, or MCP's annotations.destructiveHint).
	Destructive bool
	// ReadOnly and Idempotent are MCP's annotations.readOnlyHint and
	// idempotentHint: the tool changes nothing, or calling it again with
	// the same arguments changes nothing more.
	ReadOnly, Idempotent bool
	// Timeout is a Go duration string bounding one execution.
	Timeout string
	// Providers are the model providers the tool is exported to; a listed
	// provider that cannot carry the tool faithfully is a generation error.
	// Empty: Options.Providers, else every provider that can carry it.
	Providers []provider.Provider
	// Approval is "required" (every call waits for a person's approval),
	// "policy" (the binding's NeedsApproval decides per call) or "" (none).
	Approval string
	// Approvers are the roles that may approve; required with Approval.
	Approvers []string
	// SelfApproval lets the requester approve their own call.
	SelfApproval bool
}

// toolNameRule is MCP's rule for tool names.
var toolNameRule = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// nameProblem says what in a name breaks toolNameRule.
func nameProblem(name string) string {
	for _, r := range name {
		if !(r < utf8.RuneSelf && toolNameRule.MatchString(string(r))) {
			return fmt.Sprintf("%q is not allowed", r)
		}
	}
	if name == "" {
		return "it is empty"
	}
	return fmt.Sprintf("it is %d bytes long", len(name))
}

// Load reads tool files. Each path is a file or a directory; a directory
// contributes its *.json files (not recursively), in name order. Finding no
// tool at all is an error: generating from nothing would remove every
// generated file. A file
// holds one tool (canonical or MCP form), a list of tools ({"tools": [...]},
// as an MCP tools/list result), or a JSON array of tools.
func Load(paths ...string) ([]*Tool, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var matches []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
				matches = append(matches, filepath.Join(p, e.Name()))
			}
		}
		files = append(files, matches...)
	}
	var errs ErrorList
	var tools []*Tool
	byName := map[string]*Tool{}
	// Files are read and parsed in parallel; tool names are checked in file
	// order.
	loaded, loadErrs := workers.Map(len(files), func(i int) ([]*Tool, error) { return loadFile(files[i]) })
	for i, ts := range loaded {
		if loadErrs[i] != nil {
			errs = append(errs, loadErrs[i])
			continue
		}
		for _, t := range ts {
			if prev, dup := byName[t.Name]; dup {
				errs = append(errs, &Error{File: t.File, Pointer: t.Pointer, Message: fmt.Sprintf("tool name %q is also defined in %s", t.Name, prev.where())})
				continue
			}
			byName[t.Name] = t
			tools = append(tools, t)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if len(tools) == 0 {
		return nil, &Error{File: strings.Join(paths, ", "), Message: "no tools found (a folder contributes its *.json files)"}
	}
	return tools, nil
}

func loadFile(path string) ([]*Tool, error) {
	data, err := ReadToolFile(path)
	if err != nil {
		return nil, err
	}
	return parseToolFile(path, data)
}

func parseToolFile(path string, data []byte) ([]*Tool, error) {
	doc, err := jsonval.Parse(data)
	if err != nil {
		return nil, &Error{File: path, Message: err.Error()}
	}
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:])
	var list *jsonval.Value
	base := ""
	switch {
	case doc.Kind == jsonval.Array:
		list = doc
	case doc.Kind == jsonval.Object && doc.Has("tools") && !doc.Has("name"):
		for _, m := range doc.Members {
			switch m.Key {
			case "tools", "nextCursor", "_meta", "serverInfo", "server_info":
			case "server", "url", "transport", "auth":
				// A capture's note of where the list came from (mcp-proxy's
				// snapshots); like serverInfo, it never reaches the code.
			default:
				if !strings.HasPrefix(m.Key, "x-") {
					return nil, &Error{File: path, Pointer: "/" + escapePointer(m.Key), Message: fmt.Sprintf("unknown member %q in a tool list (want tools, nextCursor, _meta, serverInfo, a capture's server, url, transport or auth, or x-*)", m.Key)}
				}
			}
		}
		list, base = doc.Get("tools"), "/tools"
		if list.Kind != jsonval.Array {
			return nil, &Error{File: path, Pointer: base, Message: "tools must be an array"}
		}
	case doc.Kind == jsonval.Object:
		t, err := parseTool(path, "", doc)
		if err != nil {
			return nil, err
		}
		t.SourceSHA256 = hash
		return []*Tool{t}, nil
	default:
		return nil, &Error{File: path, Message: "a tool file holds a JSON object or an array of tools"}
	}
	var errs ErrorList
	var tools []*Tool
	for i, item := range list.Items {
		t, err := parseTool(path, fmt.Sprintf("%s/%d", base, i), item)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		t.SourceSHA256 = hash
		tools = append(tools, t)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return tools, nil
}

func parseTool(path, ptr string, obj *jsonval.Value) (*Tool, error) {
	fail := func(at, format string, args ...any) error {
		return &Error{File: path, Pointer: ptr + at, Message: fmt.Sprintf(format, args...)}
	}
	if obj.Kind != jsonval.Object {
		return nil, fail("", "a tool is a JSON object, not %s", obj.Kind)
	}
	t := &Tool{File: path, Pointer: ptr, memoed: &toolMemo{}}
	for _, m := range obj.Members {
		at := "/" + escapePointer(m.Key)
		switch m.Key {
		case "name", "description":
			if m.Value.Kind != jsonval.String {
				return nil, fail(at, "%s must be a string", m.Key)
			}
			if err := checkText("the tool "+m.Key, m.Value.Str); err != nil {
				return nil, fail(at, "%v", err)
			}
			if m.Key == "name" {
				t.Name = m.Value.Str
			} else {
				t.Description = m.Value.Str
			}
		case "parameters", "inputSchema":
			if t.paramsKey != "" {
				return nil, fail(at, "a tool has either parameters or inputSchema, not both")
			}
			t.params, t.paramsKey = m.Value, m.Key
		case "title", "annotations", "outputSchema", "_meta", "icons", "execution":
			if m.Key == "outputSchema" {
				t.output = m.Value
			}
			t.mcpExtras = append(t.mcpExtras, m)
		case "x-toolgate":
			meta, err := parseMeta(m.Value)
			if err != nil {
				return nil, fail(at, "%v", err)
			}
			t.Meta = meta
		default:
			if !strings.HasPrefix(m.Key, "x-") {
				return nil, fail(at, "unknown member %q (a tool has name, description, parameters or inputSchema, MCP's title, annotations, outputSchema, icons, execution and _meta, and x-* extensions)", m.Key)
			}
		}
	}
	switch {
	case t.Name == "" && !obj.Has("name"):
		return nil, fail("", "the tool has no name")
	case !toolNameRule.MatchString(t.Name):
		return nil, fail("/name", "tool name %q does not match [A-Za-z0-9_.-]{1,128}, MCP's rule (%s): an invalid definition, refused whatever the flags; toolgate never renames a tool, so fix the name in the file", t.Name, nameProblem(t.Name))
	case t.params == nil:
		return nil, fail("", "tool %q has no parameters (or inputSchema)", t.Name)
	}
	if at, err := t.hints(); err != nil {
		return nil, fail(at, "%v", err)
	}
	if err := checkSchemaText(path, ptr+"/"+t.paramsKey, t.params); err != nil {
		return nil, err
	}
	t.impliedObjectRoot()
	if t.output != nil {
		if err := checkSchemaText(path, ptr+"/outputSchema", t.output); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// impliedObjectRoot reads a root schema that declares properties but no
// type as an object, as MCP clients read an inputSchema, with a warning:
// the effective schema then says "type": "object". A root with a type, or
// without properties, is left as it is (the generator refuses a root that
// is not an object).
func (t *Tool) impliedObjectRoot() {
	p := t.params
	if p.Kind != jsonval.Object || p.Has("type") || !p.Has("properties") {
		return
	}
	members := append([]jsonval.Member{{Key: "type", Value: &jsonval.Value{Kind: jsonval.String, Str: "object"}}}, p.Members...)
	t.params, t.declared = &jsonval.Value{Kind: jsonval.Object, Members: members}, p
	t.warnings = append(t.warnings, Warning{Kind: WarnRootType, File: t.File, Pointer: t.Pointer + "/" + t.paramsKey, Tool: t.Name,
		Message: `the schema declares properties but no type: it is read as "type": "object", as MCP clients read it, and the effective schema says so`})
}

// asDeclared is t with its parameters schema as the file declares it, for
// Options.ValueRoots: conformance runs read a root without a type as JSON
// Schema does, applying properties to objects only.
func (t *Tool) asDeclared() *Tool {
	if t.declared == nil {
		return t
	}
	c := *t
	c.params, c.declared, c.warnings = t.declared, nil, nil
	return &c
}

// checkSchemaText refuses, in schema s at ptr and the schemas inside it, a
// description, property name or definition name that checkText refuses:
// they reach generated comments, messages and Go names.
func checkSchemaText(path, ptr string, s *jsonval.Value) error {
	if s.Kind == jsonval.Array { // prefixItems, allOf, ..., draft-07 items
		for i, item := range s.Items {
			if err := checkSchemaText(path, fmt.Sprintf("%s/%d", ptr, i), item); err != nil {
				return err
			}
		}
		return nil
	}
	if s.Kind != jsonval.Object {
		return nil
	}
	for _, m := range s.Members {
		at := ptr + "/" + escapePointer(m.Key)
		switch m.Key {
		case "description":
			if m.Value.Kind != jsonval.String {
				continue
			}
			if err := checkText("the description", m.Value.Str); err != nil {
				return &Error{File: path, Pointer: at, Keyword: m.Key, Message: err.Error()}
			}
		case "properties", "$defs", "definitions":
			if m.Value.Kind != jsonval.Object {
				continue
			}
			what := "the property name"
			if m.Key != "properties" {
				what = "the definition name"
			}
			for _, sub := range m.Value.Members {
				subAt := at + "/" + escapePointer(sub.Key)
				if err := checkText(what, sub.Key); err != nil {
					return &Error{File: path, Pointer: subAt, Keyword: m.Key, Message: err.Error()}
				}
				if err := checkSchemaText(path, subAt, sub.Value); err != nil {
					return err
				}
			}
		case "items", "prefixItems", "additionalItems", "additionalProperties", "not", "allOf", "anyOf", "oneOf", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties":
			if err := checkSchemaText(path, at, m.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

func parseMeta(v *jsonval.Value) (Meta, error) {
	var meta Meta
	if v.Kind != jsonval.Object {
		return meta, fmt.Errorf("x-toolgate must be an object")
	}
	str := func(m jsonval.Member) (string, error) {
		if m.Value.Kind != jsonval.String || m.Value.Str == "" {
			return "", fmt.Errorf("x-toolgate.%s must be a non-empty string", m.Key)
		}
		return m.Value.Str, nil
	}
	flag := func(m jsonval.Member) (bool, error) {
		if m.Value.Kind != jsonval.Bool {
			return false, fmt.Errorf("x-toolgate.%s must be a boolean", m.Key)
		}
		return m.Value.Bool, nil
	}
	var err error
	for _, m := range v.Members {
		switch m.Key {
		case "goName":
			meta.GoName, err = str(m)
			if err == nil && !isGoIdentifier(meta.GoName) {
				err = fmt.Errorf("x-toolgate.goName %q is not an exported Go identifier", meta.GoName)
			}
		case "version":
			meta.Version, err = str(m)
		case "timeout":
			meta.Timeout, err = str(m)
			if err == nil {
				if d, perr := time.ParseDuration(meta.Timeout); perr != nil || d <= 0 {
					err = fmt.Errorf("x-toolgate.timeout %q is not a positive Go duration such as \"10s\"", meta.Timeout)
				}
			}
		case "sensitive":
			meta.Sensitive, err = flag(m)
		case "destructive":
			meta.Destructive, err = flag(m)
		case "providers":
			if m.Value.Kind != jsonval.Array || len(m.Value.Items) == 0 {
				return meta, fmt.Errorf("x-toolgate.providers must be a non-empty array of provider names")
			}
			for _, it := range m.Value.Items {
				p := provider.Provider(it.Str)
				if it.Kind != jsonval.String || !slices.Contains(provider.All, p) {
					return meta, fmt.Errorf("x-toolgate.providers: %s is not a provider (%v)", it.Marshal(), provider.All)
				}
				if slices.Contains(meta.Providers, p) {
					return meta, fmt.Errorf("x-toolgate.providers lists %s twice", p)
				}
				meta.Providers = append(meta.Providers, p)
			}
		case "approval":
			meta.Approval, err = str(m)
			if err == nil && meta.Approval != "required" && meta.Approval != "policy" {
				err = fmt.Errorf("x-toolgate.approval %q is not \"required\" or \"policy\"", meta.Approval)
			}
		case "approvers":
			meta.Approvers, err = roleList(m)
		case "selfApproval":
			meta.SelfApproval, err = flag(m)
		case "roles":
			if m.Value.Kind != jsonval.Array {
				return meta, fmt.Errorf("x-toolgate.roles must be an array of strings")
			}
			for _, r := range m.Value.Items {
				if r.Kind != jsonval.String || r.Str == "" {
					return meta, fmt.Errorf("x-toolgate.roles must be an array of non-empty strings")
				}
				meta.Roles = append(meta.Roles, r.Str)
			}
		default:
			return meta, fmt.Errorf("unknown x-toolgate member %q (want goName, version, roles, sensitive, destructive, timeout, providers, approval, approvers, selfApproval)", m.Key)
		}
		if err != nil {
			return meta, err
		}
	}
	switch {
	case meta.Approval != "" && len(meta.Approvers) == 0:
		return meta, fmt.Errorf("x-toolgate.approval needs x-toolgate.approvers: the roles that may approve")
	case meta.Approval == "" && (meta.Approvers != nil || meta.SelfApproval):
		return meta, fmt.Errorf("x-toolgate.approvers and selfApproval need x-toolgate.approval")
	}
	return meta, nil
}

// roleList parses a non-empty array of distinct, non-empty role names.
func roleList(m jsonval.Member) ([]string, error) {
	bad := fmt.Errorf("x-toolgate.%s must be a non-empty array of distinct, non-empty strings", m.Key)
	if m.Value.Kind != jsonval.Array || len(m.Value.Items) == 0 {
		return nil, bad
	}
	var out []string
	for _, r := range m.Value.Items {
		if r.Kind != jsonval.String || r.Str == "" || slices.Contains(out, r.Str) {
			return nil, bad
		}
		out = append(out, r.Str)
	}
	return out, nil
}

func (t *Tool) where() string {
	if t.Pointer == "" {
		return t.File
	}
	return t.File + "#" + t.Pointer
}
