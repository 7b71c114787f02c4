package gen

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Shared definitions across tool files. A $ref in a tool's parameters may
// name another file of the same schema set, by a path relative to the
// file it is written in, with an optional fragment:
//
//	"$ref": "defs/money.json"
//	"$ref": "defs/common.json#/$defs/Address"
//
// Such a file is a definitions file: a JSON Schema document in a subfolder
// of the folder that holds the tool file (a folder given to Load
// contributes its own *.json files as tools, never its subfolders, so a
// definitions file is never read as a tool). Load reads it, with
// ReadToolFile's limits, only when a reference reaches it, and bundles it
// into the tool: the document goes under the tool's root $defs, named by
// its file name ("money"), with every $id, $anchor and $schema inside it
// removed, and every reference to or inside it rewritten to a JSON pointer
// there ("#/$defs/money", "#/$defs/common/$defs/Address"). The tool's
// schema is then self-contained: santhosh-tekuri/jsonschema compiles it
// as before, the providers get pointer references only, and diff and the
// catalog see the definitions as the tool's own. The model gives a
// bundled definition one Go type for every tool that uses it (shared.go).
//
// A reference to a file outside the set (above the tool file's folder), to
// a tool file of the folder itself, or to a URL is an error naming the file
// and the pointer of the $ref: toolgate never fetches anything. Only
// LoadOptions.Bases, a caller's map of URI prefixes to local folders, reads
// an absolute URI, and from a local file.

// LoadOptions are the options of LoadOptions.LoadAll.
type LoadOptions struct {
	// Bases maps absolute URI prefixes ("http://localhost:1234/") to local
	// folders: a $ref under a prefix reads the file at the rest of the URI
	// in the folder, as a definitions file. Nothing is fetched. The JSON
	// Schema Test Suite's remotes are served so (gen/conformance_test.go).
	Bases map[string]string
}

// maxBundled bounds the documents one tool may bundle.
const maxBundled = 256

// bundledDoc is one definitions document brought into a tool.
type bundledDoc struct {
	url  string         // the URI it was reached by, without fragment
	file string         // its path
	key  string         // its name under the tool's $defs, unless a container
	doc  *jsonval.Value // the tool's copy, rewritten in place
	ix   *refIndex      // its references, under url
	// container is the $defs keyword of a document that holds nothing but
	// definitions ({"$defs": {...}}, annotations aside): its definitions go
	// under the tool's $defs each by its own name, not the document.
	container string
}

// bundledAt is where a definition brought into a tool comes from: its
// file and its pointer there.
type bundledAt struct{ file, ptr string }

// bundler brings the definitions files of one tool file's tools into each.
type bundler struct {
	root  string // the folder of the tool file: toolgate:/// maps to it
	bases map[string]string
	cache map[string]*jsonval.Value // file → parsed, shared by the tools
	errs  ErrorList
}

// defsKey is where a tool's bundled documents go.
func defsKey(draft7 bool) string {
	if draft7 {
		return "definitions"
	}
	return "$defs"
}

// containerOf is the $defs keyword of doc when it holds nothing but
// definitions, else "".
func containerOf(doc *jsonval.Value) string {
	if doc.Kind != jsonval.Object {
		return ""
	}
	kw := ""
	for _, m := range doc.Members {
		switch {
		case (m.Key == "$defs" || m.Key == "definitions") && m.Value.Kind == jsonval.Object && kw == "":
			kw = m.Key
		case m.Key == "$schema", m.Key == "$id", m.Key == "$comment", m.Key == "title", m.Key == "description", strings.HasPrefix(m.Key, "x-"):
		default:
			return ""
		}
	}
	return kw
}

// toolPointer is where the schema at p in d is in the tool: "" for a
// container's root or a member of it that is not a definition.
func (d *bundledDoc) toolPointer(p string, draft7 bool) string {
	defs := "/" + escapePointer(defsKey(draft7)) + "/"
	if d.container == "" {
		return defs + escapePointer(d.key) + p
	}
	rest, ok := strings.CutPrefix(p, "/"+escapePointer(d.container)+"/")
	if !ok {
		return ""
	}
	return defs + rest
}

// bundle brings the documents that t's parameters reference into them.
func (bd *bundler) bundle(t *Tool) {
	s := t.params
	if t.declared != nil {
		s = t.declared
	}
	if s.Kind != jsonval.Object {
		return
	}
	draft7 := false
	if v := s.Get("$schema"); v != nil && v.Kind == jsonval.String && strings.TrimSuffix(v.Str, "#") == draft7URL {
		draft7 = true
	}
	at := t.Pointer + "/" + t.paramsKey
	toolIx := indexRefs(s, schemaURL(t), draft7)
	rootBase := withoutFragment(toolIx.base[""])
	var docs []*bundledDoc
	byURL := map[string]*bundledDoc{}
	keys := map[string]string{} // key under the tool's $defs → who defines it
	if defs := s.Get(defsKey(draft7)); defs != nil && defs.Kind == jsonval.Object {
		for _, m := range defs.Members {
			keys[m.Key] = t.File + "#" + at + "/" + defsKey(draft7) + "/" + escapePointer(m.Key)
		}
	}
	// rewrite points the $ref of the schema at ptr in d (the tool's own
	// schema when d is nil) into the bundle: a reference to another
	// document, and in a bundled document every reference.
	rewrite := func(d *bundledDoc, ptr string) {
		doc, ix, file, errAt := s, toolIx, t.File, at
		if d != nil {
			doc, ix, file, errAt = d.doc, d.ix, d.file, ""
		}
		sch := jsonval.Resolve(doc, ptr)
		if sch == nil || sch.Kind != jsonval.Object {
			return
		}
		ref := sch.Get("$ref")
		if ref == nil || ref.Kind != jsonval.String {
			return
		}
		base := ix.base[ptr]
		u, err := base.Parse(ref.Str)
		if err != nil {
			return
		}
		fail := func(format string, args ...any) {
			bd.errs = append(bd.errs, &Error{File: file, Pointer: errAt + ptr + "/$ref", Keyword: "$ref", Message: fmt.Sprintf(format, args...)})
		}
		into := d
		var target string
		if _, local := ix.resources[withoutFragment(u)]; local {
			if d == nil {
				return
			}
			p, ok, _ := ix.resolve(ptr, ref.Str)
			if !ok {
				return // the model reports it
			}
			target = p
		} else {
			if into = byURL[withoutFragment(u)]; into == nil {
				if into = bd.bring(u, ref.Str, base, len(docs), draft7, keys, fail); into == nil {
					return
				}
				byURL[into.url] = into
				docs = append(docs, into)
			}
			p, ok, _ := into.ix.resolve("", "#"+u.EscapedFragment())
			if !ok || jsonval.Resolve(into.doc, p) == nil {
				fail("reference %q does not resolve in %s", ref.Str, into.file)
				return
			}
			target = p
		}
		tp := into.toolPointer(target, draft7)
		if tp == "" {
			fail("reference %q names %s of %s, which holds only definitions: reference one of them (%s#/%s/Name)", ref.Str, pointerOrRoot(target), into.file, path.Base(into.url), into.container)
			return
		}
		prefix := ""
		if d == nil && withoutFragment(base) != rootBase {
			prefix = rootBase
		}
		ref.Str = fragmentRef(tp, prefix)
	}
	for _, ptr := range sortedPointers(toolIx) {
		rewrite(nil, ptr)
	}
	for i := 0; i < len(docs); i++ { // docs grows as references reach more
		for _, ptr := range sortedPointers(docs[i].ix) {
			rewrite(docs[i], ptr)
		}
	}
	if len(docs) == 0 {
		return
	}
	defs := s.Get(defsKey(draft7))
	if defs == nil || defs.Kind != jsonval.Object {
		defs = &jsonval.Value{Kind: jsonval.Object}
		s.Members = append(s.Members, jsonval.Member{Key: defsKey(draft7), Value: defs})
	}
	t.bundled = map[string]bundledAt{}
	for _, d := range docs {
		for _, ptr := range sortedPointers(d.ix) {
			if sch := jsonval.Resolve(d.doc, ptr); sch != nil && sch.Kind == jsonval.Object {
				sch.Delete("$id")
				sch.Delete("$anchor")
				sch.Delete("$schema")
			}
		}
		checkSchemaText(d.file, "", d.doc, &bd.errs)
		if d.container == "" {
			t.bundled[d.key] = bundledAt{d.file, ""}
			defs.Members = append(defs.Members, jsonval.Member{Key: d.key, Value: d.doc})
			continue
		}
		for _, m := range d.doc.Get(d.container).Members {
			t.bundled[m.Key] = bundledAt{d.file, "/" + escapePointer(d.container) + "/" + escapePointer(m.Key)}
			defs.Members = append(defs.Members, m)
		}
	}
	if t.declared != nil {
		t.params.Members = append(t.params.Members[:1:1], s.Members...)
	}
}

// bring reads the document u names (ref, written where base is in
// effect), for a tool that has brought in n documents, and claims its
// names under the tool's $defs in keys; nil after reporting with fail why
// not.
func (bd *bundler) bring(u *url.URL, ref string, base *url.URL, n int, draft7 bool, keys map[string]string, fail func(string, ...any)) *bundledDoc {
	f, why := bd.locate(base, ref, u)
	if why != "" {
		fail("reference %q %s", ref, why)
		return nil
	}
	if n == maxBundled {
		fail("reference %q: a tool may bring in at most %d definitions files", ref, maxBundled)
		return nil
	}
	v, err := bd.read(f)
	if err != nil {
		fail("reference %q: %v", ref, err)
		return nil
	}
	d := &bundledDoc{url: withoutFragment(u), file: f, key: strings.TrimSuffix(path.Base(u.Path), ".json"), doc: v.Clone(), container: containerOf(v)}
	d.ix = indexRefs(d.doc, d.url, draft7)
	names := []string{d.key}
	if d.container != "" {
		names = names[:0]
		for _, m := range v.Get(d.container).Members {
			names = append(names, m.Key)
		}
	}
	for _, k := range names {
		if prev, dup := keys[k]; dup {
			fail("reference %q brings in definition %q from %s, which %s already defines; rename one of them", ref, k, f, prev)
			return nil
		}
		keys[k] = f
	}
	return d
}

// fragmentRef is the reference to the JSON pointer ptr, under base.
func fragmentRef(ptr, base string) string {
	return base + (&url.URL{Fragment: ptr}).String()
}

// sortedPointers are the schema pointers ix reached, in order.
func sortedPointers(ix *refIndex) []string {
	out := make([]string, 0, len(ix.base))
	for p := range ix.base {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// locate returns the file a reference to u (ref, written where base is in
// effect) names, or why it names none.
func (bd *bundler) locate(base *url.URL, ref string, u *url.URL) (string, string) {
	if u.Scheme == "toolgate" {
		r, err := url.Parse(ref)
		if err != nil || r.Path == "" {
			return "", "does not resolve"
		}
		if strings.HasPrefix(r.Path, "/") {
			return "", "names a file by an absolute path: reference a definitions file by a path relative to the tool file"
		}
		rel := path.Join(path.Dir(strings.TrimPrefix(base.Path, "/")), r.Path)
		switch {
		case rel == ".." || strings.HasPrefix(rel, "../"):
			return "", "names a file outside the schema set (above the tool file's folder)"
		case !strings.Contains(rel, "/"):
			return "", "names a file in the tool files' own folder: shared definitions live in a subfolder (such as defs/), whose files are never read as tools"
		case !strings.HasSuffix(rel, ".json"):
			return "", "names a file that is not a .json file"
		}
		return filepath.Join(bd.root, filepath.FromSlash(rel)), ""
	}
	s := withoutFragment(u)
	prefixes := make([]string, 0, len(bd.bases))
	for p := range bd.bases {
		prefixes = append(prefixes, p)
	}
	slices.Sort(prefixes)
	for _, p := range prefixes {
		rest, ok := strings.CutPrefix(s, p)
		if !ok || rest == "" || slices.Contains(strings.Split(rest, "/"), "..") {
			continue
		}
		return filepath.Join(bd.bases[p], filepath.FromSlash(rest)), ""
	}
	return "", "names a document outside the schema set (a URL): toolgate never fetches one; reference a definitions file by a relative path"
}

// read parses a definitions file, once per tool file.
func (bd *bundler) read(file string) (*jsonval.Value, error) {
	if v, ok := bd.cache[file]; ok {
		return v, nil
	}
	data, err := ReadToolFile(file)
	if err != nil {
		return nil, err
	}
	v, err := jsonval.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	bd.cache[file] = v
	return v, nil
}

// relocate places each problem err (of t's model) finds inside a bundled
// definition in its definitions file, at its pointer there, and returns
// err.
func (t *Tool) relocate(err error) error {
	if err == nil || len(t.bundled) == 0 {
		return err
	}
	list, ok := err.(ErrorList)
	if !ok {
		list = ErrorList{err}
	}
	params := t.Pointer + "/" + t.paramsKey
	for _, e := range list.Flat() {
		ge, ok := e.(*Error)
		if !ok || ge.File != t.File {
			continue
		}
		inParams, ok := strings.CutPrefix(ge.Pointer, params)
		if !ok {
			continue
		}
		from, kw, rest, ok := t.bundledDef(inParams)
		if !ok || kw != "$defs" && kw != "definitions" {
			continue
		}
		ge.File, ge.Pointer = from.file, from.ptr+rest
	}
	return err
}

// bundledDef finds the bundled definition that ptr, a pointer in t's
// parameters, is at or inside ("/<kw>/<key>[/rest]"): where it comes from,
// the definitions keyword kw it is under and the rest of ptr ("" or
// "/..."). The key is looked up in t.bundled, not searched for.
func (t *Tool) bundledDef(ptr string) (from bundledAt, kw, rest string, ok bool) {
	after, ok := strings.CutPrefix(ptr, "/")
	if !ok {
		return bundledAt{}, "", "", false
	}
	if kw, after, ok = strings.Cut(after, "/"); !ok {
		return bundledAt{}, "", "", false
	}
	key, rest, inside := strings.Cut(after, "/")
	if inside {
		rest = "/" + rest
	}
	from, ok = t.bundled[unescapePointer(key)]
	return from, kw, rest, ok
}

// once is the problems of err not in seen, which it adds them to: a
// problem inside a shared definition is reported once, not for each tool
// that uses it (relocate places it in the definitions file).
func once(err error, seen map[string]bool) ErrorList {
	list, ok := err.(ErrorList)
	if !ok {
		list = ErrorList{err}
	}
	var out ErrorList
	for _, e := range list.Flat() {
		if ge, ok := e.(*Error); ok {
			key := ge.File + "\x00" + ge.Pointer + "\x00" + ge.Keyword + "\x00" + ge.Message
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		out = append(out, e)
	}
	return out
}
