//go:build unix

package gen

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadToolFileRefusesFIFO would block on opening a FIFO no one writes
// to; it is refused before it is opened.
func TestReadToolFileRefusesFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo.json")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	if _, err := ReadToolFile(path); err == nil || !strings.Contains(err.Error(), "fifo.json: a FIFO, not a regular file") {
		t.Fatalf("ReadToolFile error %v, want the FIFO refused", err)
	}
}
