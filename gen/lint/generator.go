package lint

import (
	"slices"

	"github.com/toolgate/toolgate/gen"
)

// generatorWarnings reports the generator's own warnings about the tool
// (gen.Warnings: an invalid default, an unknown format, an implied root
// type, a member no value satisfies) as findings of the rules of the same IDs. A tool the generator
// refuses has none: providerFit returns its error. An invalid default gets
// no accessor, so its default-invalid finding replaces the
// default-accessor hint about it.
func (c *checker) generatorWarnings(set *gen.Set, opts Options) {
	if opts.Generating || !c.runs(RuleDefaultInvalid, RuleFormatUnknown, RuleRootType, RuleNeverValid) {
		return
	}
	warnings, err := set.Warnings(c.ti.t)
	if err != nil {
		return
	}
	for _, w := range warnings {
		if w.Kind == RuleDefaultInvalid {
			c.out = slices.DeleteFunc(c.out, func(f Finding) bool { return f.Rule == RuleDefaultAccessor && f.Pointer == w.Pointer })
		}
		c.add(w.Kind, w.Pointer, "%s", w.Message)
	}
}
