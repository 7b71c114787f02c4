package vet

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// checkPrincipals warns of each policy bound in the package, a function
// literal or a function of the package, that never reads its Principal.
func checkPrincipals(pass *analysis.Pass, bodies []boundBody) {
	for _, b := range bodies {
		if b.field != "Policy" || readsPrincipal(pass.TypesInfo, b.typ, b.body) {
			continue
		}
		warn(pass, b.at, CheckPrincipal, "warning: this policy never reads its Principal, so nothing but the model's arguments decides the call; check the caller's identity, tenant or roles")
	}
}

// warn reports a warning of check at pos, unless an allow comment with a
// reason turns it off there; one without a reason is reported instead.
func warn(pass *analysis.Pass, pos token.Pos, check, message string) {
	prefix := "//toolgate:allow " + check
	reason, ok := allowed(pass, pos, prefix)
	switch {
	case ok && reason == "":
		pass.Report(analysis.Diagnostic{Pos: pos, Category: check, Message: "the " + prefix + " comment needs a reason"})
	case !ok:
		pass.Report(analysis.Diagnostic{Pos: pos, Category: check, Message: message + " (or say why not with " + prefix + " REASON)"})
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

// isPrincipal reports whether t is gate.Principal or a pointer to it.
func isPrincipal(t types.Type) bool {
	name, path, _ := namedOf(t)
	return name == "Principal" && path == gatePath
}

// allowed finds a comment starting with prefix on the line of pos or the
// line above, and returns its reason.
func allowed(pass *analysis.Pass, pos token.Pos, prefix string) (string, bool) {
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
				if rest, ok := strings.CutPrefix(c.Text, prefix); ok && (rest == "" || rest[0] == ' ') {
					return strings.TrimSpace(rest), true
				}
			}
		}
	}
	return "", false
}
