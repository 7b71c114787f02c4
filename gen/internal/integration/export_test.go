package integration_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/generated"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/provider"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// allDefinitions maps each tool to its generated definitions.
var allDefinitions = map[string][]provider.Definition{
	cancelT:   generated.CancelOrderDefinitions,
	shipT:     generated.CreateShipmentDefinitions,
	statusT:   generated.GetOrderStatusDefinitions,
	refundT:   generated.RefundOrderDefinitions,
	dispatchT: generated.ScheduleOrderDispatchDefinitions,
	contactT:  generated.UpdateDeliveryContactDefinitions,
}

func exportRegistry(t *testing.T, executed *int) *gate.Registry {
	t.Helper()
	count := func(context.Context) { *executed++ }
	reg, err := generated.NewRegistry(generated.Bindings{
		CancelOrder:    gate.Binding[generated.CancelOrderArgs]{Policy: gate.AllowAll[generated.CancelOrderArgs], Execute: func(ctx context.Context, _ generated.CancelOrderArgs) (any, error) { count(ctx); return nil, nil }},
		CreateShipment: gate.Binding[generated.CreateShipmentArgs]{Policy: gate.AllowAll[generated.CreateShipmentArgs], Execute: func(ctx context.Context, _ generated.CreateShipmentArgs) (any, error) { count(ctx); return nil, nil }},
		GetOrderStatus: gate.TypedBinding[generated.GetOrderStatusArgs, generated.GetOrderStatusResult]{Policy: gate.AllowAll[generated.GetOrderStatusArgs], Execute: func(ctx context.Context, a generated.GetOrderStatusArgs) (generated.GetOrderStatusResult, error) {
			count(ctx)
			return statusResult(a.OrderID), nil
		}},
		RefundOrder: gate.Binding[generated.RefundOrderArgs]{Policy: gate.AllowAll[generated.RefundOrderArgs], Execute: func(ctx context.Context, _ generated.RefundOrderArgs) (any, error) { count(ctx); return nil, nil }, NeedsApproval: noApproval[generated.RefundOrderArgs]},
		ScheduleOrderDispatch: gate.Binding[generated.ScheduleOrderDispatchArgs]{Policy: gate.AllowAll[generated.ScheduleOrderDispatchArgs], Execute: func(ctx context.Context, _ generated.ScheduleOrderDispatchArgs) (any, error) {
			count(ctx)
			return nil, nil
		}},
		UpdateDeliveryContact: gate.Binding[generated.UpdateDeliveryContactArgs]{Policy: gate.AllowAll[generated.UpdateDeliveryContactArgs], Execute: func(ctx context.Context, _ generated.UpdateDeliveryContactArgs) (any, error) {
			count(ctx)
			return nil, nil
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestExportedDefinitionsByRole: what the registry exports for a principal
// and provider is exactly the generated definitions of the tools that
// principal may see, in name order; one of them that is not exported to
// the provider (update_delivery_contact to gemini-legacy) is left out and
// named in the error.
func TestExportedDefinitionsByRole(t *testing.T) {
	var executed int
	reg := exportRegistry(t, &executed)
	for _, v := range visibility {
		for _, p := range provider.All {
			got, err := reg.Definitions(v.p, p)
			var want []string
			var missing string
			names := slices.Clone(v.tools)
			slices.Sort(names)
			for _, name := range names {
				found := false
				for _, d := range allDefinitions[name] {
					if d.Provider == p {
						want, found = append(want, d.JSON), true
					}
				}
				if !found && missing == "" {
					missing = name
				}
			}
			switch {
			case missing != "" && (err == nil || !strings.Contains(err.Error(), missing)):
				t.Errorf("%s, %s: error %v, want one naming %s", v.name, p, err, missing)
			case missing == "" && err != nil:
				t.Fatalf("%s, %s: %v", v.name, p, err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s, %s: exported %d definitions, want %d", v.name, p, len(got), len(want))
			}
		}
	}
}

// TestDialectNeedsADefinition: a call in a provider's dialect resolves only
// to tools that provider was sent; a tool without a definition for it is
// unknown_tool, and nothing is decoded or run.
func TestDialectNeedsADefinition(t *testing.T) {
	defs := slices.DeleteFunc(slices.Clone(generated.GetOrderStatusDefinitions), func(d provider.Definition) bool {
		return d.Provider == provider.Anthropic
	})
	spec := generated.GetOrderStatusSpec
	spec.Definitions = defs
	decoded, executed := 0, 0
	decode := spec.Decode
	spec.Decode = func(b []byte) (generated.GetOrderStatusArgs, error) { decoded++; return decode(b) }
	reg, err := gate.NewRegistry([]*gate.Tool{gate.Bind(spec, gate.Binding[generated.GetOrderStatusArgs]{
		Policy:  gate.AllowAll[generated.GetOrderStatusArgs],
		Execute: func(context.Context, generated.GetOrderStatusArgs) (any, error) { executed++; return nil, nil },
	})})
	if err != nil {
		t.Fatal(err)
	}
	c := gate.Call{Name: statusT, Args: []byte(validArgs[statusT]), Complete: true, Dialect: gate.Anthropic}
	_, err = reg.Dispatch(context.Background(), as(pNone), c)
	e := wantErr(t, err, toolerr.UnknownTool)
	if decoded != 0 || executed != 0 || !strings.Contains(e.Reason, "the tools you can call are: none") {
		t.Errorf("anthropic dialect: decoded %d, executed %d, reason %q", decoded, executed, e.Reason)
	}
	if _, err := reg.Definitions(pNone, provider.Anthropic); err == nil || !strings.Contains(err.Error(), statusT) {
		t.Errorf("Definitions for anthropic: %v, want an error naming %s", err, statusT)
	}
	for _, d := range []gate.Dialect{gate.Plain, gate.OpenAIChat, gate.Gemini, gate.MCP} {
		c.Dialect, c.ID = d, "call-"+string(d)
		if _, err := reg.Dispatch(context.Background(), as(pNone), c); err != nil {
			t.Errorf("dialect %q: %v", d, err)
		}
	}
	if executed != 4 {
		t.Errorf("executed %d calls, want 4", executed)
	}
}

// TestOpenAIDialectNullMeansAbsent: in the OpenAI dialects, null in an
// optional member that is not nullable means "absent" (the strict
// definition made it nullable); elsewhere it stays a type error.
func TestOpenAIDialectNullMeansAbsent(t *testing.T) {
	var executed int
	reg := exportRegistry(t, &executed)
	args := `{"orderId":"A-19","includeHistory":null}`
	for _, tt := range []struct {
		dialect gate.Dialect
		code    toolerr.Code
	}{
		{gate.OpenAIChat, ""},
		{gate.OpenAIResponses, ""},
		{gate.Anthropic, toolerr.InvalidArguments},
		{gate.Gemini, toolerr.InvalidArguments},
		{gate.MCP, toolerr.InvalidArguments},
		{gate.Plain, toolerr.InvalidArguments},
	} {
		before := executed
		_, err := reg.Dispatch(context.Background(), as(pNone), gate.Call{Name: statusT, Args: []byte(args), Complete: true, Dialect: tt.dialect})
		if tt.code == "" {
			if err != nil || executed != before+1 {
				t.Errorf("%q: %v (executed %d)", tt.dialect, err, executed-before)
			}
			continue
		}
		wantErr(t, err, tt.code)
		if executed != before {
			t.Errorf("%q: refused but executed", tt.dialect)
		}
	}
	// schedule_order_dispatch's only optional member (note) is nullable in
	// its schema, so its OpenAI definition needs no mapping and null stays
	// a value.
	if generated.ScheduleOrderDispatchSpec.DecodeNullAsAbsent != nil {
		t.Error("schedule_order_dispatch has a null-as-absent decoder; its optional member is already nullable")
	}
}
