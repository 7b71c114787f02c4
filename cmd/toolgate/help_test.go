package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// flagsListed returns the long flags the Flags section of a usage lists.
func flagsListed(usage string) []string {
	_, section, _ := strings.Cut(usage, "\nFlags:\n")
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([\w-]+)`).FindAllStringSubmatch(section, -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return names
}

func TestCommandHelp(t *testing.T) {
	tests := []struct {
		cmd   string
		flags []string // every flag the command reads, and no other
	}{
		{"generate", []string{"catalog", "format", "lint-config", "open-objects", "out", "package", "providers", "quiet", "schemas", "strict-oneof"}},
		{"check", []string{"catalog", "format", "lint-config", "open-objects", "out", "package", "providers", "quiet", "schemas", "strict-oneof"}},
		{"export", []string{"open-objects", "provider", "providers", "quiet", "schemas"}},
		{"lint", []string{"fail-on", "format", "lint-config", "min-severity", "providers", "quiet", "schemas"}},
		{"diff", []string{"base", "calls", "diff-config", "format", "open-objects", "quiet", "schemas"}},
		{"test", []string{"calls", "open-objects", "quiet", "schemas"}},
		{"vet", []string{"quiet"}},
	}
	for _, tt := range tests {
		for _, help := range []string{"--help", "-h"} {
			t.Run(tt.cmd+" "+help, func(t *testing.T) {
				code, out, errOut := runIn(t, t.TempDir(), tt.cmd, help)
				if code != exitOK || errOut != "" || !strings.HasPrefix(out, "Usage: toolgate "+tt.cmd) {
					t.Fatalf("exit %d, stderr %q, stdout %q; want exit 0, the usage on stdout only", code, errOut, out)
				}
				if !strings.Contains(out, "\nExample:\n  toolgate "+tt.cmd+" ") {
					t.Errorf("no example line:\n%s", out)
				}
				if got := flagsListed(out); !slices.Equal(got, tt.flags) {
					t.Errorf("flags listed %v, want %v:\n%s", got, tt.flags, out)
				}
			})
		}
		t.Run(tt.cmd+" flag error", func(t *testing.T) {
			code, out, errOut := runIn(t, t.TempDir(), tt.cmd, "--nope")
			if code != exitUsage || out != "" || !strings.Contains(errOut, "unknown flag: --nope") || !strings.Contains(errOut, "Usage: toolgate "+tt.cmd) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, the error and usage on stderr only", code, out, errOut)
			}
		})
	}
}
