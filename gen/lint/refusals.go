package lint

import (
	"github.com/toolgate/toolgate/gen"
)

// Refusals runs on set the rules that toolgate generate and check run (the
// error-level ones, less what cfg disables) and splits their findings:
// refused are those of a certain rule (Rule.Certain), which make the tool
// an invalid definition; warned are the heuristic ones, which generation
// prints and lint --fail-on can make fatal. The CLI and the corpus tests of
// package gen both call it, so that what they refuse is the same.
func Refusals(set *gen.Set, cfg Config) (refused, warned []Finding, err error) {
	res, err := Run(set, Options{Config: cfg, MinSeverity: Error, Generating: true})
	if err != nil {
		return nil, nil, err
	}
	for _, f := range res.Findings {
		if RuleByID(f.Rule).Certain() {
			refused = append(refused, f)
		} else {
			warned = append(warned, f)
		}
	}
	return refused, warned, nil
}
