package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A value is a parsed JSON value that keeps the order of object members and
// the exact text of numbers, so that the schemas toolgate derives keep the
// author's order and emitting them is deterministic.
type value struct {
	kind    valueKind
	str     string // string contents, or number text
	boolean bool
	members []member // object
	items   []*value // array
}

type member struct {
	key string
	val *value
}

type valueKind uint8

const (
	nullValue valueKind = iota
	boolValue
	numberValue
	stringValue
	arrayValue
	objectValue
)

func (k valueKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// parseValue parses one JSON document. Duplicate member names are an error:
// a schema with two "properties" keys means two different things to two
// different readers.
func parseValue(data []byte) (*value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec, "")
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

func readValue(dec *json.Decoder, ptr string) (*value, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("invalid JSON at byte %d: %v", dec.InputOffset(), err)
	}
	switch t := tok.(type) {
	case nil:
		return &value{kind: nullValue}, nil
	case bool:
		return &value{kind: boolValue, boolean: t}, nil
	case json.Number:
		return &value{kind: numberValue, str: string(t)}, nil
	case string:
		return &value{kind: stringValue, str: t}, nil
	case json.Delim:
		if t == '[' {
			v := &value{kind: arrayValue, items: []*value{}}
			for dec.More() {
				item, err := readValue(dec, ptr+"/"+strconv.Itoa(len(v.items)))
				if err != nil {
					return nil, err
				}
				v.items = append(v.items, item)
			}
			_, err := dec.Token()
			return v, err
		}
		v := &value{kind: objectValue, members: []member{}}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key := kt.(string)
			if seen[key] {
				return nil, fmt.Errorf("duplicate member %q at %s", key, pointerOrRoot(ptr))
			}
			seen[key] = true
			child, err := readValue(dec, ptr+"/"+escapePointer(key))
			if err != nil {
				return nil, err
			}
			v.members = append(v.members, member{key, child})
		}
		_, err := dec.Token()
		return v, err
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// get returns the member named key, or nil.
func (v *value) get(key string) *value {
	if v == nil || v.kind != objectValue {
		return nil
	}
	for _, m := range v.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// has reports whether the object has a member named key.
func (v *value) has(key string) bool { return v.get(key) != nil }

// set replaces the member named key or appends it.
func (v *value) set(key string, val *value) {
	for i, m := range v.members {
		if m.key == key {
			v.members[i].val = val
			return
		}
	}
	v.members = append(v.members, member{key, val})
}

// clone returns a deep copy.
func (v *value) clone() *value {
	c := *v
	if v.members != nil {
		c.members = make([]member, len(v.members))
		for i, m := range v.members {
			c.members[i] = member{m.key, m.val.clone()}
		}
	}
	if v.items != nil {
		c.items = make([]*value, len(v.items))
		for i, it := range v.items {
			c.items[i] = it.clone()
		}
	}
	return &c
}

// marshal writes v as compact JSON, members in their order.
func (v *value) marshal() []byte {
	var b bytes.Buffer
	v.write(&b, "", "")
	return b.Bytes()
}

// marshalIndent writes v as indented JSON, members in their order.
func (v *value) marshalIndent() []byte {
	var b bytes.Buffer
	v.write(&b, "\n", "  ")
	return b.Bytes()
}

func (v *value) write(b *bytes.Buffer, nl, indent string) {
	switch v.kind {
	case nullValue:
		b.WriteString("null")
	case boolValue:
		b.WriteString(strconv.FormatBool(v.boolean))
	case numberValue:
		b.WriteString(v.str)
	case stringValue:
		writeJSONString(b, v.str)
	case arrayValue:
		if len(v.items) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		inner := nl + indent
		for i, it := range v.items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(inner)
			it.write(b, inner, indent)
		}
		b.WriteString(nl)
		b.WriteByte(']')
	case objectValue:
		if len(v.members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		inner := nl + indent
		for i, m := range v.members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(inner)
			writeJSONString(b, m.key)
			b.WriteByte(':')
			if nl != "" {
				b.WriteByte(' ')
			}
			m.val.write(b, inner, indent)
		}
		b.WriteString(nl)
		b.WriteByte('}')
	}
}

// writeJSONString quotes s the way encoding/json does, without HTML escaping.
func writeJSONString(b *bytes.Buffer, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// escapePointer escapes one JSON pointer reference token (RFC 6901).
func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// unescapePointer undoes escapePointer.
func unescapePointer(s string) string {
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}

func pointerOrRoot(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}
