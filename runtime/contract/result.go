package contract

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/schema"
)

// result is what the contract test knows of a tool's result schema.
type result struct {
	schema string
	decode func([]byte) error
	// roundTrip decodes data, encodes the value and decodes that again:
	// both values must be equal, and a gate whose executor returns the
	// value must send exactly the encoding.
	roundTrip func(data []byte) error
}

// WithResult adds a tool's result schema (its outputSchema) to its
// contract. For a tool with one, Run also checks that:
//
//   - when the canonical file changed, where its effective result schema
//     now differs from the embedded one;
//   - the tool's MCP members and its MCP definition carry exactly the
//     embedded effective result schema as outputSchema (MCP is the only
//     provider with a result schema; it carries the effective schema as it
//     is, so projection and structure are the same check);
//   - on a boundary matrix of result instances, the generated result
//     decoder agrees with santhosh-tekuri/jsonschema on the effective
//     result schema (RepresentationOnly aside), and every accepted
//     instance round-trips: decode, encode, decode gives the same value,
//     and a gate whose executor returns it sends exactly the encoding.
func WithResult[R any](t Tool, out gate.ResultSpec[R]) Tool {
	t.result = &result{
		schema: out.Schema,
		decode: func(b []byte) error { _, err := out.Decode(b); return err },
		roundTrip: func(data []byte) error {
			v, err := out.Decode(data)
			if err != nil {
				return err
			}
			enc, err := out.Encode(v)
			if err != nil {
				return fmt.Errorf("encoding the decoded value: %v", err)
			}
			back, err := out.Decode(enc)
			if err != nil || !reflect.DeepEqual(back, v) {
				return fmt.Errorf("the encoding %s does not decode to the same value (%v)", enc, err)
			}
			reg, err := gate.NewRegistry([]*gate.Tool{gate.BindTyped(gate.Spec[struct{}]{
				Name: t.Name, Decode: func([]byte) (struct{}, error) { return struct{}{}, nil },
			}, out, gate.TypedBinding[struct{}, R]{
				Policy:  gate.AllowAll[struct{}],
				Execute: func(context.Context, struct{}) (R, error) { return v, nil },
			})})
			if err != nil {
				return err
			}
			res, _ := reg.Dispatch(context.Background(), gate.Caller{}, gate.Call{Name: t.Name, Args: []byte(`{}`), Complete: true})
			if res.Err != nil || string(res.JSON) != string(enc) {
				return fmt.Errorf("the gate sent %s (%v), want %s", res.JSON, res.Err, enc)
			}
			return nil
		},
	}
	return t
}

// checkResult runs the result checks of a tool that has a result schema.
func checkResult(t *testing.T, tool Tool) {
	r := tool.result
	t.Run("result-source", func(t *testing.T) {
		data, err := os.ReadFile(tool.Source)
		if err != nil {
			t.Fatalf("tool %s: cannot read its canonical file: %v", tool.Name, err)
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) == tool.SourceSHA256 {
			return
		}
		now, err := canonicalOutput(data, tool.Name)
		if err != nil {
			t.Fatalf("tool %s: %v", tool.Name, err)
		}
		eff := schema.EffectiveResult(now, tool.OpenObjects)
		if ptr, d := difference(mustParse(t, r.schema), eff, ""); ptr != "" || d != "" {
			t.Errorf("tool %s: %s changed since the code was generated; run go generate\n\teffective result schema: at %s: %s", tool.Name, tool.Source, orRoot(ptr), d)
		}
	})
	t.Run("result-projection", func(t *testing.T) {
		want := mustParse(t, r.schema)
		if tool.MCP == "" {
			t.Fatalf("tool %s: the result schema is not among its MCP members", tool.Name)
		}
		if ptr, d := difference(mustParse(t, tool.MCP).Get("outputSchema"), want, ""); ptr != "" || d != "" {
			t.Errorf("tool %s: the MCP members' outputSchema differs from the result schema at %s: %s", tool.Name, orRoot(ptr), d)
		}
		for _, def := range tool.Definitions {
			if def.Provider != provider.MCP {
				continue
			}
			got := mustParse(t, def.JSON).Get("outputSchema")
			if got == nil {
				t.Errorf("tool %s: the MCP definition has no outputSchema", tool.Name)
				continue
			}
			if ptr, d := difference(got, want, ""); ptr != "" || d != "" {
				t.Errorf("tool %s: the MCP definition's outputSchema differs from the result schema at %s: %s", tool.Name, orRoot(ptr), d)
			}
		}
	})
	t.Run("result-differential", func(t *testing.T) {
		errs, logs := resultDifferential(tool)
		for _, l := range logs {
			t.Log(l)
		}
		for _, e := range errs {
			t.Error(e)
		}
	})
}

// resultDifferential compares the result decoder with
// santhosh-tekuri/jsonschema on the boundary matrix of the result schema,
// and round-trips every accepted instance.
func resultDifferential(tool Tool) (errs, logs []string) {
	r := tool.result
	instances, err := ValueInstances([]byte(r.schema), maxInstances)
	if err != nil {
		return []string{fmt.Sprintf("tool %s: deriving result instances: %v", tool.Name, err)}, nil
	}
	eff, err := jsonval.Parse([]byte(r.schema))
	if err != nil {
		return []string{fmt.Sprintf("tool %s: invalid embedded result schema: %v", tool.Name, err)}, nil
	}
	oracle, err := compileSchema(tool.Name+"-result", r.schema)
	if err != nil {
		return []string{err.Error()}, nil
	}
	accepted := 0
	for _, in := range instances {
		want := validate(oracle, in.JSON)
		got := r.decode(in.JSON)
		if !agree(eff, in.JSON, got, want) {
			errs = append(errs, fmt.Sprintf("tool %s, result instance %s %s: decoder says %v, santhosh-tekuri/jsonschema says valid=%v", tool.Name, in.Name, in.JSON, errOrOK(got), want))
			continue
		}
		if got != nil {
			continue
		}
		accepted++
		if err := r.roundTrip(in.JSON); err != nil {
			errs = append(errs, fmt.Sprintf("tool %s, result instance %s %s: %v", tool.Name, in.Name, in.JSON, err))
		}
	}
	logs = append(logs, fmt.Sprintf("tool %s: %d result instances, %d accepted and round-tripped through the gate", tool.Name, len(instances), accepted))
	return errs, logs
}

// canonicalOutput finds the named tool's outputSchema in a tool file.
func canonicalOutput(data []byte, name string) (*jsonval.Value, error) {
	c, err := findTool(data, name)
	if err != nil {
		return nil, err
	}
	if out := c.Get("outputSchema"); out != nil {
		return out, nil
	}
	return nil, fmt.Errorf("tool %s has no outputSchema any more", name)
}
