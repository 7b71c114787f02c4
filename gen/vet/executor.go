package vet

import (
	"go/ast"
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
// Execute here or, by its fact, in a package this one imports.
func checkExecutors(pass *analysis.Pass, bindings []binding) {
	bound := map[*types.Func]bool{}
	// The calls inside the bound values themselves (a literal that calls
	// the executor) are the binding, not a way around it.
	inside := map[*ast.CallExpr]bool{}
	for _, b := range bindings {
		if b.field != "Execute" || b.fn == nil {
			continue
		}
		bound[b.fn] = true
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
				return true
			}
			pass.Report(analysis.Diagnostic{
				Pos:      call.Pos(),
				Category: CheckExecutor,
				Message:  fn.Name() + " is bound as a tool's Execute and called directly here, around the gate's decoding, authorization and replay check; dispatch the call through the registry instead",
			})
			return true
		})
	}
}
