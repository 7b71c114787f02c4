package lint

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden renders the findings on testdata/lintme.json in each format
// and compares them with testdata/lintme.*.golden.
func TestGolden(t *testing.T) {
	tools, err := gen.Load("testdata/lintme.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(gen.Analyze(tools, gen.Options{}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		ext   string
		write func(*bytes.Buffer, *Result) error
	}{
		{"txt", func(b *bytes.Buffer, r *Result) error { return WriteHuman(b, r) }},
		{"json", func(b *bytes.Buffer, r *Result) error { return WriteJSON(b, r) }},
		{"sarif", func(b *bytes.Buffer, r *Result) error { return WriteSARIF(b, r, "v1.2.3") }},
	} {
		var b bytes.Buffer
		if err := w.write(&b, res); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "lintme."+w.ext+".golden")
		if *update {
			if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s differs; run go test ./gen/lint -run Golden -update and review\n%s", golden, b.String())
		}
	}
}
