package provider

import (
	"slices"
	"strconv"

	"github.com/toolgate/toolgate/runtime/format"
	"github.com/toolgate/toolgate/runtime/jsonval"
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
	var schema func(s *jsonval.Value, ptr string)
	schema = func(s *jsonval.Value, ptr string) {
		for _, m := range s.Members {
			at := ptr + "/" + jsonval.EscapeToken(m.Key)
			switch {
			case m.Key == "format" && m.Value.Kind == jsonval.String && !known(m.Value):
				out = append(out, Local{Pointer: ptr, Keyword: m.Key, Value: string(m.Value.Marshal())})
			case slices.Contains(schemaMapKeywords, m.Key):
				for _, c := range m.Value.Members {
					schema(c.Value, at+"/"+jsonval.EscapeToken(c.Key))
				}
			case slices.Contains(schemaListKeywords, m.Key) && m.Value.Kind == jsonval.Array:
				for i, c := range m.Value.Items {
					schema(c, at+"/"+strconv.Itoa(i))
				}
			case slices.Contains(schemaKeywords, m.Key):
				schema(m.Value, at)
			}
		}
	}
	schema(effective, "")
	return out
}
