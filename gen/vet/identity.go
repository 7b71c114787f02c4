package vet

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// identityNames are the argument members, lower-cased without
// underscores, that name who is calling or what they may do.
var identityNames = map[string]bool{
	"user": true, "userid": true, "username": true, "tenant": true, "tenantid": true, "role": true, "roles": true,
	"accountid": true, "customerid": true, "callerid": true, "actorid": true, "requesterid": true,
	"principalid": true, "isadmin": true, "admin": true,
}

// checkIdentities warns of each comparison, in a bound policy or executor,
// of an argument member named like an identity (UserID, Tenant, Role…)
// with something that does not come from the principal: the model then
// chooses whom the call acts for. A switch on such a member compares it
// with constants, and so does an if on a boolean one (IsAdmin).
func checkIdentities(pass *analysis.Pass, bodies []boundBody) {
	info := pass.TypesInfo
	for _, b := range bodies {
		args := argsParam(info, b.typ)
		if args == nil {
			continue
		}
		fromPrincipal := principalReader(info, b.body)
		report := func(sel *ast.SelectorExpr) {
			warn(pass, sel.Pos(), CheckIdentity, "warning: the tool's argument "+sel.Sel.Name+" names an identity and is compared with nothing from the principal, so the model chooses whom the call acts for; compare it with the Principal (or gate.PrincipalFrom(ctx))")
		}
		ast.Inspect(b.body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ {
					return true
				}
				for _, side := range [2][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
					if sel := identityMember(info, side[0], args); sel != nil && !fromPrincipal(side[1]) && !isEmpty(side[1]) {
						report(sel)
					}
				}
			case *ast.SwitchStmt:
				if sel := identityMember(info, n.Tag, args); sel != nil {
					report(sel)
				}
			case *ast.IfStmt:
				cond := ast.Unparen(n.Cond)
				if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
					cond = ast.Unparen(u.X)
				}
				if sel := identityMember(info, cond, args); sel != nil {
					report(sel)
				}
			}
			return true
		})
	}
}

// isEmpty reports whether e is the literal "": comparing with it asks
// whether the member was given, not who is calling.
func isEmpty(e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	return ok && lit.Kind == token.STRING && (lit.Value == `""` || lit.Value == "``")
}

// identityMember returns e when it is a member, at any depth, of the
// arguments named like an identity.
func identityMember(info *types.Info, e ast.Expr, args types.Object) *ast.SelectorExpr {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || !identityNames[strings.ToLower(strings.ReplaceAll(sel.Sel.Name, "_", ""))] {
		return nil
	}
	if s, ok := info.Selections[sel]; !ok || s.Kind() != types.FieldVal {
		return nil
	}
	for x := ast.Unparen(sel.X); ; {
		switch v := x.(type) {
		case *ast.Ident:
			if info.Uses[v] == args {
				return sel
			}
			return nil
		case *ast.SelectorExpr:
			x = ast.Unparen(v.X)
		default:
			return nil
		}
	}
}

// principalReader returns a test of whether an expression reads a
// principal: a value of type gate.Principal (p.ID), gate.PrincipalFrom, or
// a local variable of body assigned, before, from such an expression.
func principalReader(info *types.Info, body *ast.BlockStmt) func(ast.Expr) bool {
	derived := map[types.Object]bool{}
	reads := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if obj := info.Uses[n]; obj != nil && (isPrincipal(obj.Type()) || derived[obj]) {
					found = true
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "PrincipalFrom" {
					if fn, ok := info.Uses[sel.Sel].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == gatePath {
						found = true
					}
				}
			}
			return !found
		})
		return found
	}
	// One walk in source order: a variable counts from its assignment on,
	// which is where a comparison reads it.
	ast.Inspect(body, func(n ast.Node) bool {
		var lhs []*ast.Ident
		var rhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					lhs = append(lhs, id)
				}
			}
			rhs = n.Rhs
		case *ast.ValueSpec:
			lhs, rhs = n.Names, n.Values
		default:
			return true
		}
		from := false
		for _, r := range rhs {
			from = from || reads(r)
		}
		for _, id := range lhs {
			if obj := info.ObjectOf(id); from && obj != nil {
				derived[obj] = true
			}
		}
		return true
	})
	return reads
}
