package jsonread

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// stricterKinds are the rejections of valid RFC 8259 text that toolgate's
// policy adds and encoding/json.Valid does not make.
var stricterKinds = []error{ErrDuplicateName, ErrLoneSurrogate, ErrInvalidUTF8, ErrTooDeep, ErrTooLarge}

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
			stricter := false
			for _, kind := range stricterKinds {
				stricter = stricter || errors.Is(err, kind)
			}
			if !stricter {
				t.Fatalf("Valid rejects %q (%v), encoding/json accepts it", data, err)
			}
		}
		checkWalk(t, data)
	})
}

// FuzzReaderCalls drives a Reader with an arbitrary sequence of calls, in or
// out of protocol: it must never panic, and once an error is recorded it
// must never change.
func FuzzReaderCalls(f *testing.F) {
	f.Add([]byte(smallCall), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte(`[1,"a",{"b":[true,null]}]`), []byte{6, 7, 3, 7, 4, 7, 5, 8, 2, 9, 1, 7, 0, 11})
	f.Add([]byte(`{"a\u0062":"\ud83d\ude00"}`), []byte{5, 8, 4, 8, 10, 12})
	f.Fuzz(func(t *testing.T, data, calls []byte) {
		var r Reader
		r.Reset(data, Limits{MaxDepth: 8})
		var first *SyntaxError
		for _, c := range calls {
			switch c % 16 {
			case 0:
				r.Peek()
			case 1:
				r.Null()
			case 2:
				r.Bool()
			case 3:
				r.Number()
			case 4:
				r.String()
			case 5:
				r.ObjectStart()
			case 6:
				r.ArrayStart()
			case 7:
				r.NextItem()
			case 8:
				r.NextMember()
			case 9:
				r.Skip()
			case 10:
				r.Capture(int(c) % (len(data) + 2))
			case 11:
				r.Finish()
			case 12:
				Unquote(data, r.Offset())
			case 13:
				r.Fail(r.NameOffset(), ErrStopped, "caller")
			case 14:
				r.TryString()
			case 15:
				r.TryNumber()
			}
			if first != nil && r.Err() != first {
				t.Fatalf("error changed from %v to %v", first, r.Err())
			}
			first = r.Err()
			if o := r.Offset(); o < 0 || o > len(data) {
				t.Fatalf("offset %d outside [0, %d]", o, len(data))
			}
		}
	})
}
