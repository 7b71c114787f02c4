package gen

import (
	"fmt"
	"sort"
)

// Shared definitions: one Go type for a definition that several tools
// bring in from the same definitions file (bundle.go). A node built from
// a schema inside a bundled document carries its shared key, the file and
// the pointer inside it. The first tool, in name order, that declares a
// type for a key owns it: its file declares the type, named after the
// definition ("Address", "Money": no tool prefix), and every other tool
// uses that type and declares none (toolModel.foreign). Only struct and
// string-enum types are shared; anything else a definition makes (a
// union, the helpers of a composition, a pattern variable) each tool
// declares under its own names, as before. A tool marked x-toolgate
// sensitive keeps its own copies: its messages never echo a value, so its
// decoders differ. Two different definitions that would have one Go name
// are an error naming both.

// sharedKey is the shared key of the schema at ptr: "" outside bundled
// documents.
func (b *builder) sharedKey(ptr string) string {
	if b.result || b.tool.Meta.Sensitive {
		return ""
	}
	if from, kw, rest, ok := b.tool.bundledDef(ptr); ok && kw == defsKey(b.draft7) {
		return from.file + "#" + from.ptr + rest
	}
	return ""
}

// shareable reports whether n, in the tool whose root is root, is a type
// that tools share.
func shareable(n, root *node) bool {
	return n.shared != "" && n != root && n.nullOf == nil && taggedSite(n) == nil && declaresType(n)
}

// sharedCollisions is an error for each two different shared definitions
// that derive the same Go name, naming both.
func sharedCollisions(models []*toolModel) ErrorList {
	type first struct {
		key string
		tm  *toolModel
	}
	byName := map[string]first{}
	var errs ErrorList
	for _, tm := range models {
		for _, root := range tm.roots() {
			walkNodes(root, func(n *node) {
				if !shareable(n, root) {
					return
				}
				prev, seen := byName[n.goName]
				switch {
				case !seen:
					byName[n.goName] = first{n.shared, tm}
				case prev.key != n.shared:
					errs = append(errs, &Error{File: tm.t.File, Pointer: tm.t.Pointer, Message: fmt.Sprintf("shared definitions %s and %s (used by tools %s and %s) would both be Go type %s; rename one of them", prev.key, n.shared, prev.tm.t.Name, tm.t.Name, n.goName)})
				}
			})
		}
	}
	return errs
}

// shareNames gives n, shared, the names of the first node with its key
// (owners), making n foreign to tm; it reports whether it did.
func shareNames(tm *toolModel, n, root *node, owners map[string]*node) bool {
	if !shareable(n, root) {
		return false
	}
	owner, ok := owners[n.shared]
	if !ok {
		owners[n.shared] = n
		return false
	}
	n.goName, n.enumConsts = owner.goName, owner.enumConsts
	if tm.foreign == nil {
		tm.foreign = map[*node]bool{}
	}
	tm.foreign[n] = true
	return true
}

// closableShared adds to closable (closableStructs of tm) the shared
// structs that any tool decodes closed: the owner's decodeIn then serves
// every tool.
func closableShared(models []*toolModel) {
	keys := map[string]bool{}
	sets := make([]map[*node]bool, len(models))
	for i, tm := range models {
		sets[i] = closableStructs(tm)
		for n := range sets[i] {
			if n != nil && n.shared != "" {
				keys[n.shared] = true
			}
		}
	}
	for i, tm := range models {
		for _, root := range tm.roots() {
			walkNodes(root, func(n *node) {
				if n.shared != "" && keys[n.shared] && n.kind == kindObject && n.hasStruct {
					sets[i][n] = true
				}
			})
		}
		tm.closable = sets[i]
	}
}

// A SharedDefinition is a definition a tool brought in from a definitions
// file: its name under the tool's $defs, and the file and pointer there.
type SharedDefinition struct {
	Name, File, Pointer string
}

// SharedDefinitions lists, by name, the definitions t brought in from
// definitions files (bundle.go).
func (t *Tool) SharedDefinitions() []SharedDefinition {
	out := make([]SharedDefinition, 0, len(t.bundled))
	for name, at := range t.bundled {
		out = append(out, SharedDefinition{Name: name, File: at.file, Pointer: at.ptr})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
