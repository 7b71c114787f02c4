package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

func compileSchema(name, schema string) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	url := "toolgate-contract:///" + name + ".json"
	if err := c.AddResource(url, strings.NewReader(schema)); err != nil {
		return nil, fmt.Errorf("compiling %s: %w", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", name, err)
	}
	return s, nil
}

func validate(s *jsonschema.Schema, data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return false
	}
	return s.Validate(v) == nil
}

func mustParse(t *testing.T, s string) *jsonval.Value {
	v, err := jsonval.Parse([]byte(s))
	if err != nil {
		t.Fatalf("invalid embedded JSON: %v", err)
	}
	return v
}

func errOrOK(err error) string {
	if err == nil {
		return "valid"
	}
	return err.Error()
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}

// difference returns the pointer and a description of the first place
// where a and b differ, or "", "" when they are equal.
func difference(a, b *jsonval.Value, ptr string) (string, string) {
	if a.Kind != b.Kind {
		return ptr, fmt.Sprintf("was %s, now %s", a.Marshal(), b.Marshal())
	}
	switch a.Kind {
	case jsonval.Object:
		for _, m := range a.Members {
			other := b.Get(m.Key)
			if other == nil {
				return ptr + "/" + jsonval.EscapeToken(m.Key), "removed (was " + string(m.Value.Marshal()) + ")"
			}
			if p, d := difference(m.Value, other, ptr+"/"+jsonval.EscapeToken(m.Key)); d != "" {
				return p, d
			}
		}
		for _, m := range b.Members {
			if a.Get(m.Key) == nil {
				return ptr + "/" + jsonval.EscapeToken(m.Key), "added: " + string(m.Value.Marshal())
			}
		}
		return "", ""
	case jsonval.Array:
		for i := 0; i < len(a.Items) && i < len(b.Items); i++ {
			if p, d := difference(a.Items[i], b.Items[i], fmt.Sprintf("%s/%d", ptr, i)); d != "" {
				return p, d
			}
		}
		if len(a.Items) != len(b.Items) {
			return ptr, fmt.Sprintf("was %s, now %s", a.Marshal(), b.Marshal())
		}
		return "", ""
	}
	if !bytes.Equal(a.Marshal(), b.Marshal()) {
		return ptr, fmt.Sprintf("was %s, now %s", a.Marshal(), b.Marshal())
	}
	return "", ""
}
