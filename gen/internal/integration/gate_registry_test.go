package integration_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// ---- registry construction and consistency -------------------------------------------------

func TestGeneratedNewRegistryRefusesUnbound(t *testing.T) {
	_, err := generated.NewRegistry(generated.Bindings{})
	if err == nil {
		t.Fatal("NewRegistry(Bindings{}) succeeded")
	}
	for _, n := range allTools {
		if !strings.Contains(err.Error(), fmt.Sprintf("%q", n)) {
			t.Errorf("error does not name %s: %v", n, err)
		}
	}

	// One field left half bound at a time: the error names that tool only.
	type mutate func(b *generated.Bindings)
	tests := []struct {
		tool string
		miss []mutate
	}{
		{cancelT, []mutate{func(b *generated.Bindings) { b.CancelOrder.Policy = nil }, func(b *generated.Bindings) { b.CancelOrder.Execute = nil }}},
		{shipT, []mutate{func(b *generated.Bindings) { b.CreateShipment.Policy = nil }, func(b *generated.Bindings) { b.CreateShipment.Execute = nil }}},
		{statusT, []mutate{func(b *generated.Bindings) { b.GetOrderStatus.Policy = nil }, func(b *generated.Bindings) { b.GetOrderStatus.Execute = nil }}},
		{refundT, []mutate{func(b *generated.Bindings) { b.RefundOrder.Policy = nil }, func(b *generated.Bindings) { b.RefundOrder.Execute = nil }}},
		{dispatchT, []mutate{func(b *generated.Bindings) { b.ScheduleOrderDispatch.Policy = nil }, func(b *generated.Bindings) { b.ScheduleOrderDispatch.Execute = nil }}},
	}
	for _, tt := range tests {
		for i, m := range tt.miss {
			h := newHarness()
			b := h.bindings()
			m(&b)
			r, err := generated.NewRegistry(b)
			if err == nil || r != nil {
				t.Errorf("%s/%d: NewRegistry succeeded", tt.tool, i)
				continue
			}
			for _, n := range allTools {
				if got := strings.Contains(err.Error(), fmt.Sprintf("%q", n)); got != (n == tt.tool) {
					t.Errorf("%s/%d: error %q names %s: %v", tt.tool, i, err, n, got)
				}
			}
		}
	}
	if _, err := generated.NewRegistry(newHarness().bindings()); err != nil {
		t.Errorf("fully bound: %v", err)
	}
}

// TestRegistryConsistency: every generated schema compiles, names are
// unique and match schemas/, every tool is bound, and the export filter is
// never looser than dispatch.
func TestRegistryConsistency(t *testing.T) {
	type specInfo struct {
		name, schema, version string
		roles                 []string
	}
	specs := []specInfo{
		{generated.CancelOrderSpec.Name, generated.CancelOrderSpec.Schema, generated.CancelOrderSpec.Version, generated.CancelOrderSpec.Roles},
		{generated.CreateShipmentSpec.Name, generated.CreateShipmentSpec.Schema, generated.CreateShipmentSpec.Version, generated.CreateShipmentSpec.Roles},
		{generated.GetOrderStatusSpec.Name, generated.GetOrderStatusSpec.Schema, generated.GetOrderStatusSpec.Version, generated.GetOrderStatusSpec.Roles},
		{generated.RefundOrderSpec.Name, generated.RefundOrderSpec.Schema, generated.RefundOrderSpec.Version, generated.RefundOrderSpec.Roles},
		{generated.ScheduleOrderDispatchSpec.Name, generated.ScheduleOrderDispatchSpec.Schema, generated.ScheduleOrderDispatchSpec.Version, generated.ScheduleOrderDispatchSpec.Roles},
		{generated.UpdateDeliveryContactSpec.Name, generated.UpdateDeliveryContactSpec.Schema, generated.UpdateDeliveryContactSpec.Version, generated.UpdateDeliveryContactSpec.Roles},
	}

	// The tools of schemas/ are exactly the specs.
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "schemas", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("schemas: %v, %v", files, err)
	}
	var fromFiles []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fromFiles = append(fromFiles, doc.Name)
	}
	sort.Strings(fromFiles)

	seen := map[string]bool{}
	var specNames []string
	for _, s := range specs {
		if seen[s.name] {
			t.Errorf("tool name %s is used twice", s.name)
		}
		seen[s.name] = true
		specNames = append(specNames, s.name)
		compileSchema(t, s.name, s.schema)
		if s.version == "" || s.schema != schemas[s.name] {
			t.Errorf("%s: version %q, schema constant mismatch %v", s.name, s.version, s.schema != schemas[s.name])
		}
	}
	sort.Strings(specNames)
	if !slices.Equal(specNames, fromFiles) || !slices.Equal(specNames, allTools) {
		t.Errorf("specs %q, schemas/ %q, tests %q", specNames, fromFiles, allTools)
	}

	// Every tool is bound, with its spec's metadata.
	h := newHarness()
	reg := h.generatedRegistry(t)
	bound := reg.Tools(pAll)
	if got := names(bound); !slices.Equal(got, allTools) {
		t.Fatalf("Tools(all roles) = %q, want %q", got, allTools)
	}
	for i, bt := range bound {
		s := specs[slices.IndexFunc(specs, func(s specInfo) bool { return s.name == bt.Name })]
		if bt.Schema != s.schema || bt.Version != s.version || !slices.Equal(bt.Roles, s.roles) || bt.Description == "" {
			t.Errorf("tool %d (%s) does not carry its spec: %+v", i, bt.Name, bt)
		}
	}

	// Export never looser than dispatch, in both registries.
	for _, kind := range registryKinds {
		for _, v := range visibility {
			t.Run(kind.name+"/"+v.name, func(t *testing.T) {
				h := newHarness()
				r := kind.build(h, t)
				listed := names(r.Tools(v.p))
				if !slices.Equal(listed, v.tools) {
					t.Errorf("Tools = %q, want %q", listed, v.tools)
				}
				for _, tool := range allTools {
					for _, bt := range r.Tools(pAll) {
						if bt.Name == tool && bt.VisibleTo(v.p) != slices.Contains(listed, tool) {
							t.Errorf("%s: VisibleTo = %v, listed = %v", tool, bt.VisibleTo(v.p), slices.Contains(listed, tool))
						}
					}
					before := h.spies[tool].decodes.Load()
					// "[]" reaches the decoder only if the name resolves; the
					// decoder refuses it as invalid_json.
					_, err := r.Dispatch(context.Background(), as(v.p), call("probe-"+tool, tool, "[]"))
					var e *toolerr.Error
					if !errors.As(err, &e) {
						t.Fatalf("%s: %v", tool, err)
					}
					decoded := h.spies[tool].decodes.Load() - before
					if slices.Contains(listed, tool) {
						if e.Code != toolerr.InvalidJSON || (kind.countsDecodes && decoded != 1) {
							t.Errorf("listed %s: %s, %d decodes; want invalid_json from the decoder", tool, e.Code, decoded)
						}
					} else if e.Code != toolerr.UnknownTool || decoded != 0 {
						t.Errorf("unlisted %s: %s, %d decodes; want unknown_tool, 0", tool, e.Code, decoded)
					}
					// A valid call of an unlisted tool runs nothing either.
					if !slices.Contains(listed, tool) {
						if _, err := r.Dispatch(context.Background(), as(v.p), call("try-"+tool, tool, validArgs[tool])); err == nil {
							t.Errorf("unlisted %s ran", tool)
						}
						if h.spies[tool].execs.Load() != 0 {
							t.Errorf("unlisted %s executor ran", tool)
						}
					}
				}
			})
		}
	}
}
