package redisreplay

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// noArgs is the argument type of the test tool: it accepts exactly {}.
type noArgs struct{}

func decodeNoArgs(data []byte) (noArgs, error) {
	if string(data) != "{}" {
		return noArgs{}, &toolerr.Error{Code: toolerr.InvalidArguments, Tool: "ship", Reason: "want {}"}
	}
	return noArgs{}, nil
}

// newRegistry returns a registry with one tool, "ship", whose executor
// counts its runs in execs (and calls onRun when not nil), guarded by
// store.
func newRegistry(t testing.TB, store gate.ReplayStore, execs *atomic.Int64, audit gate.Auditor, onRun func(context.Context)) *gate.Registry {
	t.Helper()
	spec := gate.Spec[noArgs]{Name: "ship", Schema: `{"type":"object","additionalProperties":false}`, Version: "v1", Decode: decodeNoArgs}
	tool := gate.Bind(spec, gate.Binding[noArgs]{
		Policy: gate.AllowAll[noArgs],
		Execute: func(ctx context.Context, _ noArgs) (any, error) {
			execs.Add(1)
			if onRun != nil {
				onRun(ctx)
			}
			return "shipped", nil
		},
	})
	opts := []gate.Option{gate.WithReplayStore(store)}
	if audit != nil {
		opts = append(opts, gate.WithAuditor(audit))
	}
	reg, err := gate.NewRegistry([]*gate.Tool{tool}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func shipCall(id string) gate.Call {
	return gate.Call{ID: id, Name: "ship", Args: []byte("{}"), Complete: true}
}

// codeOf returns the result's code, gate.OK for a success.
func codeOf(res gate.Result) toolerr.Code {
	if res.Err == nil {
		return gate.OK
	}
	return res.Err.Code
}

// wantRefused checks that res was refused with code and did not run.
func wantRefused(t testing.TB, res gate.Result, code toolerr.Code) *toolerr.Error {
	t.Helper()
	if res.Err == nil || res.Err.Code != code || res.Executed {
		t.Fatalf("result %+v, want %s and not executed", res, code)
	}
	return res.Err
}
