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
	// warnings are what loading accepted with a caveat (an implied root
	// type); Generate reports them with the model's.
	warnings []Warning
	// declared is the parameters schema as the file declares it, when
	// impliedObjectRoot read it otherwise (params).
	declared *jsonval.Value
	// bundled maps each key under params' $defs that a definitions file
	// brought in to where it comes from (bundle.go).
	bundled map[string]bundledAt
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
// contributes its *.json files (not recursively), in name order. Its
// subfolders hold definitions files, which tools reference by $ref and
// which are never read as tools (bundle.go). Finding no
// tool at all is an error: generating from nothing would remove every
// generated file. A file
// holds one tool (canonical or MCP form), a list of tools ({"tools": [...]},
// as an MCP tools/list result), or a JSON array of tools. An invalid
// definition is an ErrorList of every problem of every file, each placed
// at its line and column, in file and position order (ErrorList.Sorted).
func Load(paths ...string) ([]*Tool, error) {
	tools, err := LoadAll(paths...)
	if err != nil {
		return nil, err
	}
	return tools, nil
}

// LoadAll is Load for reporting every problem in one run. When the files
// hold invalid definitions (err is an ErrorList), it also returns the tools
// that can still be checked: those of the files without problems, and each
// tool whose name and parameters were read in spite of its own (a bad
// x-toolgate member, a description toolgate refuses), so that the caller
// adds what the later stages find in them (Validate, package lint). Those
// tools lack what their file got wrong: generate only from what Load
// returns.
func LoadAll(paths ...string) ([]*Tool, error) {
	return LoadOptions{}.LoadAll(paths...)
}

// LoadAll is the package's LoadAll with the options o (bundle.go).
func (o LoadOptions) LoadAll(paths ...string) ([]*Tool, error) {
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
	// order. A problem of a definitions file is reported once, however many
	// tools bring the file in.
	loaded, loadErrs := workers.Map(len(files), func(i int) ([]*Tool, error) { return loadFile(files[i], o.Bases) })
	seen := map[string]bool{}
	for i, ts := range loaded {
		if loadErrs[i] != nil {
			errs = append(errs, once(loadErrs[i], seen)...)
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
		return tools, errs.placed()
	}
	if len(tools) == 0 {
		return nil, &Error{File: strings.Join(paths, ", "), Message: "no tools found (a folder contributes its *.json files)"}
	}
	return tools, nil
}

// loadFile reads and parses one tool file, bringing into each tool the
// definitions files it references (bundle.go): its tools that can be
// checked further, and its problems (an ErrorList), or the error that it
// cannot be read.
func loadFile(path string, bases map[string]string) ([]*Tool, error) {
	data, err := ReadToolFile(path)
	if err != nil {
		return nil, err
	}
	tools, errs := parseToolFile(path, data)
	bd := &bundler{root: filepath.Dir(path), bases: bases, cache: map[string]*jsonval.Value{}}
	for _, t := range tools {
		bd.bundle(t)
	}
	errs = append(errs, bd.errs...)
	if len(errs) > 0 {
		return tools, errs
	}
	return tools, nil
}

// parseToolFile parses the tools of one file. Every problem is reported,
// not the first: each tool of a list on its own, and within a tool every
// member. The tools returned are those that can be checked further
// (parseTool), with or without problems.
func parseToolFile(path string, data []byte) ([]*Tool, ErrorList) {
	doc, err := jsonval.Parse(data)
	if err != nil {
		return nil, ErrorList{syntaxError(path, data, err)}
	}
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:])
	var errs ErrorList
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
					errs = append(errs, &Error{File: path, Pointer: "/" + escapePointer(m.Key), Message: fmt.Sprintf("unknown member %q in a tool list%s (want tools, nextCursor, _meta, serverInfo, a capture's server, url, transport or auth, or x-*)", m.Key, didYouMean(m.Key, listMembers))})
				}
			}
		}
		list, base = doc.Get("tools"), "/tools"
		if list.Kind != jsonval.Array {
			return nil, append(errs, &Error{File: path, Pointer: base, Message: "tools must be an array"})
		}
	case doc.Kind == jsonval.Object:
		t, terrs := parseTool(path, "", doc)
		if t == nil {
			return nil, terrs
		}
		t.SourceSHA256 = hash
		return []*Tool{t}, terrs
	default:
		return nil, ErrorList{&Error{File: path, Message: "a tool file holds a JSON object or an array of tools"}}
	}
	var tools []*Tool
	for i, item := range list.Items {
		t, terrs := parseTool(path, fmt.Sprintf("%s/%d", base, i), item)
		errs = append(errs, terrs...)
		if t == nil {
			continue
		}
		t.SourceSHA256 = hash
		tools = append(tools, t)
	}
	return tools, errs
}

// parseTool reads the tool object obj at ptr: every problem of its members
// and, when its name and parameters were read, the tool, which the later
// stages can check (with or without problems). A tool without them is
// not: the schema checks name the schema by the tool (schemaURL) and need
// the parameters.
func parseTool(path, ptr string, obj *jsonval.Value) (*Tool, ErrorList) {
	var errs ErrorList
	fail := func(at, format string, args ...any) {
		errs = append(errs, &Error{File: path, Pointer: ptr + at, Message: fmt.Sprintf(format, args...)})
	}
	if obj.Kind != jsonval.Object {
		fail("", "a tool is a JSON object, not %s", obj.Kind)
		return nil, errs
	}
	t := &Tool{File: path, Pointer: ptr}
	nameOK := true
	for _, m := range obj.Members {
		at := "/" + escapePointer(m.Key)
		switch m.Key {
		case "name", "description":
			if m.Value.Kind != jsonval.String {
				fail(at, "%s must be a string", m.Key)
				nameOK = nameOK && m.Key != "name"
				continue
			}
			if err := checkText("the tool "+m.Key, m.Value.Str); err != nil {
				fail(at, "%v", err)
				nameOK = nameOK && m.Key != "name"
				continue
			}
			if m.Key == "name" {
				t.Name = m.Value.Str
			} else {
				t.Description = m.Value.Str
			}
		case "parameters", "inputSchema":
			if t.paramsKey != "" {
				fail(at, "a tool has either parameters or inputSchema, not both")
				continue
			}
			t.params, t.paramsKey = m.Value, m.Key
		case "title", "annotations", "outputSchema", "_meta", "icons", "execution":
			if m.Key == "outputSchema" {
				t.output = m.Value
			}
			t.mcpExtras = append(t.mcpExtras, m)
		case "x-toolgate":
			meta, problems := parseMeta(m.Value)
			for _, p := range problems {
				fail(at+p.ptr, "%s", p.msg)
			}
			t.Meta = meta
		default:
			if !strings.HasPrefix(m.Key, "x-") {
				fail(at, "unknown member %q%s (a tool has name, description, parameters or inputSchema, MCP's title, annotations, outputSchema, icons, execution and _meta, and x-* extensions)", m.Key, didYouMean(m.Key, toolMembers))
			}
		}
	}
	switch {
	case !nameOK:
	case t.Name == "" && !obj.Has("name"):
		fail("", "the tool has no name")
		nameOK = false
	case !toolNameRule.MatchString(t.Name):
		fail("/name", "tool name %q does not match [A-Za-z0-9_.-]{1,128}, MCP's rule (%s): an invalid definition, refused whatever the flags; toolgate never renames a tool, so fix the name in the file", t.Name, nameProblem(t.Name))
		nameOK = false
	}
	if t.params == nil {
		if nameOK {
			fail("", "tool %q has no parameters (or inputSchema)", t.Name)
		} else {
			fail("", "the tool has no parameters (or inputSchema)")
		}
		return nil, errs
	}
	if at, err := t.hints(); err != nil {
		fail(at, "%v", err)
	}
	checkSchemaText(path, ptr+"/"+t.paramsKey, t.params, &errs)
	t.impliedObjectRoot()
	if t.output != nil {
		checkSchemaText(path, ptr+"/outputSchema", t.output, &errs)
	}
	if !nameOK {
		return nil, errs
	}
	return t, errs
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
// they reach generated comments, messages and Go names. It appends every
// one to errs.
func checkSchemaText(path, ptr string, s *jsonval.Value, errs *ErrorList) {
	if s.Kind == jsonval.Array { // prefixItems, allOf, ..., draft-07 items
		for i, item := range s.Items {
			checkSchemaText(path, fmt.Sprintf("%s/%d", ptr, i), item, errs)
		}
		return
	}
	if s.Kind != jsonval.Object {
		return
	}
	for _, m := range s.Members {
		at := ptr + "/" + escapePointer(m.Key)
		switch m.Key {
		case "description":
			if m.Value.Kind != jsonval.String {
				continue
			}
			if err := checkText("the description", m.Value.Str); err != nil {
				*errs = append(*errs, &Error{File: path, Pointer: at, Keyword: m.Key, Message: err.Error()})
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
					*errs = append(*errs, &Error{File: path, Pointer: subAt, Keyword: m.Key, Message: err.Error()})
				}
				checkSchemaText(path, subAt, sub.Value, errs)
			}
		case "items", "prefixItems", "additionalItems", "additionalProperties", "not", "allOf", "anyOf", "oneOf", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties":
			checkSchemaText(path, at, m.Value, errs)
		}
	}
}

// metaProblem is one problem of a tool's x-toolgate: ptr locates it
// inside x-toolgate ("" for x-toolgate itself).
type metaProblem struct{ ptr, msg string }

// parseMeta reads a tool's x-toolgate, with every problem of its members:
// a member with a problem is left out of the Meta returned.
func parseMeta(v *jsonval.Value) (Meta, []metaProblem) {
	var meta Meta
	if v.Kind != jsonval.Object {
		return meta, []metaProblem{{"", "x-toolgate must be an object"}}
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
	var problems []metaProblem
	badApproval := false
	for _, m := range v.Members {
		var err error
		switch m.Key {
		case "goName":
			var name string
			name, err = str(m)
			if err == nil && !isGoIdentifier(name) {
				err = fmt.Errorf("x-toolgate.goName %q is not an exported Go identifier", name)
			}
			if err == nil {
				meta.GoName = name
			}
		case "version":
			meta.Version, err = str(m)
		case "timeout":
			var timeout string
			timeout, err = str(m)
			if err == nil {
				if d, perr := time.ParseDuration(timeout); perr != nil || d <= 0 {
					err = fmt.Errorf("x-toolgate.timeout %q is not a positive Go duration such as \"10s\"", timeout)
				}
			}
			if err == nil {
				meta.Timeout = timeout
			}
		case "sensitive":
			meta.Sensitive, err = flag(m)
		case "destructive":
			meta.Destructive, err = flag(m)
		case "providers":
			meta.Providers, err = metaProviders(m)
		case "approval":
			var approval string
			approval, err = str(m)
			if err == nil && approval != "required" && approval != "policy" {
				err = fmt.Errorf("x-toolgate.approval %q is not \"required\" or \"policy\"", approval)
			}
			if err == nil {
				meta.Approval = approval
			}
		case "approvers":
			meta.Approvers, err = roleList(m)
		case "selfApproval":
			meta.SelfApproval, err = flag(m)
		case "roles":
			meta.Roles, err = metaRoles(m)
		default:
			err = fmt.Errorf("unknown x-toolgate member %q%s (want %s)", m.Key, didYouMean(m.Key, metaMembers), strings.Join(metaMembers, ", "))
		}
		if err != nil {
			problems = append(problems, metaProblem{"/" + escapePointer(m.Key), err.Error()})
			badApproval = badApproval || m.Key == "approval" || m.Key == "approvers" || m.Key == "selfApproval"
		}
	}
	// Approval and its approvers are checked together only when each of
	// them read well: a member with a problem of its own is reported as
	// such, not again as missing.
	switch {
	case badApproval:
	case meta.Approval != "" && len(meta.Approvers) == 0:
		problems = append(problems, metaProblem{"", "x-toolgate.approval needs x-toolgate.approvers: the roles that may approve"})
	case meta.Approval == "" && (meta.Approvers != nil || meta.SelfApproval):
		problems = append(problems, metaProblem{"", "x-toolgate.approvers and selfApproval need x-toolgate.approval"})
	}
	return meta, problems
}

// metaProviders parses x-toolgate providers: a non-empty array of distinct
// provider names.
func metaProviders(m jsonval.Member) ([]provider.Provider, error) {
	if m.Value.Kind != jsonval.Array || len(m.Value.Items) == 0 {
		return nil, fmt.Errorf("x-toolgate.providers must be a non-empty array of provider names")
	}
	var out []provider.Provider
	for _, it := range m.Value.Items {
		p := provider.Provider(it.Str)
		if it.Kind != jsonval.String || !slices.Contains(provider.All, p) {
			return nil, fmt.Errorf("x-toolgate.providers: %s is not a provider (%v)", it.Marshal(), provider.All)
		}
		if slices.Contains(out, p) {
			return nil, fmt.Errorf("x-toolgate.providers lists %s twice", p)
		}
		out = append(out, p)
	}
	return out, nil
}

// metaRoles parses x-toolgate roles: an array of non-empty strings.
func metaRoles(m jsonval.Member) ([]string, error) {
	if m.Value.Kind != jsonval.Array {
		return nil, fmt.Errorf("x-toolgate.roles must be an array of strings")
	}
	var out []string
	for _, r := range m.Value.Items {
		if r.Kind != jsonval.String || r.Str == "" {
			return nil, fmt.Errorf("x-toolgate.roles must be an array of non-empty strings")
		}
		out = append(out, r.Str)
	}
	return out, nil
}

// roleList parses a non-empty array of distinct, non-empty role names.
func roleList(m jsonval.Member) ([]string, error) {
	bad := fmt.Errorf("x-toolgate.%s must be a non-empty array of distinct, non-empty strings", m.Key)
	if m.Value.Kind != jsonval.Array || len(m.Value.Items) == 0 {
		return nil, bad
	}
	var out []string
	seen := make(map[string]bool, len(m.Value.Items))
	for _, r := range m.Value.Items {
		if r.Kind != jsonval.String || r.Str == "" || seen[r.Str] {
			return nil, bad
		}
		seen[r.Str] = true
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
