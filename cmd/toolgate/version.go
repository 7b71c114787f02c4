package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/toolgate/toolgate/gen"
)

// version describes this build of toolgate: the main module's version as
// the go command resolved it ("(devel)" for a build from a checkout), the
// VCS revision it was built from when the go command recorded one, and the
// runtime version the code it generates is written for.
func version(info *debug.BuildInfo, ok bool) string {
	mod := mainVersion(info, ok)
	var rev, modified string
	if ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
	}
	v := "toolgate " + mod
	if rev != "" {
		v += " (revision " + rev
		if modified == "true" {
			v += ", modified"
		}
		v += ")"
	}
	return fmt.Sprintf("%s\ngenerated code: runtime version %d\n", v, gen.CodeVersion)
}

// mainVersion is the main module's version as the go command resolved it,
// "(devel)" for a build from a checkout.
func mainVersion(info *debug.BuildInfo, ok bool) string {
	if ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// toolVersion is this build's mainVersion (SARIF's tool.driver.version).
func toolVersion() string { return mainVersion(debug.ReadBuildInfo()) }

func runVersion(stdout io.Writer) int {
	fmt.Fprint(stdout, version(debug.ReadBuildInfo()))
	return exitOK
}
