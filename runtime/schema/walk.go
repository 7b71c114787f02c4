package schema

import (
	"strconv"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Walk calls f on each subschema that s holds directly, in the order of
// s's members, with the subschema's JSON pointer (ptr, the pointer of s,
// extended) and the row of the keyword that holds it; it stops at the
// first error f returns and returns it. The subschemas are the values of
// every keyword of Form One, the items of a List that is an array, the
// member values of a Map that is an object, and, for OneOrList (items),
// the items of an array or else the value. A subschema may be a boolean
// schema, and a value of dependencies may be a list of member names: f
// checks the kind of what it is given. s of any kind but an object holds
// none.
func Walk(s *jsonval.Value, ptr string, f func(k Keyword, sub *jsonval.Value, ptr string) error) error {
	if s == nil || s.Kind != jsonval.Object {
		return nil
	}
	for _, m := range s.Members {
		if err := walkMember(m, ptr, true, f); err != nil {
			return err
		}
	}
	return nil
}

// WalkMember is Walk for one member m of the schema at ptr, for a caller
// that reads the other keywords of the schema in the same pass; a member
// that is no keyword with subschemas holds none.
func WalkMember(m jsonval.Member, ptr string, f func(k Keyword, sub *jsonval.Value, ptr string) error) error {
	return walkMember(m, ptr, true, f)
}

// walkMember is WalkMember; the pointers are built only when withPtr is
// set (they are "" otherwise).
func walkMember(m jsonval.Member, ptr string, withPtr bool, f func(k Keyword, sub *jsonval.Value, ptr string) error) error {
	k, ok := byName[m.Key]
	if !ok || k.Form == NoSubschema {
		return nil
	}
	var at string
	if withPtr {
		at = ptr + "/" + jsonval.EscapeToken(m.Key)
	}
	switch {
	case k.Form == Map && m.Value.Kind == jsonval.Object:
		for _, c := range m.Value.Members {
			var cat string
			if withPtr {
				cat = at + "/" + jsonval.EscapeToken(c.Key)
			}
			if err := f(*k, c.Value, cat); err != nil {
				return err
			}
		}
	case (k.Form == List || k.Form == OneOrList) && m.Value.Kind == jsonval.Array:
		for i, c := range m.Value.Items {
			var cat string
			if withPtr {
				cat = at + "/" + strconv.Itoa(i)
			}
			if err := f(*k, c, cat); err != nil {
				return err
			}
		}
	case k.Form == One || k.Form == OneOrList:
		return f(*k, m.Value, at)
	}
	return nil
}

// Each is Walk for an f that cannot fail.
func Each(s *jsonval.Value, ptr string, f func(k Keyword, sub *jsonval.Value, ptr string)) {
	_ = Walk(s, ptr, func(k Keyword, sub *jsonval.Value, ptr string) error {
		f(k, sub, ptr)
		return nil
	})
}

// Subschemas is Each without pointers, for a walk that does not need
// them: it builds no strings.
func Subschemas(s *jsonval.Value, f func(k Keyword, sub *jsonval.Value)) {
	if s == nil || s.Kind != jsonval.Object {
		return
	}
	for _, m := range s.Members {
		_ = walkMember(m, "", false, func(k Keyword, sub *jsonval.Value, _ string) error {
			f(k, sub)
			return nil
		})
	}
}
