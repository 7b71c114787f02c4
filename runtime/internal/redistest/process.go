package redistest

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"testing"
)

// StartProcess starts the test binary again, running no test, with env
// (NAME=value) added to its environment and its stderr the test's: the
// test's TestMain, seeing env, runs a replica instead. It returns the
// process, its stdin and its stdout's lines; stopping it is the caller's.
func StartProcess(t testing.TB, env ...string) (*exec.Cmd, io.WriteCloser, *bufio.Scanner) {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, in, bufio.NewScanner(out)
}
