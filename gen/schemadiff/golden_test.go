package schemadiff

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden compares testdata/old with testdata/new, which between them
// make every change kind, with one breaking change allowed by
// testdata/allow.json, and checks each output format against its golden
// file.
func TestGolden(t *testing.T) {
	old, err := gen.Load("testdata/old")
	if err != nil {
		t.Fatal(err)
	}
	new, err := gen.Load("testdata/new")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig("testdata/allow.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Compare(gen.Analyze(old, gen.Options{}), gen.Analyze(new, gen.Options{}), cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, td := range r.Tools {
		for _, c := range td.Changes {
			seen[c.Kind] = true
		}
	}
	for _, k := range Kinds {
		if !seen[k.ID] {
			t.Errorf("the golden pair makes no %s change", k.ID)
		}
	}
	if n, allowed := r.Count(Breaking); allowed != 1 || n < 10 {
		t.Errorf("breaking %d, allowed %d; want 1 allowed", n, allowed)
	}
	for _, f := range []struct {
		ext   string
		write func(io.Writer, *Report) error
	}{{"txt", WriteHuman}, {"json", WriteJSON}, {"md", WriteMarkdown}} {
		var b bytes.Buffer
		if err := f.write(&b, r); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, filepath.Join("testdata", "diff."+f.ext+".golden"), b.Bytes())
	}
}

// checkGolden compares got with the golden file at path, or rewrites the
// file under -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs; run go test ./gen/schemadiff -run Golden -update and review\n%s", path, got)
	}
}
