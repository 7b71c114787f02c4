package realset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// A BFCLCall is one ground-truth call of the BFCL corpus, with the
// definition of the function it calls as its entry offers it.
type BFCLCall struct {
	ID       string // the entry, e.g. "parallel_multiple_12"
	Function string // the function called, as named
	// Tool is the function's tool file (BFCLToolFile).
	Tool []byte
	// Args are the call's arguments: the first acceptable value of each
	// parameter (see groundTruth).
	Args []byte
}

// BFCLCalls reads every ground-truth call of the BFCL corpus under corpora
// (the ../shared/corpora folder): the possible_answer files in name order,
// each entry's calls in their order.
func BFCLCalls(corpora string) ([]BFCLCall, error) {
	root := filepath.Join(corpora, "bfcl")
	answers, err := filepath.Glob(filepath.Join(root, "possible_answer", "*.json"))
	if err != nil || len(answers) == 0 {
		return nil, fmt.Errorf("no BFCL answers in %s (%v)", root, err)
	}
	var out []BFCLCall
	for _, path := range answers {
		functions, err := bfclFunctions(filepath.Join(root, filepath.Base(path)))
		if err != nil {
			return nil, err
		}
		err = eachLine(path, func(line []byte) error {
			a, err := jsonval.Parse(line)
			if err != nil {
				return err
			}
			id := a.Get("id")
			gt := a.Get("ground_truth")
			if id == nil || gt == nil || gt.Kind != jsonval.Array {
				return fmt.Errorf("an answer without id or ground_truth")
			}
			for _, item := range gt.Items {
				if item.Kind != jsonval.Object || len(item.Members) != 1 {
					return fmt.Errorf("%s: a ground-truth call is not one function", id.Str)
				}
				call := item.Members[0]
				fn, ok := functions[id.Str][call.Key]
				if !ok {
					return fmt.Errorf("%s: no function %q in the entry", id.Str, call.Key)
				}
				tool, err := BFCLToolFile(fn)
				if err != nil {
					return fmt.Errorf("%s: %s: %w", id.Str, call.Key, err)
				}
				out = append(out, BFCLCall{ID: id.Str, Function: call.Key, Tool: tool, Args: groundTruth(call.Value).Marshal()})
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return out, nil
}

// bfclFunctions reads a question file: entry id → function name → the
// function's definition (the first of that name).
func bfclFunctions(path string) (map[string]map[string]json.RawMessage, error) {
	out := map[string]map[string]json.RawMessage{}
	err := eachLine(path, func(line []byte) error {
		var entry struct {
			ID       string
			Function []json.RawMessage
		}
		if err := json.Unmarshal(line, &entry); err != nil {
			return err
		}
		byName := map[string]json.RawMessage{}
		for _, fn := range entry.Function {
			var f struct{ Name string }
			if err := json.Unmarshal(fn, &f); err != nil {
				return err
			}
			if _, ok := byName[f.Name]; !ok {
				byName[f.Name] = fn
			}
		}
		out[entry.ID] = byName
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// eachLine calls fn with every non-blank line of a JSON Lines file.
func eachLine(path string, fn func([]byte) error) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			if err := fn(line); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

// BFCLToolFile returns the tool file toolgate generates a BFCL function
// definition from, as it is but in JSON Schema: its parameters translated
// with BFCLSchema, and a multi-turn function's "response" (its result, not
// its arguments) left out. Its members are in sorted order, so that equal
// definitions give equal files.
func BFCLToolFile(fn json.RawMessage) ([]byte, error) {
	var def map[string]any
	if err := json.Unmarshal(fn, &def); err != nil {
		return nil, err
	}
	delete(def, "response")
	if p, ok := def["parameters"].(map[string]any); ok {
		BFCLSchema(p)
	}
	return json.Marshal(def)
}
