package suiteskip

import (
	"bytes"
	"os"
	"testing"
)

// TestSameAsGen: this package is gen/internal/suiteskip's code (an internal
// package serves one tree), whose tests then test it too, as long as all
// but the package comment is the same.
func TestSameAsGen(t *testing.T) {
	code := func(path string) []byte {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, after, ok := bytes.Cut(data, []byte("\npackage suiteskip\n"))
		if !ok {
			t.Fatalf("%s has no package clause", path)
		}
		return after
	}
	if !bytes.Equal(code("suiteskip.go"), code("../../../gen/internal/suiteskip/suiteskip.go")) {
		t.Error("runtime/internal/suiteskip differs from gen/internal/suiteskip; make the change in both")
	}
}
