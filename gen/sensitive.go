package gen

import (
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// sensitivePointers returns the JSON pointers of the subschemas of the
// tool's arguments whose values are sensitive (sensitiveUse: writeOnly or
// x-toolgate sensitive), in document order, or [""] when the tool itself is
// marked sensitive. The effective schema keeps every pointer (it only adds
// closures and drops x- members), so the runtime finds them there: the
// Spec's Sensitive, which a call recorder reads because the effective
// schema no longer says x-toolgate sensitive.
func (tm *toolModel) sensitivePointers() []string {
	if tm.t.Meta.Sensitive {
		return []string{""}
	}
	var out []string
	var walk func(s *jsonval.Value, ptr string)
	walk = func(s *jsonval.Value, ptr string) {
		if s.Kind != jsonval.Object {
			return
		}
		if sensitiveUse(s) {
			out = append(out, ptr)
			return // everything below is sensitive already
		}
		schema.Each(s, ptr, func(_ schema.Keyword, sub *jsonval.Value, at string) { walk(sub, at) })
	}
	walk(tm.t.params, "")
	return out
}
