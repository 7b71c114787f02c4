package gen

import (
	"slices"
	"strconv"

	"github.com/toolgate/toolgate/runtime/jsonval"
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
		for _, m := range s.Members {
			at := ptr + "/" + escapePointer(m.Key)
			switch {
			case slices.Contains(subschemaOne, m.Key):
				walk(m.Value, at)
			case slices.Contains(subschemaMap, m.Key) && m.Value.Kind == jsonval.Object:
				for _, c := range m.Value.Members {
					walk(c.Value, at+"/"+escapePointer(c.Key))
				}
			case (slices.Contains(subschemaList, m.Key) || m.Key == "items") && m.Value.Kind == jsonval.Array:
				for i, c := range m.Value.Items {
					walk(c, at+"/"+strconv.Itoa(i))
				}
			case m.Key == "items":
				walk(m.Value, at)
			}
		}
	}
	walk(tm.t.params, "")
	return out
}
