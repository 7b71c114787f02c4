package vet

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A binding is one gate.Binding or gate.TypedBinding literal's Policy or
// Execute value.
type binding struct {
	// field is "Policy" or "Execute".
	field string
	// value is the expression bound.
	value ast.Expr
	// fn is the function or method value names, or the one a function
	// literal does nothing but call with the tool's arguments; nil when it
	// is neither.
	fn *types.Func
}

// findBindings lists the Policy and Execute values of every gate binding
// literal in the package's non-test files: what a test binds is not what
// the service runs.
func findBindings(pass *analysis.Pass) []binding {
	var out []binding
	for _, f := range pass.Files {
		if isTestFile(pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || !isGateBinding(pass.TypesInfo.TypeOf(lit)) {
				return true
			}
			for _, e := range lit.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				key, ok := kv.Key.(*ast.Ident)
				if !ok || key.Name != "Policy" && key.Name != "Execute" {
					continue
				}
				out = append(out, binding{field: key.Name, value: kv.Value, fn: boundFunc(pass.TypesInfo, kv.Value)})
			}
			return true
		})
	}
	return out
}

// isGateBinding reports whether t is an instance of gate.Binding or
// gate.TypedBinding.
func isGateBinding(t types.Type) bool {
	name, path, _ := namedOf(t)
	return path == gatePath && (name == "Binding" || name == "TypedBinding")
}

// boundFunc returns the function e names (F, pkg.F, x.M, T.M, F[T]), or the
// function a literal whose body is one return of a call calls.
func boundFunc(info *types.Info, e ast.Expr) *types.Func {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.IndexExpr:
		return boundFunc(info, x.X)
	case *ast.IndexListExpr:
		return boundFunc(info, x.X)
	case *ast.Ident:
		if fn, ok := info.Uses[x].(*types.Func); ok {
			return fn.Origin()
		}
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok {
			if fn, ok := sel.Obj().(*types.Func); ok && sel.Kind() != types.FieldVal {
				return fn.Origin()
			}
			return nil
		}
		if fn, ok := info.Uses[x.Sel].(*types.Func); ok {
			return fn.Origin()
		}
	case *ast.FuncLit:
		if call := forwardingCall(info, x); call != nil {
			return boundFunc(info, call.Fun)
		}
	}
	return nil
}

// forwardingCall returns the call of a literal whose body is one return of
// a call that is handed the literal's last parameter (the tool's
// arguments) as it is: func(ctx, a) (any, error) { return s.Refund(ctx, a) }.
// A call that takes a part of the arguments, or none, is the executor's
// work, not the executor.
func forwardingCall(info *types.Info, lit *ast.FuncLit) *ast.CallExpr {
	args := argsParam(info, lit.Type)
	if len(lit.Body.List) != 1 || args == nil {
		return nil
	}
	ret, ok := lit.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok {
		return nil
	}
	for _, a := range call.Args {
		if id, ok := ast.Unparen(a).(*ast.Ident); ok && info.Uses[id] == args {
			return call
		}
	}
	return nil
}

// argsParam returns the last parameter of a bound function: the tool's
// arguments.
func argsParam(info *types.Info, typ *ast.FuncType) types.Object {
	if typ.Params == nil || len(typ.Params.List) == 0 {
		return nil
	}
	last := typ.Params.List[len(typ.Params.List)-1]
	if len(last.Names) == 0 {
		return nil
	}
	return info.Defs[last.Names[len(last.Names)-1]]
}

func isTestFile(pass *analysis.Pass, f *ast.File) bool {
	return isTestPos(pass, f.Pos())
}

// isTestPos reports whether pos is in a _test.go file.
func isTestPos(pass *analysis.Pass, pos token.Pos) bool {
	f := pass.Fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}

// A boundBody is the code of a bound Policy or Execute: a function literal
// or a function of the package.
type boundBody struct {
	field string
	typ   *ast.FuncType
	body  *ast.BlockStmt
	// at is the literal's func keyword or the function's name.
	at token.Pos
}

// boundBodies returns the code of each bound value written in the
// package, once each.
func boundBodies(pass *analysis.Pass, bindings []binding) []boundBody {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					decls[fn] = fd
				}
			}
		}
	}
	var out []boundBody
	done := map[token.Pos]bool{}
	for _, b := range bindings {
		bb := boundBody{field: b.field}
		if lit, ok := ast.Unparen(b.value).(*ast.FuncLit); ok {
			bb.typ, bb.body, bb.at = lit.Type, lit.Body, lit.Pos()
		} else if fd := decls[b.fn]; fd != nil {
			bb.typ, bb.body, bb.at = fd.Type, fd.Body, fd.Name.Pos()
		} else {
			continue
		}
		if !done[bb.at] {
			done[bb.at] = true
			out = append(out, bb)
		}
	}
	return out
}
