package jsonread

import (
	"encoding/json"
	"strings"
	"testing"
)

// stricterReasons are the rejections of valid RFC 8259 text that toolgate's
// policy adds and encoding/json.Valid does not make.
var stricterReasons = []string{
	"duplicate member name",
	"lone surrogate",
	"invalid UTF-8",
	"nesting exceeds",
	"input exceeds",
}

// FuzzValid compares Valid with encoding/json.Valid: they agree except where
// the policy is stricter, and the typed reads agree with both (checkWalk).
func FuzzValid(f *testing.F) {
	for _, s := range []string{
		smallCall, nestedCall,
		`{}`, `[]`, `""`, `0`, `-0.0e+0`, `1E-7`, `true`, `false`, `null`,
		`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"\ud83d\ude00":[]}`,
		`"\ud800"`, `"\udc00\ud800"`, "\"\xed\xa0\x80\"", "\"\xff\"", "\xef\xbb\xbf{}",
		`[01]`, `[1.]`, `[.1]`, `[+1]`, `[1e]`, `[NaN]`, `[1,]`, `{"a":1,}`, `{"a" 1}`,
		`[tru]`, `"\x"`, "\"\t\"", "[\f]", `{"a":[{"b":{"c":[1,2,{"d":null}]}}]}`,
		strings.Repeat("[", 65) + strings.Repeat("]", 65),
		members(20, `"a19":1`),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := Valid(data, Limits{})
		std := json.Valid(data)
		switch {
		case err == nil && !std:
			t.Fatalf("Valid accepts %q, encoding/json rejects it", data)
		case err != nil && std:
			reason := err.(*SyntaxError).Reason
			stricter := false
			for _, p := range stricterReasons {
				stricter = stricter || strings.HasPrefix(reason, p)
			}
			if !stricter {
				t.Fatalf("Valid rejects %q (%v), encoding/json accepts it", data, err)
			}
		}
		checkWalk(t, data)
	})
}
