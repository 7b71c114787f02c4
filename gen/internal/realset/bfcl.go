package realset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// bfclIDs are the BFCL entries whose called function and ground-truth call
// the set takes: flat and small (uber.ride, get_user_info), many optional
// members (get_service_providers), enums, arrays of numbers and strings,
// nested objects (order_processing.handle_order, get_headway) and arrays of
// objects (database.query, uber.eat.order).
var bfclIDs = []string{
	"live_simple_0-0-0",        // get_user_info
	"live_simple_2-2-0",        // uber.ride
	"live_simple_48-21-0",      // find_beer
	"live_simple_95-56-0",      // process_data
	"live_simple_188-113-0",    // getDataForProfessional
	"live_multiple_64-26-0",    // uber.eat.order, array of objects
	"live_multiple_121-46-0",   // get_headway, nested objects
	"live_multiple_180-76-0",   // order_processing.handle_order
	"live_multiple_218-94-0",   // get_sensor_readings_history_by_interval
	"live_multiple_971-212-0",  // get_service_providers
	"live_multiple_1016-245-0", // create_global_application_alert_config
	"simple_python_96",         // database.query
	"simple_python_380",        // hotel_booking
}

// bfclFile is the question file of an entry ("live_multiple_180-76-0" is in
// BFCL_v4_live_multiple.json).
func bfclFile(id string) string {
	i := strings.LastIndexByte(id, '_')
	return "BFCL_v4_" + id[:i] + ".json"
}

func loadBFCL(corpora string) ([]Tool, error) {
	root := filepath.Join(corpora, "bfcl")
	var out []Tool
	for _, id := range bfclIDs {
		file := bfclFile(id)
		q, err := bfclLine(filepath.Join(root, file), id)
		if err != nil {
			return nil, err
		}
		a, err := bfclLine(filepath.Join(root, "possible_answer", file), id)
		if err != nil {
			return nil, err
		}
		t, err := bfclTool(id, file, q, a)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", file, id, err)
		}
		out = append(out, t)
	}
	return out, nil
}

// bfclLine returns the line of a JSON Lines file whose "id" is id.
func bfclLine(path, id string) ([]byte, error) {
	var found []byte
	err := eachLine(path, func(line []byte) error {
		var entry struct{ ID string }
		if err := json.Unmarshal(line, &entry); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if entry.ID == id && found == nil {
			found = bytes.Clone(line)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, fmt.Errorf("%s: no entry %s", path, id)
	}
	return found, nil
}

// bfclTool reads the function the entry's single ground-truth call names,
// and the call.
func bfclTool(id, file string, question, answer []byte) (Tool, error) {
	a, err := jsonval.Parse(answer)
	if err != nil {
		return Tool{}, err
	}
	gt := a.Get("ground_truth")
	if gt == nil || gt.Kind != jsonval.Array || len(gt.Items) != 1 || len(gt.Items[0].Members) != 1 {
		return Tool{}, fmt.Errorf("want one ground-truth call")
	}
	call := gt.Items[0].Members[0]
	var q struct {
		Function []struct {
			Name        string
			Description string
			Parameters  map[string]any
		}
	}
	if err := json.Unmarshal(question, &q); err != nil {
		return Tool{}, err
	}
	for _, fn := range q.Function {
		if fn.Name != call.Key {
			continue
		}
		BFCLSchema(fn.Parameters)
		params, err := json.Marshal(fn.Parameters)
		if err != nil {
			return Tool{}, err
		}
		name, goName := rename("bfcl", fn.Name)
		source := fmt.Sprintf("bfcl/%s %s", file, id)
		return Tool{
			Name:        name,
			GoName:      goName,
			Source:      source,
			Parameters:  params,
			Description: description(fn.Description, source),
			Call:        groundTruth(call.Value).Marshal(),
			CallSource:  "ground truth " + id,
		}, nil
	}
	return Tool{}, fmt.Errorf("no function %q", call.Key)
}

// groundTruth turns BFCL's encoding of acceptable values into one value:
// an object all of whose members are lists is a set of parameters, each
// taking its first acceptable value other than "" (the parameter may be
// omitted) and null, and left out when there is none; arrays are read item
// by item; anything else is the value itself.
func groundTruth(v *jsonval.Value) *jsonval.Value {
	switch v.Kind {
	case jsonval.Object:
		if !optionLists(v) {
			return v
		}
		out := &jsonval.Value{Kind: jsonval.Object}
		for _, m := range v.Members {
			for _, opt := range m.Value.Items {
				if opt.Kind == jsonval.Null || opt.Kind == jsonval.String && opt.Str == "" {
					continue
				}
				out.Members = append(out.Members, jsonval.Member{Key: m.Key, Value: groundTruth(opt)})
				break
			}
		}
		return out
	case jsonval.Array:
		out := &jsonval.Value{Kind: jsonval.Array}
		for _, it := range v.Items {
			out.Items = append(out.Items, groundTruth(it))
		}
		return out
	}
	return v
}

func optionLists(v *jsonval.Value) bool {
	for _, m := range v.Members {
		if m.Value.Kind != jsonval.Array {
			return false
		}
	}
	return len(v.Members) > 0
}

// bfclType translates BFCL's type names (a JSON-Schema-like dialect, with
// Java's names in the Java category) into JSON Schema's; "" means no type
// (any value).
var bfclType = map[string]string{
	"dict": "object", "HashMap": "object",
	"float": "number", "double": "number",
	"tuple": "array", "Array": "array", "ArrayList": "array",
	"String": "string", "char": "string",
	"long": "integer", "Boolean": "boolean",
	"any": "", "": "",
}

// BFCLSchema translates one BFCL parameter schema into JSON Schema, in
// place (the corpus conformance test of gen translates with it too): type names as bfclType says; a dict without properties is a
// free-form object; "default": null on a type that does not allow null is
// BFCL's "optional, no default" and is dropped, and so is the non-standard
// "optional" flag.
func BFCLSchema(s map[string]any) {
	if t, ok := s["type"].(string); ok {
		if to, ok := bfclType[t]; ok {
			if to == "" {
				delete(s, "type")
			} else {
				s["type"] = to
			}
		}
	}
	if d, ok := s["default"]; ok && d == nil && s["type"] != nil {
		delete(s, "default")
	}
	delete(s, "optional")
	if s["type"] == "object" {
		if _, ok := s["properties"]; !ok {
			s["additionalProperties"] = true
		}
	}
	if ps, ok := s["properties"].(map[string]any); ok {
		for _, p := range ps {
			if m, ok := p.(map[string]any); ok {
				BFCLSchema(m)
			}
		}
	}
	if it, ok := s["items"].(map[string]any); ok {
		BFCLSchema(it)
	}
}
