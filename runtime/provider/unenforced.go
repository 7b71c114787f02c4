package provider

import (
	"github.com/toolgate/toolgate/runtime/format"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// known reports whether the gate asserts the format f.
func known(f *jsonval.Value) bool {
	_, ok := format.Lookup(f.Str)
	return ok && f.Kind == jsonval.String
}

// unenforced lists the formats of the effective schema that the gate does
// not know: annotations, as JSON Schema 2020-12 has them, that no one
// checks, whichever provider the definition is for. It reads the schema
// and changes nothing.
func unenforced(effective *jsonval.Value) []Local {
	var out []Local
	var visit func(s *jsonval.Value, ptr string)
	visit = func(s *jsonval.Value, ptr string) {
		for _, m := range s.Members {
			switch {
			case m.Key == "format" && m.Value.Kind == jsonval.String && !known(m.Value):
				out = append(out, Local{Pointer: ptr, Keyword: m.Key, Value: string(m.Value.Marshal())})
			default:
				_ = schema.WalkMember(m, ptr, func(_ schema.Keyword, sub *jsonval.Value, at string) error {
					visit(sub, at)
					return nil
				})
			}
		}
	}
	visit(effective, "")
	return out
}
