package gen

import (
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
)

// Schema returns what generated code records about t: its effective schema
// (<Tool>Schema: the canonical parameters with every implied closure
// written out and no x- members) and its schema version (<Tool>Spec.Version:
// x-toolgate version, else a content hash). err is an invalid definition,
// as Generate reports it. Provider fit is not checked here.
func Schema(t *Tool, opts Options) (effective *jsonval.Value, version string, err error) {
	tm, err := model(t, Options{OpenObjects: opts.OpenObjects, FormatAnnotation: opts.FormatAnnotation, Providers: []provider.Provider{provider.MCP}})
	if err != nil {
		return nil, "", located(err)
	}
	effective, err = jsonval.Parse([]byte(tm.projected.Schema))
	if err != nil {
		return nil, "", err
	}
	return effective, tm.version(), nil
}
