// Package catalog renders the Markdown catalog of a set of tools (from
// templates/catalog.md.tmpl), so that reviewers read a schema change in a
// pull request as a readable diff, and checks a committed catalog for
// staleness.
package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/udiff"
	"github.com/toolgate/toolgate/runtime/format"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/schema"
	"github.com/toolgate/toolgate/templates"
)

// Render returns the catalog of the tools of set (their analysis,
// gen.Analyze), to be written at path (source paths are shown relative to
// its folder). err is an invalid tool definition.
func Render(set *gen.Set, path string) ([]byte, error) {
	sorted := slices.Clone(set.Tools())
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var data templates.CatalogData
	var errs gen.ErrorList
	for _, t := range sorted {
		ct, err := tool(set, t, path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		data.Tools = append(data.Tools, ct)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	var b bytes.Buffer
	if err := templates.Catalog.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// sourceRef is where the JSON at ptr in file is, as the catalog at path
// names it: file relative to the catalog's folder, with forward slashes,
// then "#" and ptr when ptr is not the root.
func sourceRef(path, file, ptr string) string {
	if rel, err := filepath.Rel(filepath.Dir(path), file); err == nil {
		file = filepath.ToSlash(rel)
	}
	if ptr != "" {
		file += "#" + ptr
	}
	return file
}

func tool(set *gen.Set, t *gen.Tool, path string) (templates.CatalogTool, error) {
	schema, version, err := set.Schema(t)
	if err != nil {
		return templates.CatalogTool{}, err
	}
	ct := templates.CatalogTool{Name: t.Name, Description: t.Description, Version: version, Source: sourceRef(path, t.File, t.Pointer),
		Roles: t.Meta.Roles, Destructive: t.Meta.Destructive, ReadOnly: t.Meta.ReadOnly, Idempotent: t.Meta.Idempotent, Timeout: t.Meta.Timeout,
		Approval: t.Meta.Approval, Approvers: t.Meta.Approvers, SelfApproval: t.Meta.SelfApproval}
	for _, d := range t.SharedDefinitions() {
		ct.Shared = append(ct.Shared, templates.CatalogShared{Name: d.Name, From: sourceRef(path, d.File, d.Pointer)})
	}
	warnings, err := set.Warnings(t)
	if err != nil {
		return templates.CatalogTool{}, err
	}
	p := &params{root: schema, invalid: invalidDefaults(t, warnings, schema, "/parameters", "/inputSchema")}
	p.object(schema, "", 0)
	ct.Params = p.out
	if rs := gen.ResultSchema(t, set.Options()); rs != nil {
		r := &params{root: rs, invalid: invalidDefaults(t, warnings, rs, "/outputSchema")}
		r.object(rs, "", 0)
		ct.Result, ct.HasResult = r.out, true
	}
	exported, err := set.AssessEach(t, provider.All)
	if err != nil {
		return templates.CatalogTool{}, err
	}
	for _, e := range exported {
		cp := templates.CatalogProvider{Name: string(e.Provider)}
		if e.LeftOut != nil {
			cp.LeftOut = e.LeftOut.Reason
		}
		if e.Definition != nil {
			for _, l := range e.Definition.Local {
				cp.Local = append(cp.Local, l.String())
			}
		}
		ct.Providers = append(ct.Providers, cp)
	}
	return ct, nil
}

// maxDepth bounds the parameter rows of recursive schemas.
const maxDepth = 8

type params struct {
	root *jsonval.Value
	// invalid are the defaults in root its schema rejects.
	invalid map[*jsonval.Value]bool
	out     []templates.CatalogParam
}

// invalidDefaults finds in schema, the effective schema of the tool's
// member at one of keys, the defaults the generator warned about
// (default-invalid): no accessor applies them.
func invalidDefaults(t *gen.Tool, warnings []gen.Warning, schema *jsonval.Value, keys ...string) map[*jsonval.Value]bool {
	out := map[*jsonval.Value]bool{}
	for _, w := range warnings {
		if w.Kind != gen.WarnDefaultInvalid {
			continue
		}
		for _, k := range keys {
			if ptr, ok := strings.CutPrefix(w.Pointer, t.Pointer+k); ok {
				if d := jsonval.Resolve(schema, ptr); d != nil {
					out[d] = true
				}
			}
		}
	}
	return out
}

func (p *params) deref(s *jsonval.Value) *jsonval.Value {
	for range maxDepth {
		ref := s.Get("$ref")
		if ref == nil || ref.Kind != jsonval.String {
			return s
		}
		t, _, ok := jsonval.ResolveRef(p.root, ref.Str)
		if !ok || t.Kind != jsonval.Object {
			return s
		}
		s = t
	}
	return s
}

// object adds a row per member of the object schema s, and rows for the
// members of nested objects and array items.
func (p *params) object(s *jsonval.Value, prefix string, depth int) {
	props := s.Get("properties")
	if props == nil || props.Kind != jsonval.Object || depth > maxDepth {
		return
	}
	req := map[string]bool{}
	if r := s.Get("required"); r != nil {
		for _, it := range r.Items {
			req[it.Str] = true
		}
	}
	for _, m := range props.Members {
		presence := "optional"
		if req[m.Key] {
			presence = "required"
		}
		p.member(prefix+m.Key, m.Value, presence, depth)
	}
}

// member adds the row of one member (or of an array's items, path
// ending in "[]") and the rows below it.
func (p *params) member(path string, site *jsonval.Value, presence string, depth int) {
	ms := p.deref(site)
	if ms.Kind != jsonval.Object {
		return
	}
	row := templates.CatalogParam{Path: path, Type: strings.Join(schema.TypeNames(ms), " or "), Presence: presence}
	if row.Type == "" {
		row.Type = "any"
	}
	if nullable(ms) {
		row.Presence += ", nullable"
	}
	row.Bounds = bounds(ms)
	row.Format = str(ms.Get("format"))
	if _, known := format.Lookup(row.Format); row.Format != "" && !known {
		row.Format += " (an annotation, not enforced)"
	}
	row.Pattern = str(ms.Get("pattern"))
	if e := ms.Get("enum"); e != nil {
		var vals []string
		for _, it := range e.Items {
			vals = append(vals, string(it.Marshal()))
		}
		row.Enum = strings.Join(vals, ", ")
	} else if c := ms.Get("const"); c != nil {
		row.Enum = string(c.Marshal())
	}
	d := site.Get("default")
	if d == nil {
		d = ms.Get("default")
	}
	if d != nil {
		row.Default, row.DefaultInvalid = string(d.Marshal()), p.invalid[d]
	}
	row.Description = str(site.Get("description"))
	if row.Description == "" {
		row.Description = str(ms.Get("description"))
	}
	p.out = append(p.out, row)
	p.object(ms, path+".", depth+1)
	if items := ms.Get("items"); items != nil && items.Kind == jsonval.Object && depth < maxDepth {
		if it := p.deref(items); it.Has("properties") {
			p.object(it, path+"[].", depth+1)
		} else {
			p.member(path+"[]", items, "each item", depth+1)
		}
	}
}

func str(v *jsonval.Value) string {
	if v == nil || v.Kind != jsonval.String {
		return ""
	}
	return v.Str
}

func nullable(s *jsonval.Value) bool {
	for _, t := range schema.TypeNames(s) {
		if t == "null" {
			return true
		}
	}
	return false
}

// measureLabels name the measures whose bounds the catalog shows; the
// matches of contains are not shown.
var measureLabels = map[schema.Measure]string{schema.Magnitude: "", schema.Length: "length ", schema.ItemCount: "items ", schema.MemberCount: "members "}

// boundLabels are the labels of the bounds (and multipleOf) of the schema
// table, in its order: "length ≤" for the upper bound of a length.
var boundLabels = func() []struct{ key, op string } {
	var out []struct{ key, op string }
	for _, k := range schema.Keywords() {
		prefix, ok := measureLabels[k.Measure]
		if !ok {
			continue
		}
		op := "multiple of"
		switch {
		case k.Bound == schema.Lower && k.Exclusive:
			op = "more than"
		case k.Bound == schema.Lower:
			op = "≥"
		case k.Bound == schema.Upper && k.Exclusive:
			op = "less than"
		case k.Bound == schema.Upper:
			op = "≤"
		}
		out = append(out, struct{ key, op string }{k.Name, prefix + op})
	}
	return out
}()

// bounds renders the numeric, length, item and member bounds of s.
func bounds(s *jsonval.Value) string {
	var parts []string
	for _, l := range boundLabels {
		if v := s.Get(l.key); v != nil && v.Kind == jsonval.Number {
			parts = append(parts, l.op+" "+v.Str)
		}
	}
	if u := s.Get("uniqueItems"); u != nil && u.Kind == jsonval.Bool && u.Bool {
		parts = append(parts, "unique items")
	}
	return strings.Join(parts, ", ")
}

// Check compares the catalog at path with want and returns a unified diff
// when it is stale or missing ("" when it is current).
func Check(path string, want []byte) (string, error) {
	have, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Sprintf("%s: missing; run toolgate generate --catalog %s\n", path, path), nil
	}
	if err != nil {
		return "", err
	}
	if bytes.Equal(have, want) {
		return "", nil
	}
	return udiff.Diff(path, string(have), path+" (generated)", string(want)), nil
}
