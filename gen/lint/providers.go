package lint

import (
	"errors"
	"strings"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/provider"
)

// providerFit lists, per keyword of the schema, the providers the tool is
// exported to that cannot express it (the gate enforces it locally), and
// reports a provider that cannot carry the tool at all. An error is the
// generator refusing the tool.
func (c *checker) providerFit(defaults []provider.Provider) error {
	t := c.ti.t
	ps := t.Meta.Providers
	if len(ps) == 0 {
		ps = defaults
	}
	if len(ps) == 0 {
		ps = provider.All
	}
	type local struct{ ptr, kw, value string }
	var order []local
	by := map[local][]string{}
	for _, p := range ps {
		defs, refused, err := gen.Export([]*gen.Tool{t}, gen.Options{Providers: ps}, p)
		if err != nil {
			return err
		}
		for _, r := range refused {
			var re *provider.RefusedError
			ptr := c.ti.t.Pointer + "/name"
			if errors.As(r, &re) && re.Pointer != "" {
				ptr = c.ti.base + re.Pointer
			}
			c.add(RuleProviderRefused, ptr, "%v; leave %s out of x-toolgate providers", r, p)
		}
		for _, d := range defs {
			for _, l := range d.Local {
				k := local{l.Pointer, l.Keyword, l.Value}
				if _, seen := by[k]; !seen {
					order = append(order, k)
				}
				by[k] = append(by[k], string(p))
			}
		}
	}
	for _, k := range order {
		c.add(RuleProviderFit, c.ti.base+k.ptr+"/"+k.kw, "%s %s is not expressed by %s: the gate enforces it locally and the description tells the model", k.kw, k.value, strings.Join(by[k], ", "))
	}
	return nil
}
