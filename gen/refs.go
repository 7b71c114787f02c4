package gen

import (
	"net/url"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// References inside one tool's schema. Besides JSON pointers ("#/$defs/a"),
// a $ref may name a schema resource that an $id inside the same document
// declares ("item.json", "urn:uuid:…"), a pointer into one
// ("item.json#/properties/a"), or an anchor ("#node": $anchor in 2020-12,
// an $id of "#node" in draft-07). refIndex maps each such URI to the JSON
// pointer of its schema, so every reference becomes a local pointer before
// the model is built. A reference to a document that is not part of the
// tool file (a remote reference) is refused.

type refIndex struct {
	base      map[string]*url.URL // schema pointer → base URI in effect there
	resources map[string]string   // absolute URI (no fragment) → schema pointer
	anchors   map[string]string   // absolute URI with an anchor fragment → schema pointer
}

func indexRefs(root *jsonval.Value, rootURL string, draft7 bool) *refIndex {
	ix := &refIndex{base: map[string]*url.URL{}, resources: map[string]string{}, anchors: map[string]string{}}
	u, err := url.Parse(rootURL)
	if err != nil {
		return ix
	}
	ix.walk(root, "", u, draft7)
	return ix
}

func (ix *refIndex) walk(s *jsonval.Value, ptr string, base *url.URL, draft7 bool) {
	if s.Kind != jsonval.Object {
		ix.base[ptr] = base
		return
	}
	// In draft-07 a $ref makes every keyword beside it ignored, $id too.
	if id := s.Get("$id"); id != nil && id.Kind == jsonval.String && !(draft7 && s.Has("$ref")) {
		if u, err := base.Parse(id.Str); err == nil {
			if draft7 && strings.HasPrefix(id.Str, "#") {
				ix.anchors[u.String()] = ptr
			} else {
				u.Fragment, u.RawFragment = "", ""
				base = u
				ix.resources[u.String()] = ptr
			}
		}
	}
	if ptr == "" {
		ix.resources[withoutFragment(base)] = ""
	}
	if a := s.Get("$anchor"); a != nil && a.Kind == jsonval.String && !draft7 {
		ix.anchors[withoutFragment(base)+"#"+a.Str] = ptr
	}
	ix.base[ptr] = base
	schema.Each(s, ptr, func(_ schema.Keyword, sub *jsonval.Value, at string) { ix.walk(sub, at, base, draft7) })
}

func withoutFragment(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}

// resolve returns the pointer of the schema that ref, written in the
// schema at ptr, refers to. remote is set when ref names a document that
// the tool file does not hold.
func (ix *refIndex) resolve(ptr, ref string) (target string, ok, remote bool) {
	base := ix.base[ptr]
	for base == nil && ptr != "" {
		// Not a schema the walk reached (a reference into an example,
		// say): the base in effect is that of the nearest schema above.
		ptr = ptr[:strings.LastIndexByte(ptr, '/')]
		base = ix.base[ptr]
	}
	if base == nil {
		return "", false, false
	}
	u, err := base.Parse(ref)
	if err != nil {
		return "", false, false
	}
	frag := u.Fragment
	doc, found := ix.resources[withoutFragment(u)]
	if !found {
		return "", false, true
	}
	switch {
	case frag == "":
		return doc, true, false
	case strings.HasPrefix(frag, "/"):
		return doc + frag, true, false
	}
	t, found := ix.anchors[withoutFragment(u)+"#"+frag]
	return t, found, false
}
