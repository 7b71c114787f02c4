package lint

import (
	"errors"
	"strings"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/provider"
)

// providerFit lists, per keyword of the schema, the providers the tool is
// exported to that cannot express it (the gate enforces it locally), and
// when no providers are chosen, the ones it is not exported to and why, as
// set's analysis answers. A provider the tool or the set's options chose
// that cannot carry the tool is an error (the generator refuses the tool);
// any other error is returned.
func (c *checker) providerFit(set *gen.Set) error {
	t := c.ti.t
	chosen := t.Meta.Providers
	if len(chosen) == 0 {
		chosen = set.Options().Providers
	}
	type local struct{ ptr, kw, value string }
	var order []local
	by := map[local][]string{}
	exported, err := set.AssessEach(t, provider.All)
	var ge *gen.Error
	switch {
	case errors.As(err, &ge) && ge.Provider != "":
		// The generator refuses the whole tool, whichever provider is
		// asked for: one finding.
		c.add(RuleProviderRefused, ge.Pointer, "%s", ge.Message)
		return nil
	case err != nil:
		return err
	}
	if !c.runs(RuleProviderFit) {
		return nil
	}
	for _, e := range exported {
		if chosen == nil && e.LeftOut != nil {
			c.add(RuleProviderFit, e.LeftOut.Pointer, "not exported to %s: %s", e.Provider, e.LeftOut.Reason)
		}
		if e.Definition == nil {
			continue
		}
		for _, l := range e.Definition.Local {
			k := local{l.Pointer, l.Keyword, l.Value}
			if _, seen := by[k]; !seen {
				order = append(order, k)
			}
			by[k] = append(by[k], string(e.Provider))
		}
	}
	for _, k := range order {
		c.add(RuleProviderFit, c.ti.base+k.ptr+"/"+k.kw, "%s %s is not expressed by %s: the gate enforces it locally and the description tells the model", k.kw, k.value, strings.Join(by[k], ", "))
	}
	return nil
}
