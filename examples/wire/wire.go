// Package wire checks toolgate's provider definitions against the official
// SDKs, on the wire: the tests build requests with openai-go (Chat
// Completions and Responses), anthropic-sdk-go, genai (Gemini) and the MCP
// go-sdk from the generated definitions, capture the bytes that reach a
// loopback server (or, for MCP, that cross an in-memory transport), and
// compare the tool schemas in them with the generated definitions as JSON
// values and, where it matters, in key order. README.md lists the SDK traps the tests pin down.
//
// The package's non-test code compares JSON texts (JSONDiff, KeyOrders).
// The MCP tests serve the registry with runtime/mcpgate, the MCP server
// that was first written here.
package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/provider"
)

// Find returns the definition for p among defs.
func Find(defs []provider.Definition, p provider.Provider) (provider.Definition, bool) {
	for _, d := range defs {
		if d.Provider == p {
			return d, true
		}
	}
	return provider.Definition{}, false
}

// JSONDiff compares two JSON texts as JSON values: objects as sets of
// members, arrays in order, numbers by value (1e2 equals 100). It returns
// one line per difference, each naming the JSON pointer, or nil when they
// are equal.
func JSONDiff(got, want []byte) []string {
	g, err := decode(got)
	if err != nil {
		return []string{"got: " + err.Error()}
	}
	w, err := decode(want)
	if err != nil {
		return []string{"want: " + err.Error()}
	}
	var out []string
	diff("", g, w, &out)
	return out
}

func decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func show(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 120 {
		return string(b[:120]) + "…"
	}
	return string(b)
}

func diff(ptr string, g, w any, out *[]string) {
	at := ptr
	if at == "" {
		at = "(root)"
	}
	switch w := w.(type) {
	case map[string]any:
		gm, ok := g.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: got %s, want %s", at, show(g), show(w)))
			return
		}
		keys := make([]string, 0, len(w)+len(gm))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range gm {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := ptr + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
			gv, gok := gm[k]
			wv, wok := w[k]
			switch {
			case !gok:
				*out = append(*out, fmt.Sprintf("%s: missing (want %s)", p, show(wv)))
			case !wok:
				*out = append(*out, fmt.Sprintf("%s: unexpected %s", p, show(gv)))
			default:
				diff(p, gv, wv, out)
			}
		}
	case []any:
		ga, ok := g.([]any)
		if !ok || len(ga) != len(w) {
			*out = append(*out, fmt.Sprintf("%s: got %s, want %s", at, show(g), show(w)))
			return
		}
		for i := range w {
			diff(ptr+"/"+strconv.Itoa(i), ga[i], w[i], out)
		}
	case json.Number:
		gn, ok := g.(json.Number)
		if !ok || !sameNumber(gn, w) {
			*out = append(*out, fmt.Sprintf("%s: got %s, want %s", at, show(g), show(w)))
		}
	default:
		if g != w {
			*out = append(*out, fmt.Sprintf("%s: got %s, want %s", at, show(g), show(w)))
		}
	}
}

func sameNumber(a, b json.Number) bool {
	x, ok1 := new(big.Rat).SetString(string(a))
	y, ok2 := new(big.Rat).SetString(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

// KeyOrders returns the member names of every object in data, in document
// order, keyed by the object's JSON pointer ("" for the root).
func KeyOrders(data []byte) (map[string][]string, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	out := map[string][]string{}
	if err := walkOrders(d, "", out); err != nil {
		return nil, err
	}
	return out, nil
}

func walkOrders(d *json.Decoder, ptr string, out map[string][]string) error {
	tok, err := d.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		keys := []string{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return err
			}
			name := k.(string)
			keys = append(keys, name)
			if err := walkOrders(d, ptr+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(name), out); err != nil {
				return err
			}
		}
		out[ptr] = keys
		_, err = d.Token()
		return err
	case json.Delim('['):
		for i := 0; d.More(); i++ {
			if err := walkOrders(d, ptr+"/"+strconv.Itoa(i), out); err != nil {
				return err
			}
		}
		_, err = d.Token()
		return err
	}
	return nil
}

// OrderDiffs lists, for every object present in both texts, the pointers
// where got has the members of want in another order, with both orders.
func OrderDiffs(got, want []byte) ([]string, error) {
	g, err := KeyOrders(got)
	if err != nil {
		return nil, err
	}
	w, err := KeyOrders(want)
	if err != nil {
		return nil, err
	}
	var out []string
	for ptr, wk := range w {
		if gk, ok := g[ptr]; ok && !slices.Equal(gk, wk) {
			out = append(out, fmt.Sprintf("%s: got %v, want %v", orRoot(ptr), gk, wk))
		}
	}
	sort.Strings(out)
	return out, nil
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "(root)"
	}
	return ptr
}
