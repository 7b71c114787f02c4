// Package gobuild lets tests compile and run generated Go code: it lays out
// a throw-away module that imports this repository's packages through a
// replace directive, so generated code is checked exactly as a user's build
// would check it.
package gobuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// RepoRoot returns the root of the toolgate module (the folder holding its
// go.mod), found from this source file.
func RepoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("gobuild: cannot locate the source file")
	}
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}

// Module creates a temporary module named name that requires toolgate
// (replaced by the working tree) and returns its folder.
func Module(t testing.TB, name string) string {
	t.Helper()
	root := RepoRoot(t)
	dir := t.TempDir()
	gomod := "module " + name + "\n\ngo 1.26\n\nrequire github.com/toolgate/toolgate v0.0.0\n\nreplace github.com/toolgate/toolgate => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// WriteFiles writes files (name → content) under dir/sub.
func WriteFiles(t testing.TB, dir, sub string, files map[string][]byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, sub, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Go runs the go command with args in dir and returns its combined output.
func Go(t testing.TB, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}
