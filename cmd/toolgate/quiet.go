package main

import (
	"bytes"
	"io"

	"github.com/spf13/pflag"
)

// quietFlag adds -q/--quiet to a command's flags.
func quietFlag(fs *pflag.FlagSet) *bool {
	return fs.BoolP("quiet", "q", false, "print nothing when the command succeeds (what it would print is printed when it fails)")
}

// hush is -q: a command that ends with exit code 0 prints nothing, as sqlc
// and buf do; one that fails prints all it would have printed, stdout's
// part first. keepStdout leaves stdout as it is, for a machine-readable
// format (or export) whose output is the document asked for. It returns
// the writers the command uses and the function that ends it with its exit
// code.
func hush(stdout, stderr io.Writer, keepStdout bool) (io.Writer, io.Writer, func(code int)) {
	var out, errOut bytes.Buffer
	cmdOut := io.Writer(&out)
	if keepStdout {
		cmdOut = stdout
	}
	return cmdOut, &errOut, func(code int) {
		if code == exitOK {
			return
		}
		if !keepStdout {
			stdout.Write(out.Bytes())
		}
		stderr.Write(errOut.Bytes())
	}
}
