package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A README block the test runs is a fenced code block right after a line
//
//	<!-- readme-test: STEP in DIR -->
//
// STEP names what the block does (one of readmeSteps) and DIR is the
// folder of the service module it runs in, as the prose around it says.
// The comment is invisible on a rendered page, so the README shows the
// commands as a reader copies them.
var readmeMarker = regexp.MustCompile(`^<!-- readme-test: ([a-z-]+) in ([^ ]+) -->$`)

// readmeSteps are the marked blocks of "In your service", each required.
var readmeSteps = []string{"checkout", "generate-line", "generate", "ci", "integrations"}

type readmeBlock struct {
	dir  string // relative to the service module's root
	text string
}

// readmeBlocks reads the marked blocks of the README at path.
func readmeBlocks(t *testing.T, path string) map[string]readmeBlock {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	blocks := map[string]readmeBlock{}
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		m := readmeMarker.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		step := m[1]
		if _, dup := blocks[step]; dup {
			t.Fatalf("%s:%d: a second block for step %s", path, line, step)
		}
		if !sc.Scan() || !strings.HasPrefix(sc.Text(), "```") {
			t.Fatalf("%s:%d: the marker of %s is not followed by a fenced block", path, line, step)
		}
		line++
		var body []string
		closed := false
		for sc.Scan() {
			line++
			if sc.Text() == "```" {
				closed = true
				break
			}
			body = append(body, sc.Text())
		}
		if !closed {
			t.Fatalf("%s: the block of %s is not closed", path, step)
		}
		blocks[step] = readmeBlock{dir: m[2], text: strings.Join(body, "\n") + "\n"}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for step := range blocks {
		if !slices.Contains(readmeSteps, step) {
			t.Errorf("%s: unknown step %s (the test knows %v)", path, step, readmeSteps)
		}
	}
	for _, step := range readmeSteps {
		if _, ok := blocks[step]; !ok {
			t.Errorf("%s: no block marked <!-- readme-test: %s in DIR -->", path, step)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return blocks
}

// runBlock runs a README block verbatim with sh -c in its folder of the
// module mod, TOOLGATE naming the checkout, and returns its exit code and
// combined output.
func runBlock(t *testing.T, mod, checkout string, b readmeBlock) (int, string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", b.text)
	cmd.Dir = filepath.Join(mod, b.dir)
	cmd.Env = append(os.Environ(), "TOOLGATE="+checkout, "GOWORK=off")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out)
	case errors.As(err, &exit):
		return exit.ExitCode(), string(out)
	default:
		t.Fatalf("sh -c %q: %v", b.text, err)
		return 0, ""
	}
}

const readmeTool = `{
  "name": "refund_order",
  "description": "Refund part or all of a paid order. Use only after the customer has asked for a refund. Returns the refund's reference.",
  "parameters": {
    "type": "object",
    "properties": {
      "orderId": {"type": "string", "pattern": "^[A-Z][A-Z0-9-]{2,31}$", "description": "The order to refund."},
      "amountInCents": {"type": "integer", "minimum": 1, "maximum": 100000, "description": "The amount to refund, in cents."}
    },
    "required": ["orderId", "amountInCents"]
  }
}
`

// TestReadme runs the commands of README.md's "In your service" verbatim,
// from the folders the README names, in throwaway service modules that
// use this checkout: toolgate is added from the checkout, go generate
// writes a package whose generated tests pass, the CI check passes on it
// and fails with a diff (exit 1) once a tool file changes; and a module
// importing an integration through the README's replace lines builds.
func TestReadme(t *testing.T) {
	if testing.Short() {
		t.Skip("builds toolgate, a generated package and go-redis in throwaway modules")
	}
	checkout, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	blocks := readmeBlocks(t, filepath.Join(checkout, "README.md"))
	doc, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []string{"generate-line", "ci"} {
		if line := strings.TrimSpace(blocks[step].text); !strings.Contains(string(doc), "//\t"+line+"\n") {
			t.Errorf("the package comment of cmd/toolgate does not show the README's %s line %s", step, line)
		}
	}

	t.Run("service", func(t *testing.T) {
		gen := blocks["generate-line"]
		mod := workspace(t, map[string]string{
			"go.mod":                    "module example.com/service\n\ngo 1.26\n",
			"schemas/refund_order.json": readmeTool,
			gen.dir + "/doc.go":         "// Package tools holds the generated tools.\npackage tools\n\n" + gen.text,
		})
		editSchema := func(t *testing.T) {
			writeFile(t, mod, "schemas/refund_order.json", strings.Replace(readmeTool, "The order to refund.", "The order to refund, as printed on the receipt.", 1))
		}
		for _, tt := range []struct {
			name   string
			step   string
			before func(*testing.T)
			code   int
			want   []string
			files  []string
		}{
			{name: "add toolgate from the checkout", step: "checkout"},
			{name: "generate and test", step: "generate", want: []string{"ok  \texample.com/service/tools"},
				files: []string{"tools/refund_order_tool.go", "tools/toolgate.go", "tools/toolgate_contract_test.go", "tools/toolgate_fuzz_test.go"}},
			{name: "check a fresh package", step: "ci"},
			{name: "check after a tool file changed", step: "ci", before: editSchema, code: 1,
				want: []string{"--- tools/refund_order_tool.go\n", "+++ tools/refund_order_tool.go (generated)\n", "+\t// OrderID is the order to refund, as printed on the receipt.\n"}},
		} {
			if tt.before != nil {
				tt.before(t)
			}
			code, out := runBlock(t, mod, checkout, blocks[tt.step])
			if code != tt.code {
				t.Fatalf("%s: %s exited %d, want %d:\n%s", tt.name, blocks[tt.step].text, code, tt.code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("%s: the output lacks %q:\n%s", tt.name, w, out)
				}
			}
			for _, f := range tt.files {
				if _, err := os.Stat(filepath.Join(mod, f)); err != nil {
					t.Errorf("%s: %v", tt.name, err)
				}
			}
		}
	})

	t.Run("integration", func(t *testing.T) {
		// In the README's order: toolgate from the checkout, then code
		// that imports an integration, then the integrations' lines.
		mod := workspace(t, map[string]string{"go.mod": "module example.com/service\n\ngo 1.26\n"})
		if code, out := runBlock(t, mod, checkout, blocks["checkout"]); code != 0 {
			t.Fatalf("%s exited %d:\n%s", blocks["checkout"].text, code, out)
		}
		writeFile(t, mod, "main.go", `// Command service claims call IDs in Redis.
package main

import (
	"github.com/redis/go-redis/v9"

	"github.com/toolgate/toolgate/runtime/redisreplay"
)

func main() {
	if _, err := redisreplay.New(redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"}), redisreplay.Options{}); err != nil {
		panic(err)
	}
}
`)
		if code, out := runBlock(t, mod, checkout, blocks["integrations"]); code != 0 {
			t.Fatalf("%s exited %d:\n%s", blocks["integrations"].text, code, out)
		}
		if out, err := goIn(mod, "build", "./..."); err != nil {
			t.Fatalf("go build ./...: %v\n%s", err, out)
		}
		replaced := replacedIntegrations(t, mod, checkout)
		if want := makeIntegrations(t, filepath.Join(checkout, "Makefile")); !slices.Equal(replaced, want) {
			t.Errorf("the README replaces the integration modules %v; the Makefile's INTEGRATIONS are %v", replaced, want)
		}
	})
}

func goIn(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	return cmd.CombinedOutput()
}

// replacedIntegrations returns the folders, relative to the checkout, of
// the modules under runtime/ that go.mod in mod replaces, sorted, each
// checked to hold the module it replaces.
func replacedIntegrations(t *testing.T, mod, checkout string) []string {
	t.Helper()
	out, err := goIn(mod, "mod", "edit", "-json")
	if err != nil {
		t.Fatalf("go mod edit -json: %v\n%s", err, out)
	}
	var gomod struct {
		Replace []struct{ Old, New struct{ Path string } }
	}
	if err := json.Unmarshal(out, &gomod); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, r := range gomod.Replace {
		rel, ok := strings.CutPrefix(r.Old.Path, "github.com/toolgate/toolgate/")
		if !ok || !strings.HasPrefix(rel, "runtime/") {
			continue
		}
		if r.New.Path != filepath.Join(checkout, rel) {
			t.Errorf("%s is replaced by %s, not by the checkout's %s", r.Old.Path, r.New.Path, rel)
		}
		data, err := os.ReadFile(filepath.Join(r.New.Path, "go.mod"))
		if err != nil {
			t.Error(err)
		} else if !strings.HasPrefix(string(data), "module "+r.Old.Path+"\n") {
			t.Errorf("%s/go.mod is not module %s", r.New.Path, r.Old.Path)
		}
		dirs = append(dirs, rel)
	}
	slices.Sort(dirs)
	return dirs
}

// makeIntegrations returns the Makefile's INTEGRATIONS, sorted.
func makeIntegrations(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if list, ok := strings.CutPrefix(line, "INTEGRATIONS := "); ok {
			dirs := strings.Fields(list)
			slices.Sort(dirs)
			return dirs
		}
	}
	t.Fatalf("%s sets no INTEGRATIONS", path)
	return nil
}
