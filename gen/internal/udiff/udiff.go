// Package udiff renders the difference between two texts as a unified diff,
// the format `toolgate check` prints when generated code is stale.
package udiff

import (
	"fmt"
	"strings"
)

// context is the number of unchanged lines shown around each change.
const context = 3

type op struct {
	kind byte // ' ', '-', '+'
	line string
}

// Diff returns the unified diff that turns old into new, labelled with the
// two names, or "" when the texts are equal.
func Diff(oldName, old, newName, new string) string {
	if old == new {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	ops := edits(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	// Walk the edit script, emitting hunks of changes with context.
	i := 0
	for i < len(ops) {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = run
		}
		oldLine, newLine := lineNumbers(ops, start)
		var oldCount, newCount int
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				oldCount++
			}
			if o.kind != '-' {
				newCount++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", span(oldLine, oldCount), span(newLine, newCount))
		for _, o := range ops[start:end] {
			out.WriteByte(o.kind)
			out.WriteString(o.line)
			out.WriteByte('\n')
		}
		i = end
	}
	return out.String()
}

func span(line, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", line-1)
	}
	if count == 1 {
		return fmt.Sprint(line)
	}
	return fmt.Sprintf("%d,%d", line, count)
}

// lineNumbers returns the 1-based old and new line numbers of ops[at].
func lineNumbers(ops []op, at int) (int, int) {
	o, n := 1, 1
	for _, x := range ops[:at] {
		if x.kind != '+' {
			o++
		}
		if x.kind != '-' {
			n++
		}
	}
	return o, n
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// edits computes a shortest edit script with the classic longest common
// subsequence table, after trimming the common prefix and suffix (generated
// files usually differ in a few places).
func edits(a, b []string) []op {
	var prefix []op
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		prefix = append(prefix, op{' ', a[0]})
		a, b = a[1:], b[1:]
	}
	var suffix []op
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		suffix = append([]op{{' ', a[len(a)-1]}}, suffix...)
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	n, m := len(a), len(b)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	ops := prefix
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, op{' ', a[i]})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', a[i]})
			i++
		default:
			ops = append(ops, op{'+', b[j]})
			j++
		}
	}
	return append(ops, suffix...)
}
