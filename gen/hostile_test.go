package gen_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
)

// hostileText is accepted in every text field, names and descriptions
// included: each is inert once it is data.
var hostileText = []string{
	"/*\n*/ func init() { panic(\"pwned\") }",
	"*/ func init() { panic(\"pwned\") } /*",
	"//go:generate sh -c \"echo pwned\"",
	"see below\n//go:generate sh -c \"echo pwned\"\n//line evil.go:1\n//export Evil\n//extern evil\n// +build ignore\n//go:build ignore",
	"/*" + strings.Repeat("x", 80) + " */func/**/init(){panic(1)}",
	strings.Repeat("w", 76) + " //go:generate echo pwned",
	"`raw` literal ``` and \"quotes\" and \\ backslash",
	strings.Repeat("y", 10000),
	"tab\there and CRLF\r\nnext line",
}

// hostileData is refused in names and descriptions, and must still be
// inert in every other text field (titles, enum values, defaults,
// examples, $comment, patterns, extensions, annotations, roles).
var hostileData = []string{
	"nul\x00byte",
	"\ufeffbom",
	"evil\u202e}; func init() {",
	"isolate\u2066x\u2069",
	"line\u2028separator",
	"para\u2029separator",
	"escape\x1b[31m",
	"del\x7f",
	"next\u0085line",
	"bell\a",
}

// hostileTool is a tool file carrying s in every text field: name goes
// where a name goes (a property name), value where a value names a Go
// constant (enum, const), desc where a description goes.
func hostileTool(tool, s, name, value, desc string) []byte {
	pattern := s
	if _, err := regexp.Compile(s); err != nil {
		pattern = regexp.QuoteMeta(s)
	}
	doc := map[string]any{
		"name":        tool,
		"title":       s,
		"description": desc,
		"annotations": map[string]any{"title": s},
		"_meta":       map[string]any{"note": s},
		"x-note":      s,
		"parameters": map[string]any{
			"type": "object", "title": s, "description": desc, "$comment": s, "x-note": s,
			"properties": map[string]any{
				"note":  map[string]any{"type": "string", "title": s, "description": desc, "$comment": s, "default": s, "examples": []string{s}, "x-note": s},
				"kind":  map[string]any{"type": "string", "enum": []string{value, "plain"}, "description": desc, "default": value},
				"code":  map[string]any{"type": "string", "pattern": pattern, "description": desc},
				"fixed": map[string]any{"const": value},
				name: map[string]any{"type": "object", "description": desc, "properties": map[string]any{
					"item": map[string]any{"$ref": "#/$defs/item"},
				}},
			},
			"$defs": map[string]any{"item": map[string]any{"type": "string", "description": desc, "enum": []string{value}}},
		},
		"x-toolgate": map[string]any{"roles": []string{nonEmpty(s)}, "version": nonEmpty(s)},
	}
	data, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return data
}

func nonEmpty(s string) string {
	if s == "" {
		return "plain"
	}
	return s
}

// benignTwin maps s to a harmless string that names the same Go
// identifier: its letters, digits and signs, the rest turned to spaces.
func benignTwin(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '+' && r != '-'
	}), " ")
}

// generateFolder writes tool files into a temporary schemas folder and
// generates from it.
func generateFolder(t *testing.T, mod string, files map[string][]byte) map[string][]byte {
	t.Helper()
	return generateSchemas(t, mod, "schemas", files, gen.Options{Package: "tools", OutDir: filepath.Join(mod, "tools")})
}

// generateSchemas writes files into the folder sub of the module mod and
// returns what gen.Generate writes for them with opts.
func generateSchemas(t *testing.T, mod, sub string, files map[string][]byte, opts gen.Options) map[string][]byte {
	t.Helper()
	gobuild.WriteFiles(t, mod, sub, files)
	tools, err := gen.Load(filepath.Join(mod, sub))
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	generated, err := gen.Generate(tools, opts)
	if err != nil {
		t.Fatalf("generate: %.2000v", err)
	}
	out := map[string][]byte{}
	for _, f := range generated {
		out[f.Name] = f.Data
	}
	return out
}

// topLevel lists a file's imports and top-level declarations as "kind
// name", and fails on a block comment.
func topLevel(t *testing.T, name string, src []byte) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments)
	if err != nil {
		t.Fatalf("%s does not parse: %v", name, err)
	}
	var decls []string
	for _, imp := range f.Imports {
		decls = append(decls, "import "+imp.Path.Value)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			recv := ""
			if d.Recv != nil {
				recv = fmt.Sprintf("(%s) ", types(d.Recv.List[0].Type))
			}
			decls = append(decls, "func "+recv+d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					decls = append(decls, "type "+s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						decls = append(decls, d.Tok.String()+" "+n.Name)
					}
				}
			}
		}
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "/*") {
				t.Errorf("%s has a block comment: %.200q", name, c.Text)
			}
		}
	}
	return decls
}

func types(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		return "*" + types(s.X)
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return fmt.Sprintf("%T", e)
}

// without lists the elements of a that b lacks.
func without(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// directive matches a comment line the go command or the compiler reads
// as an instruction.
var directive = regexp.MustCompile(`(?m)^[ \t]*//(go:|line |export |extern |\s*\+build)`)

// TestHostileToolFilesEmitNoCode generates a package from tool files that
// carry hostile text in every text field and compares it, declaration by
// declaration, with the package generated from benign twins of the same
// files: the hostile text adds no func, init, var, const, type or import.
// The generated source holds no control, bidi or line-separator character
// (literals escape them, comments show them escaped), no block comment and
// no directive, and go generate -n lists nothing.
func TestHostileToolFilesEmitNoCode(t *testing.T) {
	type tc struct {
		tool          string
		hostile, twin []byte
	}
	var cases []tc
	for i, s := range hostileText {
		tool := fmt.Sprintf("text_%d", i)
		cases = append(cases, tc{tool, hostileTool(tool, s, s, s, s), hostileTool(tool, "plain", benignTwin(s), benignTwin(s), "plain")})
	}
	for i, s := range hostileData {
		tool, name := fmt.Sprintf("data_%d", i), "odd "+strconv.Itoa(i)
		cases = append(cases, tc{tool, hostileTool(tool, s, name, s, "plain"), hostileTool(tool, "plain", name, benignTwin(s), "plain")})
	}
	all := map[string][]byte{}
	for _, c := range cases {
		all[c.tool+".json"] = c.hostile
		t.Run(c.tool, func(t *testing.T) {
			got := generateFolder(t, t.TempDir(), map[string][]byte{c.tool + ".json": c.hostile})
			want := generateFolder(t, t.TempDir(), map[string][]byte{c.tool + ".json": c.twin})
			compareWithTwin(t, got, want)
		})
	}
	if testing.Short() {
		return
	}
	// One package of every hostile tool: go generate -n finds no
	// directive in it, and it compiles.
	mod := gobuild.Module(t, "hostile")
	gobuild.WriteFiles(t, mod, "tools", generateFolder(t, mod, all))
	if out, err := gobuild.Go(t, mod, "generate", "-n", "./tools"); err != nil || out != "" {
		t.Errorf("go generate -n: %v\n%.3000s", err, out)
	}
	if out, err := gobuild.Go(t, mod, "vet", "./tools"); err != nil {
		t.Errorf("go vet of the hostile package: %v\n%.3000s", err, out)
	}
}

// compareWithTwin checks the files generated from a hostile tool file
// against those of its benign twin.
func compareWithTwin(t *testing.T, got, want map[string][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d generated files, the twin gives %d", len(got), len(want))
	}
	for name, src := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is generated only from the hostile file", name)
			continue
		}
		// Names order the properties, so only the sets must match.
		gotDecls, wantDecls := topLevel(t, name, src), topLevel(t, name, want[name])
		slices.Sort(gotDecls)
		slices.Sort(wantDecls)
		if !slices.Equal(gotDecls, wantDecls) {
			t.Errorf("%s: the top-level declarations differ from the benign twin's: extra %.1000q, missing %.1000q", name, without(gotDecls, wantDecls), without(wantDecls, gotDecls))
		}
		if slices.Contains(gotDecls, "func init") {
			t.Errorf("%s declares init", name)
		}
		if loc := directive.FindIndex(src); loc != nil {
			t.Errorf("%s has a directive: %.200q", name, src[loc[0]:])
		}
		for i, r := range string(src) {
			if unsafeRune(r) {
				t.Errorf("%s holds %U at byte %d: %.200q", name, r, i, src[max(0, i-80):i+1])
				break
			}
		}
	}
}

// unsafeRune reports the runes that must not appear in generated source:
// C0 controls but tab and newline, DEL, C1 controls, the BOM, bidi
// controls and the Unicode line and paragraph separators.
func unsafeRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || (r >= 0x7f && r < 0xa0):
		return true
	case r == 0xfeff || r == 0x200e || r == 0x200f || r == 0x061c:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
		return true
	case r == unicode.ReplacementChar:
		return true
	}
	return false
}

// refusedRunes are refused in names and descriptions.
var refusedRunes = []rune{0, 1, '\a', '\b', '\v', '\f', 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9f, 0xfeff, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x2028, 0x2029}

// TestHostileNamesAndDescriptionsRefused: a control, byte order mark, bidi
// or line-separator character in a name or description is an invalid tool
// definition naming the file and the JSON pointer, and the message shows
// the character escaped. Tabs and line breaks stay allowed.
func TestHostileNamesAndDescriptionsRefused(t *testing.T) {
	places := []struct {
		name    string
		file    func(s string) string // a tool file with s in one place
		pointer string                // where the error points, %s standing for s
	}{
		{"tool description", func(s string) string {
			return `{"name": "t", "description": ` + quoteJSON(s) + `, "parameters": {"type": "object"}}`
		}, "/description"},
		{"schema description", func(s string) string {
			return `{"name": "t", "parameters": {"type": "object", "description": ` + quoteJSON(s) + `}}`
		}, "/parameters/description"},
		{"property description", func(s string) string {
			return `{"name": "t", "parameters": {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string", "description": ` + quoteJSON(s) + `}}}}}`
		}, "/parameters/properties/a/items/description"},
		{"property name", func(s string) string {
			return `{"name": "t", "parameters": {"type": "object", "properties": {"a": {"type": "object", "properties": {` + quoteJSON(s) + `: {"type": "string"}}}}}}`
		}, "/parameters/properties/a/properties/%s"},
		{"definition", func(s string) string {
			return `{"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/d"}}, "$defs": {"d": {"type": "string", "description": ` + quoteJSON(s) + `}}}}`
		}, "/inputSchema/$defs/d/description"},
		{"definition name", func(s string) string {
			return `{"name": "t", "inputSchema": {"type": "object", "$defs": {` + quoteJSON(s) + `: {"type": "string"}}}}`
		}, "/inputSchema/$defs/%s"},
		{"listed tool", func(s string) string {
			return `{"tools": [{"name": "ok", "inputSchema": {"type": "object"}}, {"name": "t", "description": ` + quoteJSON(s) + `, "inputSchema": {"type": "object"}}]}`
		}, "/tools/1/description"},
	}
	for _, p := range places {
		for _, r := range refusedRunes {
			s := "a" + string(r) + "b"
			t.Run(fmt.Sprintf("%s/%U", p.name, r), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "tool.json")
				gobuild.WriteFiles(t, filepath.Dir(path), "", map[string][]byte{"tool.json": []byte(p.file(s))})
				_, err := gen.Load(path)
				var ge *gen.Error
				if !errors.As(err, &ge) {
					t.Fatalf("Load: %v, want a *gen.Error", err)
				}
				if want := strings.ReplaceAll(p.pointer, "%s", s); ge.File != path || ge.Pointer != want {
					t.Errorf("error at %s#%q, want %s#%q", ge.File, ge.Pointer, path, want)
				}
				msg := err.Error()
				if !strings.Contains(msg, fmt.Sprintf("holds %U", r)) {
					t.Errorf("the message does not name %U: %q", r, msg)
				}
				if strings.ContainsFunc(msg, unsafeRune) {
					t.Errorf("the message holds an unescaped character: %q", msg)
				}
			})
		}
	}
	for _, s := range []string{"two\nlines", "crlf\r\nlines", "a\ttab", "עברית \u200f ok"} {
		for _, p := range places {
			path := filepath.Join(t.TempDir(), "tool.json")
			gobuild.WriteFiles(t, filepath.Dir(path), "", map[string][]byte{"tool.json": []byte(p.file(s))})
			if _, err := gen.Load(path); err != nil {
				t.Errorf("%s %q is refused: %v", p.name, s, err)
			}
		}
	}
}

func quoteJSON(s string) string {
	data, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(data)
}
