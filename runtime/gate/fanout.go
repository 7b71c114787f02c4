package gate

import "context"

// FanOut returns an Auditor that passes every event to each of auditors,
// in order, for WithAuditor, which takes one:
//
//	reg, err := tools.NewRegistry(b, gate.WithAuditor(gate.FanOut(gate.SlogAuditor(logger), otelAuditor)))
//
// It forwards the hooks too. When any of auditors is a DispatchHook, the
// fan-out is one: it starts each auditor's hook in order, each with the
// context the previous one returned (so that an OpenTelemetry auditor's
// span is the parent of the calls the others see), and ends them in the
// reverse order. Each RepairAuditor among auditors gets the repair events.
// A panic in one auditor, hook or end loses that auditor's part only; the
// others still get theirs. The auditors share each event: none may modify
// its Violations.
//
// nil auditors are left out; FanOut of none is the no-op auditor (no
// event is built), and FanOut of one is that auditor.
func FanOut(auditors ...Auditor) Auditor {
	var f fanOut
	hooked := false
	for _, a := range auditors {
		if a == nil {
			continue
		}
		if _, ok := a.(nopAuditor); ok {
			continue
		}
		f = append(f, a)
		_, h := a.(DispatchHook)
		hooked = hooked || h
	}
	switch {
	case len(f) == 0:
		return nopAuditor{}
	case len(f) == 1:
		return f[0]
	case hooked:
		return hookedFanOut{f}
	}
	return f
}

// fanOut is FanOut's auditor when none of its auditors hooks dispatches.
type fanOut []Auditor

func (f fanOut) Audit(ctx context.Context, e Event) {
	for _, a := range f {
		auditOne(ctx, a, e)
	}
}

func auditOne(ctx context.Context, a Auditor, e Event) {
	defer func() { _ = recover() }()
	a.Audit(ctx, e)
}

func (f fanOut) AuditRepair(ctx context.Context, e RepairEvent) {
	for _, a := range f {
		if ra, ok := a.(RepairAuditor); ok {
			repairOne(ctx, ra, e)
		}
	}
}

func repairOne(ctx context.Context, ra RepairAuditor, e RepairEvent) {
	defer func() { _ = recover() }()
	ra.AuditRepair(ctx, e)
}

// hookedFanOut is FanOut's auditor when one of its auditors (at least)
// hooks dispatches.
type hookedFanOut struct{ fanOut }

func (f hookedFanOut) StartDispatch(ctx context.Context, c Caller, calls int) (context.Context, func()) {
	var ends []func()
	for _, a := range f.fanOut {
		if h, ok := a.(DispatchHook); ok {
			var end func()
			ctx, end = startOne(ctx, h, c, calls)
			if end != nil {
				ends = append(ends, end)
			}
		}
	}
	return ctx, func() {
		for i := len(ends) - 1; i >= 0; i-- {
			endOne(ends[i])
		}
	}
}

// startOne starts one hook; on a panic, or a nil context or end, it keeps
// ctx and returns no end.
func startOne(ctx context.Context, h DispatchHook, c Caller, calls int) (out context.Context, end func()) {
	defer func() {
		if recover() != nil {
			out, end = ctx, nil
		}
	}()
	hctx, hend := h.StartDispatch(ctx, c, calls)
	if hctx == nil || hend == nil {
		return ctx, nil
	}
	return hctx, hend
}

func endOne(end func()) {
	defer func() { _ = recover() }()
	end()
}

var (
	_ RepairAuditor = fanOut(nil)
	_ DispatchHook  = hookedFanOut{}
)
