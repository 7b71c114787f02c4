package gen

import (
	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Schema is Set.Schema for t analysed alone under opts.
func Schema(t *Tool, opts Options) (effective *jsonval.Value, version string, err error) {
	return Analyze([]*Tool{t}, opts).Schema(t)
}
