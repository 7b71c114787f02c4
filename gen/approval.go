package gen

import "github.com/dave/jennifer/jen"

// approvalFields are the gate.Spec fields of a tool's x-toolgate approval,
// approvers and selfApproval; none when the tool needs no approval.
func approvalFields(m Meta) []jen.Code {
	if m.Approval == "" {
		return nil
	}
	mode := map[string]string{"required": "ApprovalRequired", "policy": "ApprovalPolicy"}[m.Approval]
	var roles []jen.Code
	for _, r := range m.Approvers {
		roles = append(roles, jen.Lit(r))
	}
	out := []jen.Code{
		field("Approval", jen.Qual(pkgGate, mode)),
		field("Approvers", jen.Index().String().Values(roles...)),
	}
	if m.SelfApproval {
		out = append(out, field("SelfApproval", jen.True()))
	}
	return out
}
