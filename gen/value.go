package gen

import "github.com/toolgate/toolgate/runtime/jsonval"

// escapePointer escapes one JSON pointer reference token (RFC 6901).
func escapePointer(s string) string { return jsonval.EscapeToken(s) }

// unescapePointer undoes escapePointer.
func unescapePointer(s string) string { return jsonval.UnescapeToken(s) }

func pointerOrRoot(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}
