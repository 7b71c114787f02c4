// Package jsonval is an ordered JSON document model: objects keep their
// members in the order written and numbers keep their exact text, so that a
// schema read, changed and written again is deterministic and loses nothing.
// toolgate's generator and the provider projections that generated contract
// tests recompute share it.
package jsonval

import (
	"bytes"
	"fmt"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/jsonnum"
	"github.com/toolgate/toolgate/runtime/jsonread"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Value is one JSON value.
type Value struct {
	Kind    Kind
	Str     string   // string contents, or number text
	Bool    bool     // boolean
	Members []Member // object members, in order
	Items   []*Value // array items
}

// Member is one member of an object.
type Member struct {
	Key   string
	Value *Value
}

// Limits for Parse: schema documents may be larger and deeper than tool
// arguments.
var Limits = jsonread.Limits{MaxBytes: 64 << 20, MaxDepth: 512}

// Parse reads one JSON document strictly (see package jsonread): duplicate
// member names, invalid UTF-8, lone surrogates and trailing data are errors.
func Parse(data []byte) (*Value, error) {
	var r jsonread.Reader
	r.Reset(data, Limits)
	v, dupErr := read(&r)
	if dupErr != nil {
		return nil, dupErr
	}
	r.Finish()
	if err := r.Err(); err != nil {
		return nil, err
	}
	return v, nil
}

func read(r *jsonread.Reader) (*Value, error) {
	switch r.Peek() {
	case jsonread.Null:
		r.Null()
		return &Value{Kind: Null}, nil
	case jsonread.Bool:
		return &Value{Kind: Bool, Bool: r.Bool()}, nil
	case jsonread.Number:
		return &Value{Kind: Number, Str: string(r.Number())}, nil
	case jsonread.String:
		return &Value{Kind: String, Str: string(r.String())}, nil
	case jsonread.Array:
		v := &Value{Kind: Array, Items: []*Value{}}
		r.ArrayStart()
		for r.NextItem() {
			item, err := read(r)
			if err != nil {
				return nil, err
			}
			v.Items = append(v.Items, item)
		}
		return v, nil
	case jsonread.Object:
		v := &Value{Kind: Object, Members: []Member{}}
		var seen map[string]bool // past smallObject members; below, a scan
		r.ObjectStart()
		for {
			name, ok := r.NextMember()
			if !ok {
				break
			}
			key := string(name)
			if v.has(key, &seen) {
				return nil, &jsonread.SyntaxError{Offset: r.NameOffset(), Reason: jsonread.DuplicateReason(name), Err: jsonread.ErrDuplicateName}
			}
			child, err := read(r)
			if err != nil {
				return nil, err
			}
			v.Members = append(v.Members, Member{key, child})
		}
		return v, nil
	}
	return nil, nil // the reader has recorded the syntax error
}

// smallObject is the number of members up to which read finds a duplicate
// name by scanning the members, not by a map.
const smallObject = 16

// has reports whether the object being read has a member named key; past
// smallObject members it keeps their names in *seen, and adds key there.
func (v *Value) has(key string, seen *map[string]bool) bool {
	if len(v.Members) < smallObject {
		for _, m := range v.Members {
			if m.Key == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(v.Members))
		for _, m := range v.Members {
			(*seen)[m.Key] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

// Equal reports whether a and b are the same JSON value in the sense of
// JSON Schema's const, enum and uniqueItems: numbers by exact decimal value
// (1 equals 1.0), strings by contents, objects by their member sets
// whatever the order, arrays item by item.
func Equal(a, b *Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.Bool == b.Bool
	case String:
		return a.Str == b.Str
	case Number:
		return jsonnum.Compare([]byte(a.Str), []byte(b.Str)) == 0
	case Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !Equal(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	}
	if len(a.Members) != len(b.Members) {
		return false
	}
	for _, m := range a.Members {
		other := b.Get(m.Key)
		if other == nil || !Equal(m.Value, other) {
			return false
		}
	}
	return true
}

// Rat returns the exact value of a number, or nil when v is nil or not a
// number.
func (v *Value) Rat() *big.Rat {
	if v == nil || v.Kind != Number {
		return nil
	}
	r, ok := new(big.Rat).SetString(v.Str)
	if !ok {
		return nil
	}
	return r
}

// Get returns the member named key of an object, or nil.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for _, m := range v.Members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// Has reports whether the object has a member named key.
func (v *Value) Has(key string) bool { return v.Get(key) != nil }

// Set replaces the member named key, or appends it.
func (v *Value) Set(key string, val *Value) {
	for i, m := range v.Members {
		if m.Key == key {
			v.Members[i].Value = val
			return
		}
	}
	v.Members = append(v.Members, Member{key, val})
}

// Delete removes the member named key, if any.
func (v *Value) Delete(key string) {
	for i, m := range v.Members {
		if m.Key == key {
			v.Members = append(v.Members[:i:i], v.Members[i+1:]...)
			return
		}
	}
}

// Clone returns a deep copy.
func (v *Value) Clone() *Value {
	c := *v
	if v.Members != nil {
		c.Members = make([]Member, len(v.Members))
		for i, m := range v.Members {
			c.Members[i] = Member{m.Key, m.Value.Clone()}
		}
	}
	if v.Items != nil {
		c.Items = make([]*Value, len(v.Items))
		for i, it := range v.Items {
			c.Items[i] = it.Clone()
		}
	}
	return &c
}

// CloneCompact is Clone with the copy's values, members and items
// allocated in three blocks for the whole tree: cheaper to make and to
// collect, but a part of the copy that stays reachable keeps all of it
// alive. It is for copies that are changed and dropped whole. Each member
// and item list is capped at its length, so that growing one copies it
// out of its block.
func (v *Value) CloneCompact() *Value {
	var values, members, items int
	var count func(v *Value)
	count = func(v *Value) {
		values, members, items = values+1, members+len(v.Members), items+len(v.Items)
		for _, m := range v.Members {
			count(m.Value)
		}
		for _, it := range v.Items {
			count(it)
		}
	}
	count(v)
	b := blocks{make([]Value, values), make([]Member, members), make([]*Value, items)}
	return b.clone(v)
}

// blocks are the unused parts of CloneCompact's blocks.
type blocks struct {
	values  []Value
	members []Member
	items   []*Value
}

func (b *blocks) clone(v *Value) *Value {
	c := &b.values[0]
	b.values = b.values[1:]
	*c = *v
	if v.Members != nil {
		n := len(v.Members)
		c.Members, b.members = b.members[:n:n], b.members[n:]
		for i, m := range v.Members {
			c.Members[i] = Member{m.Key, b.clone(m.Value)}
		}
	}
	if v.Items != nil {
		n := len(v.Items)
		c.Items, b.items = b.items[:n:n], b.items[n:]
		for i, it := range v.Items {
			c.Items[i] = b.clone(it)
		}
	}
	return c
}

// Marshal writes v as compact JSON, members in their order.
func (v *Value) Marshal() []byte {
	var b bytes.Buffer
	v.write(&b, "", "")
	return b.Bytes()
}

// AppendJSON appends v to b as compact JSON, as Marshal writes it: given
// room enough (a caller that knows about how long the JSON is), without
// growing b.
func (v *Value) AppendJSON(b []byte) []byte {
	buf := bytes.NewBuffer(b)
	v.write(buf, "", "")
	return buf.Bytes()
}

// MarshalIndent writes v as JSON indented by two spaces.
func (v *Value) MarshalIndent() []byte {
	var b bytes.Buffer
	v.write(&b, "\n", "  ")
	return b.Bytes()
}

func (v *Value) write(b *bytes.Buffer, nl, indent string) {
	switch v.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		b.WriteString(v.Str)
	case String:
		b.Write(AppendString(b.AvailableBuffer(), v.Str))
	case Array:
		if len(v.Items) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		inner := nl + indent
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(inner)
			it.write(b, inner, indent)
		}
		b.WriteString(nl)
		b.WriteByte(']')
	case Object:
		if len(v.Members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		inner := nl + indent
		for i, m := range v.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(inner)
			b.Write(AppendString(b.AvailableBuffer(), m.Key))
			b.WriteByte(':')
			if nl != "" {
				b.WriteByte(' ')
			}
			m.Value.write(b, inner, indent)
		}
		b.WriteString(nl)
		b.WriteByte('}')
	}
}

// AppendString appends s as a JSON string: the escapes JSON requires and
// nothing more (no HTML escaping), invalid UTF-8 replaced by U+FFFD.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// EscapeToken escapes one JSON pointer reference token (RFC 6901).
func EscapeToken(s string) string {
	if strings.ContainsAny(s, "~/") {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	}
	return s
}

// UnescapeToken undoes EscapeToken.
func UnescapeToken(s string) string {
	if strings.Contains(s, "~") {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return s
}

// Resolve returns the value at the JSON pointer ptr in root, or nil.
func Resolve(root *Value, ptr string) *Value {
	if ptr == "" {
		return root
	}
	if ptr[0] != '/' {
		return nil
	}
	v := root
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = UnescapeToken(tok)
		switch v.Kind {
		case Object:
			v = v.Get(tok)
		case Array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v.Items) || fmt.Sprint(i) != tok {
				return nil
			}
			v = v.Items[i]
		default:
			return nil
		}
		if v == nil {
			return nil
		}
	}
	return v
}

// ResolveRef resolves a local reference, the value of a $ref: "#" followed
// by a JSON pointer in URI-fragment form, which is percent-decoded
// (RFC 3986) before its tokens are unescaped (RFC 6901), so that
// "#/$defs/a%20b" and "#/$defs/a~1b" reach the definitions "a b" and "a/b".
// It returns the target, the decoded JSON pointer of the target in root
// (the pointer of a rule found there), and whether the reference is local
// and resolves.
func ResolveRef(root *Value, ref string) (*Value, string, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, "", false
	}
	ptr, err := url.PathUnescape(frag)
	if err != nil {
		return nil, "", false
	}
	v := Resolve(root, ptr)
	return v, ptr, v != nil
}

// AppendKey appends to b a canonical key of v: the keys of two values are
// the same bytes exactly when Equal reports them equal. Numbers are keyed
// by their exact decimal value (1, 1.0 and 10e-1 share a key), strings by
// their contents, objects by their members sorted by name. The work is
// linear in the size of v (plus sorting each object's names), so that
// uniqueItems over n items is a map lookup per item, not n² comparisons.
func AppendKey(b []byte, v *Value) []byte {
	switch v.Kind {
	case Null:
		return append(b, 'n')
	case Bool:
		if v.Bool {
			return append(b, 't')
		}
		return append(b, 'f')
	case Number:
		return jsonnum.AppendCanonical(append(b, '#'), []byte(v.Str))
	case String:
		return AppendString(b, v.Str)
	case Array:
		b = append(b, '[')
		for _, it := range v.Items {
			b = append(AppendKey(b, it), ',')
		}
		return append(b, ']')
	}
	members := slices.Clone(v.Members)
	slices.SortFunc(members, func(x, y Member) int { return strings.Compare(x.Key, y.Key) })
	b = append(b, '{')
	for _, m := range members {
		b = append(AppendString(b, m.Key), ':')
		b = append(AppendKey(b, m.Value), ',')
	}
	return append(b, '}')
}
