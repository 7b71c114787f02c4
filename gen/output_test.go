package gen_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

// TestWriteReportsEveryFileWritten: Write writes the files in parallel;
// when one cannot be written (its name is too long for the file system),
// it returns that error and names every file it did write, and only those,
// whichever worker got there first.
func TestWriteReportsEveryFileWritten(t *testing.T) {
	var files []gen.File
	for i, name := range []string{"a.go", "b.go", strings.Repeat("x", 300) + ".go", "y.go", "z.go"} {
		files = append(files, gen.File{Name: name, Data: []byte(gen.Header + "\n\npackage p\n\nconst N = " + string(rune('0'+i)) + "\n")})
	}
	for range 20 {
		dir := t.TempDir()
		written, removed, err := gen.Write(dir, files)
		if err == nil {
			t.Fatal("Write of a file whose name is too long succeeded")
		}
		if len(removed) != 0 {
			t.Errorf("removed %v", removed)
		}
		entries, rerr := os.ReadDir(dir)
		if rerr != nil {
			t.Fatal(rerr)
		}
		var onDisk []string
		for _, e := range entries {
			onDisk = append(onDisk, e.Name())
			want := files[slices.IndexFunc(files, func(f gen.File) bool { return f.Name == e.Name() })].Data
			if got, _ := os.ReadFile(filepath.Join(dir, e.Name())); string(got) != string(want) {
				t.Errorf("%s holds %q, want %q", e.Name(), got, want)
			}
		}
		if !slices.Equal(written, onDisk) {
			t.Fatalf("Write reported %v written; the directory holds %v", written, onDisk)
		}
	}
}
