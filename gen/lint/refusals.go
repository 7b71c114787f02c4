package lint

import (
	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/runtime/provider"
)

// Refusals runs the rules whose findings make toolgate generate and check
// refuse tools as invalid definitions: the error-level ones, less what cfg
// disables. The CLI and the corpus tests of package gen both call it, so
// that what they refuse is the same.
func Refusals(tools []*gen.Tool, cfg Config, providers []provider.Provider) (*Result, error) {
	return Run(tools, Options{Config: cfg, Providers: providers, MinSeverity: Error})
}
