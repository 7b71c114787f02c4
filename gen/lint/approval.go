package lint

// approval notes a destructive tool whose file does not say whether its
// calls wait for approval: destructive is not an implicit approval.
func (c *checker) approval() {
	if m := c.ti.t.Meta; m.Destructive && m.Approval == "" {
		c.add(RuleApproval, c.ti.destructiveAt, "%s is destructive but needs no approval: set x-toolgate approval (\"required\", or \"policy\" with a NeedsApproval function) and approvers if a person should confirm its calls", c.ti.t.Name)
	}
}
