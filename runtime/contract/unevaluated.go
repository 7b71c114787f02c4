package contract

import (
	"slices"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// unevaluatedProperties and unevaluatedItems (draft 2020-12). A member or
// item is evaluated when a schema that holds for the value (s itself, and
// the subschemas of s that apply to the same value and hold: allOf, the
// matching branches of anyOf and oneOf, if with then or else,
// dependentSchemas, $ref) names it: properties, a matching
// patternProperties, additionalProperties (every member); prefixItems (the
// first items), items (every item), a contains match; or its own
// unevaluated keyword (everything). not never evaluates.

// seen is what is evaluated of one object or array.
type seen struct {
	allNames, allItems bool
	names              []string
	items              int
	idx                []int
}

// unevaluated checks the unevaluated keyword key of s against v.
func (d *deriver) unevaluated(s *jsonval.Value, key string, kw, v *jsonval.Value, depth int) bool {
	var ev seen
	d.evaluated(s, v, &ev, depth, true)
	switch {
	case key == "unevaluatedProperties" && v.Kind == jsonval.Object:
		for _, m := range v.Members {
			if !ev.allNames && !slices.Contains(ev.names, m.Key) && !d.check(kw, m.Value, depth+1) {
				return false
			}
		}
	case key == "unevaluatedItems" && v.Kind == jsonval.Array:
		for i, it := range v.Items {
			if !ev.allItems && i >= ev.items && !slices.Contains(ev.idx, i) && !d.check(kw, it, depth+1) {
				return false
			}
		}
	}
	return true
}

// evaluated notes in ev what s, which holds for v, evaluates of it; site
// leaves s's own unevaluated keywords out.
func (d *deriver) evaluated(s, v *jsonval.Value, ev *seen, depth int, site bool) {
	if s.Kind != jsonval.Object || depth > maxDepth {
		return
	}
	if !site {
		ev.allNames = ev.allNames || s.Has("unevaluatedProperties")
		ev.allItems = ev.allItems || s.Has("unevaluatedItems")
	}
	if r := s.Get("$ref"); r != nil {
		if t := d.resolve(r.Str); t != nil {
			d.evaluated(t, v, ev, depth+1, false)
		}
	}
	switch v.Kind {
	case jsonval.Object:
		for _, m := range v.Members {
			for _, ms := range d.memberSchemas(s, m.Key) {
				if ms.key == "additionalProperties" {
					ev.allNames = true
				} else {
					ev.names = append(ev.names, m.Key)
				}
			}
		}
	case jsonval.Array:
		for i, it := range v.Items {
			switch _, k := d.itemSchema(s, i); k {
			case "prefixItems":
				ev.items = max(ev.items, i+1)
			case "items":
				ev.allItems = true
			}
			if c := s.Get("contains"); c != nil && d.check(c, it, depth+1) {
				ev.idx = append(ev.idx, i)
			}
		}
	}
	for _, b := range itemsOf(s.Get("allOf")) {
		d.evaluated(b, v, ev, depth+1, false)
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		for _, b := range itemsOf(s.Get(kw)) {
			if d.check(b, v, depth+1) {
				d.evaluated(b, v, ev, depth+1, false)
			}
		}
	}
	if c := s.Get("if"); c != nil {
		if d.check(c, v, depth+1) {
			d.evaluated(c, v, ev, depth+1, false)
			if t := s.Get("then"); t != nil {
				d.evaluated(t, v, ev, depth+1, false)
			}
		} else if e := s.Get("else"); e != nil {
			d.evaluated(e, v, ev, depth+1, false)
		}
	}
	for _, dep := range membersOf(s.Get("dependentSchemas")) {
		if v.Has(dep.Key) {
			d.evaluated(dep.Value, v, ev, depth+1, false)
		}
	}
}
