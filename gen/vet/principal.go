package vet

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// allowPrefix starts the line comment that turns principal-unread off for
// a line: "//toolgate:allow principal-unread REASON".
const allowPrefix = "//toolgate:allow " + CheckPrincipal

// checkPrincipals warns of each policy bound in the package, a function
// literal or a function of the package, that never reads its Principal.
func checkPrincipals(pass *analysis.Pass, bindings []binding) {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					decls[fn] = fd
				}
			}
		}
	}
	done := map[token.Pos]bool{}
	for _, b := range bindings {
		if b.field != "Policy" {
			continue
		}
		var (
			typ  *ast.FuncType
			body *ast.BlockStmt
			at   token.Pos
		)
		if lit, ok := ast.Unparen(b.value).(*ast.FuncLit); ok {
			typ, body, at = lit.Type, lit.Body, lit.Pos()
		} else if fd := decls[b.fn]; fd != nil && fd.Body != nil {
			typ, body, at = fd.Type, fd.Body, fd.Name.Pos()
		} else {
			continue
		}
		if done[at] {
			continue
		}
		done[at] = true
		if readsPrincipal(pass.TypesInfo, typ, body) {
			continue
		}
		if reason, ok := allowed(pass, at); ok {
			if reason == "" {
				pass.Report(analysis.Diagnostic{Pos: at, Category: CheckPrincipal, Message: "the " + allowPrefix + " comment needs a reason"})
			}
			continue
		}
		pass.Report(analysis.Diagnostic{
			Pos:      at,
			Category: CheckPrincipal,
			Message:  "warning: this policy never reads its Principal, so nothing but the model's arguments decides the call; check the caller's identity, tenant or roles (or say why not with " + allowPrefix + " REASON)",
		})
	}
}

// readsPrincipal reports whether body uses the parameter of type
// gate.Principal (passing it to a helper is a use).
func readsPrincipal(info *types.Info, typ *ast.FuncType, body *ast.BlockStmt) bool {
	var param types.Object
	for _, field := range typ.Params.List {
		if !isPrincipal(info.TypeOf(field.Type)) {
			continue
		}
		for _, name := range field.Names {
			if name.Name != "_" {
				param = info.Defs[name]
			}
		}
	}
	if param == nil {
		return false
	}
	used := false
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == param {
			used = true
		}
		return !used
	})
	return used
}

func isPrincipal(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Name() == "Principal" && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == gatePath
}

// allowed finds an allow comment on the line of pos or the line above, and
// returns its reason.
func allowed(pass *analysis.Pass, pos token.Pos) (string, bool) {
	p := pass.Fset.Position(pos)
	for _, f := range pass.Files {
		if pass.Fset.File(f.Pos()).Name() != p.Filename {
			continue
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				l := pass.Fset.Position(c.Pos()).Line
				if l != p.Line && l != p.Line-1 {
					continue
				}
				if rest, ok := strings.CutPrefix(c.Text, allowPrefix); ok && (rest == "" || rest[0] == ' ') {
					return strings.TrimSpace(rest), true
				}
			}
		}
	}
	return "", false
}
