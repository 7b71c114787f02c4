// Package synth writes realistic synthetic tool files for toolgate's
// performance measurements: each tool has 5 to 15 members mixing strings
// with patterns, formats, enums and length bounds, bounded integers and
// numbers, booleans, arrays and nested objects. The output depends only on
// the seed and the count, so a measurement can be repeated exactly.
package synth

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/runtime/schema"
)

// lengthLo and lengthHi are the schema table's bounds of a string's length.
var (
	lengthLo, _ = schema.BoundOf(schema.Length, schema.Lower)
	lengthHi, _ = schema.BoundOf(schema.Length, schema.Upper)
)

var (
	verbs = []string{"create", "update", "get", "list", "cancel", "archive", "approve", "assign", "schedule", "export"}
	nouns = []string{"invoice", "ticket", "booking", "account", "shipment", "report", "contract", "payment", "device", "listing"}
	words = []string{"amount", "reason", "region", "status", "label", "owner", "priority", "window", "channel", "limit",
		"contact", "address", "notes", "currency", "rating", "origin", "target", "comment", "source", "tier",
		"level", "quota", "period", "method", "format", "locale", "weight", "volume", "stage", "topic"}
	formats  = []string{"date", "date-time", "email", "uri", "uuid", "hostname", "ipv4", "time"}
	patterns = []string{"^[A-Z][A-Z0-9-]{2,31}$", "^[a-z0-9_]{3,24}$", "^[A-Z]{2}$", "^\\d{4,10}$", "^[A-Z0-9]{4,12}$"}
	enumSets = [][]string{
		{"low", "normal", "high", "urgent"},
		{"draft", "open", "closed"},
		{"email", "sms", "push", "voice", "post"},
		{"standard", "express", "next_day"},
		{"daily", "weekly", "monthly", "yearly"},
	}
)

// Tool returns the tool file of tool number i of the set seeded by seed.
func Tool(seed uint64, i int) []byte {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	g := &gen{r: r}
	name := fmt.Sprintf("%s_%s_%d", pick(r, verbs), pick(r, nouns), i)
	params := g.object(0, 5+r.IntN(11))
	tool := map[string]any{
		"name":        name,
		"description": fmt.Sprintf("Synthetic tool %d: %s. Use it when the request names a %s; not for bulk changes.", i, name, pick(r, nouns)),
		"parameters":  params,
	}
	data, err := json.MarshalIndent(tool, "", "  ")
	if err != nil {
		panic(err) // only maps, slices, strings and numbers: cannot fail
	}
	return append(data, '\n')
}

// Write writes n tool files, tool_00000.json onwards, into dir.
func Write(dir string, seed uint64, n int) error {
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("tool_%05d.json", i)), Tool(seed, i), 0o644); err != nil {
			return err
		}
	}
	return nil
}

type gen struct{ r *rand.Rand }

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

// object returns a closed object schema of n members; depth bounds the
// nesting (members of a nested object are scalars or arrays of scalars).
func (g *gen) object(depth, n int) map[string]any {
	props := map[string]any{}
	var required []string
	for _, k := range g.r.Perm(len(words))[:n] {
		name := words[k]
		props[name] = g.member(depth, name)
		if g.r.IntN(3) > 0 {
			required = append(required, name)
		}
	}
	obj := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		obj["required"] = required
	}
	return obj
}

func (g *gen) member(depth int, name string) map[string]any {
	kinds := 8
	if depth > 0 {
		kinds = 6 // no further nesting
	}
	var m map[string]any
	switch g.r.IntN(kinds) {
	case 0:
		m = map[string]any{"type": "string", "pattern": pick(g.r, patterns)}
	case 1:
		m = map[string]any{"type": "string", "format": pick(g.r, formats)}
	case 2:
		m = map[string]any{"type": "string", "enum": pick(g.r, enumSets)}
	case 3:
		lo := g.r.IntN(3)
		m = map[string]any{"type": "string", lengthLo.Name: lo, lengthHi.Name: lo + 20 + g.r.IntN(200)}
	case 4:
		lo := g.r.IntN(10)
		m = map[string]any{"type": "integer", "minimum": lo, "maximum": lo + 1 + g.r.IntN(10000)}
	case 5:
		if g.r.IntN(2) == 0 {
			m = map[string]any{"type": "boolean"}
		} else {
			m = map[string]any{"type": "number", "exclusiveMinimum": 0, "maximum": 100000, "multipleOf": 0.01}
		}
	case 6:
		items := g.member(depth+1, name)
		delete(items, "description")
		m = map[string]any{"type": "array", "items": items, "minItems": g.r.IntN(2), "maxItems": 5 + g.r.IntN(50)}
	default:
		m = g.object(depth+1, 2+g.r.IntN(5))
	}
	m["description"] = fmt.Sprintf("The %s of the request, as the caller states it.", name)
	return m
}
