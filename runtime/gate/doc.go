// Package gate runs tool calls proposed by a model, and runs nothing else.
//
// A Registry holds every tool of a service, each bound to four things: its
// exact name, its schema (a generated strict decoder), an authorization
// policy and an executor. Dispatch takes the trusted caller (supplied by the
// service, never by the model) and a normalized Call, and takes it through
// seven steps, in order. Each step is one method, named below, of the value
// that carries one call through the gate (the unexported type call), so
// that each can be read on its own:
//
//  1. resolve: the name, by byte-exact lookup among the tools the caller's
//     roles may see (a hidden tool looks exactly like a missing one);
//  2. complete: an incomplete call (streaming unfinished, cut by a token
//     limit) is refused;
//  3. replay: the call ID is claimed in the caller's scope, the replay
//     store's one round trip per call, and an ID already claimed is
//     refused (duplicate_call, before the arguments are read: a replay
//     with bad arguments is a replay). A call refused by a later step
//     releases its claim, so that it can run once corrected. A call
//     without an ID is not replay-checked: a provider adapter that can
//     have no ID must dedupe by other means; see ReplayStore for how long
//     an ID is remembered. The store fails closed: when it is full or
//     fails, the call is refused (replay_unavailable) and nothing runs;
//  4. decode: the arguments, once, with the tool's generated decoder (its
//     null-as-absent variant for calls in the OpenAI dialects, whose strict
//     mode sends null for an absent optional member);
//  5. authorize: the tool's policy, with a copy of the principal and the
//     typed arguments;
//  6. approve: for a tool with an Approval, whether the call waits for a
//     person's approval: then it is stored as a pending call and answered
//     approval_required instead of running (see Approval, Registry.Approve
//     and Registry.Resume);
//  7. execute: the executor, under the context, with the tool's timeout —
//     unless the context is already done when the executor's turn comes:
//     the call is then reported as timeout (the context's deadline passed)
//     or execution_failed (it was cancelled), with Executed false, and its
//     ID's claim is released, so that a retry can run it. For a tool bound
//     with BindTyped (it declares a result schema), the executor's result
//     is checked against it before it is returned (invalid_result
//     otherwise; see BindTyped).
//
// The executor runs in a goroutine of its own (or in the dispatching one
// when the context can never end and the tool has no timeout: there is
// then no point at which to stop waiting), and the gate takes its outcome
// only while the context and the tool's timeout are live. When either
// ends first, the gate answers at once, without waiting for the executor:
// timeout for the tool's timeout or the context's deadline,
// execution_failed for a cancelled context, with Executed true. The call's
// ID stays claimed, since the executor may have taken effect; its own
// outcome goes to the auditor, when it returns, as a second event of the
// call with Event.Late set.
//
// What the gate decided cannot be changed by the code it calls: the
// principal is copied before any of that code sees it (a batch's when
// DispatchBatch starts; a single call's before its policy runs, or when
// Dispatch starts for an auditor with a DispatchHook), and each policy,
// NeedsApproval and executor gets its own copy (see PrincipalFrom), so a
// policy that appends a role changes nothing for the later calls of its
// batch.
//
// A panic in a decoder, policy or executor does not escape the gate: it is
// an execution_failed error (before the executor, nothing has run). Nor
// does a panic in the replay store (replay_unavailable: the call is
// refused, nothing runs) or in the auditor (the event is lost; the result
// stands).
//
// Every step can stop the call, always with a *toolerr.Error carrying a
// stable code, and never after a side effect: the executor is the only step
// with one, and it runs last. A batch (DispatchBatch) resolves, decodes and
// authorizes every call before the first executor starts; if any call is
// refused, or awaits approval, none runs.
//
// Generated packages declare a Spec per tool and a Bindings struct with a
// NewRegistry constructor, so binding is typed:
//
//	reg, err := tools.NewRegistry(tools.Bindings{
//		RefundOrder: gate.Binding[tools.RefundOrderArgs]{
//			Policy:  func(ctx context.Context, p gate.Principal, a tools.RefundOrderArgs) error { ... },
//			Execute: func(ctx context.Context, a tools.RefundOrderArgs) (any, error) { ... },
//		},
//	}, gate.WithAuditor(gate.SlogAuditor(logger)))
//	res, err := reg.Dispatch(ctx, gate.Caller{Principal: p, Scope: conversationID}, call)
package gate
