package gen

import (
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// re2Patterns returns a copy of a schema in which every pattern and every
// patternProperties name is written in Go's syntax (ecmaToRE2), for the
// generate-time compiler: it reads patterns with Go's regexp, so it must
// see the expressions the decoder runs (\cC, ECMA's \s), not the ECMA-262
// text. A pattern that cannot be translated is left as written, for the
// compiler to refuse. Only schema positions are rewritten, never data
// (const, enum, default, examples).
func re2Patterns(s *jsonval.Value) *jsonval.Value {
	out := s.CloneCompact()
	rewritePatterns(out)
	return out
}

func rewritePatterns(s *jsonval.Value) {
	if s.Kind != jsonval.Object {
		return
	}
	for i, m := range s.Members {
		switch {
		case m.Key == "pattern" && m.Value.Kind == jsonval.String:
			if re, err := ecmaToRE2(m.Value.Str); err == nil {
				s.Members[i].Value = &jsonval.Value{Kind: jsonval.String, Str: re}
			}
		case m.Key == "patternProperties" && m.Value.Kind == jsonval.Object:
			for j, c := range m.Value.Members {
				if re, err := ecmaToRE2(c.Key); err == nil {
					m.Value.Members[j].Key = re
				}
			}
		}
	}
	schema.Subschemas(s, func(_ schema.Keyword, sub *jsonval.Value) { rewritePatterns(sub) })
}
