package gen

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestReadToolFile(t *testing.T) {
	dir := t.TempDir()
	tool := filepath.Join(dir, "tool.json")
	if err := os.WriteFile(tool, []byte(`{"name": "t"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse.json")
	if err := os.WriteFile(sparse, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 512<<20); err != nil {
		t.Fatal(err)
	}
	link := func(t *testing.T, name, target string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Skipf("no symlinks: %v", err)
		}
		return p
	}
	if err := os.Mkdir(filepath.Join(dir, "folder.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path func(t *testing.T) string
		want string // "" for the file's content, read
	}{
		{"regular file", func(*testing.T) string { return tool }, ""},
		{"symlink to a regular file", func(t *testing.T) string { return link(t, "link.json", tool) }, ""},
		{"sparse file over the limit", func(*testing.T) string { return sparse }, "sparse.json: larger than the tool file limit of 64 MiB"},
		{"directory", func(*testing.T) string { return filepath.Join(dir, "folder.json") }, "folder.json: a directory, not a regular file"},
		{"symlink to /dev/zero", func(t *testing.T) string {
			if _, err := os.Stat("/dev/zero"); err != nil {
				t.Skip("no /dev/zero")
			}
			return link(t, "zero.json", "/dev/zero")
		}, "zero.json: a device, not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path(t)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			data, err := ReadToolFile(path)
			runtime.ReadMemStats(&after)
			if tt.want == "" {
				if err != nil || string(data) != `{"name": "t"}` {
					t.Fatalf("ReadToolFile = %q, %v", data, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ReadToolFile error %v, want %q", err, tt.want)
			}
			if read := after.TotalAlloc - before.TotalAlloc; read > 1<<20 {
				t.Errorf("refusing the file allocated %d bytes", read)
			}
		})
	}
}

// TestReadToolFileReadsAtMostTheLimit reads a file whose size stat does not
// know (a /proc file says 0): the read stops one byte past the limit.
func TestReadToolFileReadsAtMostTheLimit(t *testing.T) {
	const path = "/proc/self/status"
	if st, err := os.Stat(path); err != nil || st.Size() != 0 {
		t.Skip("no /proc file of unknown size")
	}
	defer func(limit int) { toolFileLimit = limit }(toolFileLimit)
	toolFileLimit = 16
	var ge *Error
	if _, err := ReadToolFile(path); !errors.As(err, &ge) || ge.File != path {
		t.Fatalf("ReadToolFile = %v, want the size limit error naming %s", err, path)
	}
}

// TestLoadRefusesSpecialFiles loads a folder whose x.json is a symlink to
// /dev/zero: the error names the file, and nothing is read from it.
func TestLoadRefusesSpecialFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "x.json")); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	_, err := Load(dir)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != filepath.Join(dir, "x.json") {
		t.Fatalf("Load = %v, want an error naming x.json", err)
	}
}
