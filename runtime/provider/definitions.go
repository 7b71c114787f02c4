package provider

// MustDefinitions returns the definitions of t for each of ps, in order:
// what Project returns for each. Generated code derives a tool's
// definitions with it from the one embedded effective schema, instead of
// carrying each as a literal; the generator projected the tool for exactly
// these providers, so a refusal is a bug and panics.
func MustDefinitions(t Tool, ps ...Provider) []Definition {
	defs := make([]Definition, len(ps))
	for i, p := range ps {
		d, err := Project(p, t)
		if err != nil {
			panic("toolgate: " + err.Error())
		}
		defs[i] = d
	}
	return defs
}
