package main

import (
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

func TestVersionCommands(t *testing.T) {
	_, want, _ := runIn(t, t.TempDir(), "version")
	if !strings.HasPrefix(want, "toolgate ") || !strings.Contains(want, fmt.Sprintf("generated code: runtime version %d\n", gen.CodeVersion)) {
		t.Fatalf("version prints %q", want)
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errOut := runIn(t, t.TempDir(), args...)
		if code != exitOK || out != want || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0, stdout %q", args, code, out, errOut, want)
		}
	}
}

func TestVersion(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"no build info", nil, false, "toolgate (devel)\n"},
		{"go install", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, true, "toolgate v1.4.0\n"},
		{"checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: settings("vcs.revision", "0df7fe5", "vcs.modified", "false")}, true, "toolgate (devel) (revision 0df7fe5)\n"},
		{"modified checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: settings("vcs.revision", "0df7fe5", "vcs.modified", "true")}, true, "toolgate (devel) (revision 0df7fe5, modified)\n"},
		{"go test", &debug.BuildInfo{}, true, "toolgate (devel)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want + fmt.Sprintf("generated code: runtime version %d\n", gen.CodeVersion)
			if got := version(tt.info, tt.ok); got != want {
				t.Errorf("version = %q, want %q", got, want)
			}
		})
	}
}
