package vet

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// boundExecutor is the fact that a function is bound as a tool's Execute,
// exported so that packages importing it report direct calls too.
type boundExecutor struct{}

func (*boundExecutor) AFact() {}

func (*boundExecutor) String() string { return "bound as Execute" }

// checkExecutors reports calls, from non-test files, of a function bound as
// Execute here or, by its fact, in a package this one imports. It returns
// what a driver that sees every package needs for the calls facts cannot
// carry (see Result).
func checkExecutors(pass *analysis.Pass, bindings []binding) *Result {
	res := &Result{}
	bound := map[*types.Func]bool{}
	// The calls inside the bound values themselves (a literal that calls
	// the executor) are the binding, not a way around it.
	inside := map[*ast.CallExpr]bool{}
	for _, b := range bindings {
		if b.field != "Execute" || b.fn == nil {
			continue
		}
		bound[b.fn] = true
		res.Bound = append(res.Bound, b.fn.FullName())
		if b.fn.Pkg() == pass.Pkg {
			pass.ExportObjectFact(b.fn, new(boundExecutor))
		}
		ast.Inspect(b.value, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				inside[c] = true
			}
			return true
		})
	}
	for _, f := range pass.Files {
		if isTestFile(pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || inside[call] {
				return true
			}
			fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
			if !ok {
				return true
			}
			fn = fn.Origin()
			if !bound[fn] && !pass.ImportObjectFact(fn, new(boundExecutor)) {
				if fn.Pkg() != nil && fn.Pkg() != pass.Pkg && executorShaped(fn) {
					res.Calls = append(res.Calls, Call{Func: fn.FullName(), Name: fn.Name(), Pos: call.Pos()})
				}
				return true
			}
			pass.Report(bypass(call.Pos(), fn.Name()))
			return true
		})
	}
	return res
}

func bypass(pos token.Pos, name string) analysis.Diagnostic {
	return analysis.Diagnostic{
		Pos:      pos,
		Category: CheckExecutor,
		Message:  name + " is bound as a tool's Execute and called directly here, around the gate's decoding, authorization and replay check; dispatch the call through the registry instead",
	}
}

// executorShaped reports whether fn could be bound as an executor: its
// parameters a context and the arguments, its results a value and an
// error.
func executorShaped(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Params().Len() != 2 || sig.Results().Len() != 2 {
		return false
	}
	ctx, ok := types.Unalias(sig.Params().At(0).Type()).(*types.Named)
	return ok && ctx.Obj().Name() == "Context" && ctx.Obj().Pkg() != nil && ctx.Obj().Pkg().Path() == "context" &&
		types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type())
}

// Result is what the analyzer returns for a package: the executors it
// binds and its calls (outside tests) of executor-shaped functions of
// other packages that it did not report. An executor bound in package A
// and called from package B that does not import A is beyond what facts
// carry (they flow from a package to its importers); a driver that
// analyzes the whole module joins the results with CrossPackage, as
// toolgate vet does.
type Result struct {
	// Bound are the executors bound, by types.Func.FullName.
	Bound []string
	Calls []Call
}

// A Call is a call of Func (by types.Func.FullName; Name is its name) at
// Pos.
type Call struct {
	Func, Name string
	Pos        token.Pos
}

// CrossPackage returns an executor-bypass diagnostic for each call, in any
// of the results, of an executor bound in any of them.
func CrossPackage(results []*Result) []analysis.Diagnostic {
	bound := map[string]bool{}
	for _, r := range results {
		for _, b := range r.Bound {
			bound[b] = true
		}
	}
	var out []analysis.Diagnostic
	for _, r := range results {
		for _, c := range r.Calls {
			if bound[c.Func] {
				out = append(out, bypass(c.Pos, c.Name))
			}
		}
	}
	return out
}
