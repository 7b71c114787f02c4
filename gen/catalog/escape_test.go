package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// hostile holds a line break, a pipe, a backtick, an asterisk, '<', ']'
// and '#', each where it would start a table row, a heading, a link, HTML,
// emphasis or a code span, and the other specials of GitHub Flavored
// Markdown.
const hostile = "a\n# b | c ` d * e <b>f</b> ] g [h](x) ![i](x) _j_ ~k~ $l$ &amp; \\| m\n| n | o |\n1. p"

// hostileControls adds a control character and a bidi control, for the
// strings a tool file may hold them in.
const hostileControls = hostile + " \x1b[31m \u202e"

// TestEscapedStrings puts a hostile string in each place a tool file's
// string reaches the catalog: the catalog must have the same lines, of the
// same kinds (heading, list item, paragraph, table row with as many
// cells), as with a plain string there; no link, image, HTML, emphasis,
// math or code span may open outside a code span; and the string must
// read back as written, with line breaks as spaces and controls as Go
// escapes.
func TestEscapedStrings(t *testing.T) {
	member := func(schema string) string {
		return `{"name": "t", "description": "d", "parameters": {"type": "object", "properties": {"m": ` + schema + `}}}`
	}
	description := func(s string) string {
		return `{"name": "t", "description": ` + quote(s) + `, "parameters": {"type": "object"}}`
	}
	type testCase struct {
		name string
		s    string
		// file and tool are the tool file's name and content with s.
		file func(s string) string
		tool func(s string) string
		// want is how s reads on the rendered page, "" when only the
		// structure is checked.
		want func(s string) string
	}
	cases := []testCase{
		{name: "file name", s: hostileControls,
			file: func(s string) string { return strings.ReplaceAll(s, "/", "") + ".json" },
			want: func(s string) string { return readBack(strings.ReplaceAll(s, "/", "")) + ".json" }},
		{name: "file name not UTF-8", s: "a\xffb",
			file: func(s string) string { return s + ".json" },
			want: func(string) string { return `a\xffb.json` }},
		{name: "description", s: hostile,
			tool: description, want: readBack},
		{name: "member description", s: hostile,
			tool: func(s string) string { return member(`{"type": "string", "description": ` + quote(s) + `}`) },
			want: readBack},
		{name: "member name", s: hostile,
			tool: func(s string) string {
				return `{"name": "t", "description": "d", "parameters": {"type": "object", "properties": {` + quote(s) + `: {"type": "string"}}}}`
			},
			want: readBack},
		{name: "pattern", s: hostileControls,
			tool: func(s string) string {
				return member(`{"type": "string", "pattern": ` + quote(regexp.QuoteMeta(s)) + `}`)
			},
			want: func(s string) string { return readBack(regexp.QuoteMeta(s)) }},
		{name: "enum value", s: hostileControls,
			tool: func(s string) string { return member(`{"type": "string", "enum": [` + quote(s) + `]}`) }},
		{name: "default", s: hostileControls,
			tool: func(s string) string { return member(`{"type": "string", "default": ` + quote(s) + `}`) }},
		{name: "role", s: hostileControls,
			tool: func(s string) string {
				return `{"name": "t", "description": "d", "parameters": {"type": "object"}, "x-toolgate": {"roles": [` + quote(s) + `]}}`
			},
			want: readBack},
	}
	// A description is a paragraph of its own: its start must not start
	// a block.
	for _, start := range []string{"# heading", "  ## heading", "1. item", "12) item", "- item", "+ item", "* item", "> quote",
		"    code", "```go", "~~~", "---", "***", "<div>", "[a]: http://x", "| a | b |", "\tcode", "=== x"} {
		cases = append(cases, testCase{name: "description starting " + start, s: start + " and more\n# b",
			tool: description, want: func(s string) string { return strings.TrimLeft(readBack(strings.ReplaceAll(s, "\t", " ")), " ") }})
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			got := renderWith(t, tt.file, tt.tool, tt.s)
			plain := renderWith(t, tt.file, tt.tool, "x")
			gotLines, plainLines := strings.Split(got, "\n"), strings.Split(plain, "\n")
			if len(gotLines) != len(plainLines) {
				t.Fatalf("%d lines with the hostile string, %d with a plain one:\n%s", len(gotLines), len(plainLines), got)
			}
			for i, line := range gotLines {
				if k, pk := lineKind(line), lineKind(plainLines[i]); k != pk {
					t.Errorf("line %d is a %s, with a plain string a %s: %q", i+1, k, pk, line)
				}
				if i > 0 {
					if err := inert(line); err != "" {
						t.Errorf("line %d: %s: %q", i+1, err, line)
					}
				}
			}
			if tt.want == nil {
				return
			}
			want := tt.want(tt.s)
			for _, line := range gotLines {
				if strings.Contains(shown(line), want) {
					return
				}
			}
			t.Errorf("no line reads %q:\n%s", want, got)
		})
	}
}

func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// readBack is s as the catalog shows it: line breaks as spaces, the
// controls of hostileControls as Go escapes.
func readBack(s string) string {
	return strings.NewReplacer("\n", " ", "\x1b", `\u001b`, "\u202e", `\u202e`).Replace(s)
}

// renderWith renders the catalog of one tool file, named file(s) (default
// "tool.json") and holding tool(s) (default a plain tool).
func renderWith(t *testing.T, file, tool func(string) string, s string) string {
	t.Helper()
	name, body := "tool.json", `{"name": "t", "description": "d", "parameters": {"type": "object"}}`
	if file != nil {
		name = file(s)
	}
	if tool != nil {
		body = tool(s)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return renderFiles(t, dir, path)
}

var (
	atxHeading  = regexp.MustCompile(`^ {0,3}(#{1,6})(?: |$)`)
	listItem    = regexp.MustCompile(`^ {0,3}(?:[-+*]|[0-9]{1,9}[.)])(?: |$)`)
	otherBlock  = regexp.MustCompile("^(?: {4}| {0,3}(?:>|<|```|~~~|\\[[^\\]]*\\]:|(?:[-*_] *){3,}$|=+ *$))")
	escapedPipe = regexp.MustCompile(`\\\|`)
)

// lineKind names the kind of block a line of the catalog starts or
// continues, as GitHub Flavored Markdown reads it: a table row counts its
// cells.
func lineKind(line string) string {
	switch {
	case strings.TrimSpace(line) == "":
		return "blank line"
	case strings.HasPrefix(line, "|"):
		return "row of " + strconv.Itoa(strings.Count(escapedPipe.ReplaceAllString(line, ""), "|")) + " separators"
	case atxHeading.MatchString(line):
		return "heading " + atxHeading.FindStringSubmatch(line)[1]
	case listItem.MatchString(line):
		return "list item"
	case otherBlock.MatchString(line):
		return "block start"
	}
	return "paragraph"
}

// inert returns what in line, outside code spans, could open a link, an
// image, HTML, emphasis, strikethrough, math or a code span, or "".
func inert(line string) string {
	line = strings.TrimLeft(line, "#|- ")
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line):
			i++
		case c == '`':
			n := runAt(line, i)
			end := closingRun(line, i+n, n)
			if end < 0 {
				return "a backtick run that closes no code span"
			}
			i = end + n - 1
		case c == '_' && i > 0 && i+1 < len(line) && isWord(line[i-1]) && isWord(line[i+1]):
			// inside a word: never emphasis
		case strings.IndexByte("[]<*_~$", c) >= 0:
			return "an unescaped " + string(c)
		}
	}
	return ""
}

func isWord(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// runAt is the length of the run of backticks at line[i].
func runAt(line string, i int) int {
	n := 0
	for i+n < len(line) && line[i+n] == '`' {
		n++
	}
	return n
}

// closingRun returns where, from i on, a run of exactly n backticks
// starts, or -1.
func closingRun(line string, i, n int) int {
	for i < len(line) {
		if line[i] != '`' {
			i++
			continue
		}
		m := runAt(line, i)
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// shown is the text a reader sees of line: the backslash escapes, entities
// and code spans of the catalog resolved (in a table row, a backslash
// before a pipe is the table's escape and goes first, as in GitHub's
// renderer).
func shown(line string) string {
	if strings.HasPrefix(line, "|") {
		line = strings.ReplaceAll(line, `\|`, "|")
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", line[i+1]) >= 0:
			i++
			b.WriteByte(line[i])
		case c == '&':
			ent := ""
			for _, e := range []string{"&amp;", "&lt;", "&gt;"} {
				if strings.HasPrefix(line[i:], e) {
					ent = e
				}
			}
			if ent == "" {
				b.WriteByte(c)
				continue
			}
			b.WriteString(map[string]string{"&amp;": "&", "&lt;": "<", "&gt;": ">"}[ent])
			i += len(ent) - 1
		case c == '`':
			n := runAt(line, i)
			end := closingRun(line, i+n, n)
			if end < 0 {
				b.WriteString(line[i : i+n])
				i += n - 1
				continue
			}
			content := line[i+n : end]
			if len(content) >= 2 && content[0] == ' ' && content[len(content)-1] == ' ' && strings.Trim(content, " ") != "" {
				content = content[1 : len(content)-1]
			}
			b.WriteString(content)
			i = end + n - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
