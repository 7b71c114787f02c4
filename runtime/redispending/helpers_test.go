package redispending

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// refundArgs are the arguments of the test tool: {"ref":"..."}.
type refundArgs struct {
	Ref string `json:"ref"`
}

func decodeRefund(data []byte) (refundArgs, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	var a refundArgs
	if err := d.Decode(&a); err != nil || a.Ref == "" {
		return refundArgs{}, &toolerr.Error{Code: toolerr.InvalidArguments, Tool: "refund", Reason: "want {\"ref\": a string}"}
	}
	return a, nil
}

// The principals: a clerk asks, the boss approves.
var (
	clerk = gate.Principal{ID: "u1", Tenant: "t1", Roles: []string{"clerk"}}
	boss  = gate.Principal{ID: "boss", Tenant: "t1", Roles: []string{"finance"}}
)

// execLog records executions: one line per run of the refund tool, its
// ref, appended by any process (O_APPEND), so that executions are counted
// apart from Redis and from what the processes report.
type execLog string

func (l execLog) add(ref string) error {
	f, err := os.OpenFile(string(l), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(ref + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// runs returns how many times ref ran.
func (l execLog) runs(t testing.TB, ref string) int {
	t.Helper()
	data, err := os.ReadFile(string(l))
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if line == ref {
			n++
		}
	}
	return n
}

// total returns how many executions the log holds.
func (l execLog) total(t testing.TB) int {
	t.Helper()
	data, err := os.ReadFile(string(l))
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(data, []byte("\n"))
}

// newRegistry returns a replica: the refund tool (every call needs the
// approval of a "finance" principal), its executions logged in log, over
// the pending store and a replay store of its own.
func newRegistry(t testing.TB, store gate.PendingStore, log execLog, audit gate.Auditor) *gate.Registry {
	reg, err := buildRegistry(store, log, audit)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func buildRegistry(store gate.PendingStore, log execLog, audit gate.Auditor) (*gate.Registry, error) {
	spec := gate.Spec[refundArgs]{
		Name: "refund", Schema: `{"type":"object","properties":{"ref":{"type":"string"}},"required":["ref"],"additionalProperties":false}`,
		Version: "v1", Decode: decodeRefund, Approval: gate.ApprovalRequired, Approvers: []string{"finance"},
	}
	tool := gate.Bind(spec, gate.Binding[refundArgs]{
		Policy:  gate.AllowAll[refundArgs],
		Execute: func(_ context.Context, a refundArgs) (any, error) { return "refunded", log.add(a.Ref) },
	})
	opts := []gate.Option{gate.WithPendingStore(store), gate.WithApprovalTTL(time.Hour)}
	if audit != nil {
		opts = append(opts, gate.WithAuditor(audit))
	}
	return gate.NewRegistry([]*gate.Tool{tool}, opts...)
}

// refundCall is a call of the refund tool for ref.
func refundCall(ref string) gate.Call {
	return gate.Call{ID: "call-" + ref, Name: "refund", Args: []byte(`{"ref":"` + ref + `"}`), Complete: true}
}

// request asks for a refund as who: it returns the result's code and the
// pending ID (empty when it was not held).
func request(reg *gate.Registry, who gate.Principal, ref string) (toolerr.Code, string) {
	res, _ := reg.Dispatch(context.Background(), gate.Caller{Principal: who, Scope: "conv-" + who.Tenant}, refundCall(ref))
	id := ""
	if res.Approval != nil {
		id = res.Approval.PendingID
	}
	return codeOf(res), id
}

// codeOf returns the result's code, gate.OK for a success.
func codeOf(res gate.Result) toolerr.Code {
	if res.Err == nil {
		return gate.OK
	}
	return res.Err.Code
}

// errCode returns err's code, gate.OK for nil.
func errCode(err error) toolerr.Code {
	if err == nil {
		return gate.OK
	}
	var te *toolerr.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return "not a *toolerr.Error: " + toolerr.Code(err.Error())
}

// mustStore returns a store on c.
func mustStore(t testing.TB, c redis.UniversalClient, o Options) *Store {
	t.Helper()
	s, err := New(c, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
