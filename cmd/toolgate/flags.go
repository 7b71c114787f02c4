package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

// setUsage makes fs print its command's usage: the synopsis, what the
// command does, one example and its flags, to fs.Output() (stdout for
// --help, stderr after a usage error: see parseArgs).
func setUsage(fs *pflag.FlagSet, synopsis, what, example string) {
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s\n\n%s\n\nExample:\n  %s\n\nFlags:\n%s", synopsis, what, example, fs.FlagUsages())
	}
}

// parseArgs parses args; when it returns false the command ends with code:
// 0 after --help or -h, whose usage went to stdout, 2 after a flag error,
// reported with the usage on stderr. Afterwards fs writes to stderr, so a
// command's own usage errors print its usage there too.
func parseArgs(fs *pflag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	fs.SetOutput(stdout) // pflag prints the usage of --help while parsing
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	if errors.Is(err, pflag.ErrHelp) {
		return exitOK, false
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
		fs.Usage()
		return exitUsage, false
	}
	return exitOK, true
}

// parseFlags is parseArgs for a command that takes no arguments but flags.
func parseFlags(fs *pflag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	if code, ok := parseArgs(fs, args, stdout, stderr); !ok {
		return code, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected arguments %q\n", fs.Name(), fs.Args())
		fs.Usage()
		return exitUsage, false
	}
	return exitOK, true
}
