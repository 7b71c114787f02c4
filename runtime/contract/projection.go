package contract

import (
	"fmt"
	"slices"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/provider"
)

// checkProjection recomputes every provider's definition from the embedded
// effective schema.
func checkProjection(t *testing.T, tool Tool) {
	for _, e := range projectionErrors(tool) {
		t.Error(e)
	}
}

// projectionErrors checks that a definition is embedded for exactly the
// providers the tool is exported to, each the projection of the embedded
// effective schema.
func projectionErrors(tool Tool) []string {
	var errs []string
	pt := provider.Tool{Name: tool.Name, Description: tool.Description, Schema: tool.Schema, MCP: tool.MCP, Destructive: tool.Destructive}
	embedded := map[provider.Provider]provider.Definition{}
	for _, d := range tool.Definitions {
		if _, dup := embedded[d.Provider]; dup {
			errs = append(errs, fmt.Sprintf("tool %s, provider %s: two definitions are embedded", tool.Name, d.Provider))
		}
		embedded[d.Provider] = d
		if !slices.Contains(provider.All, d.Provider) {
			errs = append(errs, fmt.Sprintf("tool %s: a definition is embedded for %q, which is not a provider", tool.Name, d.Provider))
		}
	}
	for _, p := range provider.All {
		got, ok := embedded[p]
		if !slices.Contains(tool.Providers, p) {
			if ok {
				errs = append(errs, fmt.Sprintf("tool %s, provider %s: a definition is embedded but the tool is not exported to %s", tool.Name, p, p))
			}
			continue
		}
		def, err := provider.Project(p, pt)
		switch {
		case err != nil:
			errs = append(errs, fmt.Sprintf("tool %s, provider %s: the tool is exported to %s but the projection refuses it: %v", tool.Name, p, p, err))
		case !ok:
			errs = append(errs, fmt.Sprintf("tool %s, provider %s: the tool is exported to %s but no definition is embedded", tool.Name, p, p))
		case def.JSON != got.JSON:
			ptr, d := "", "the JSON differs"
			a, errA := jsonval.Parse([]byte(got.JSON))
			b, errB := jsonval.Parse([]byte(def.JSON))
			if errA == nil && errB == nil {
				ptr, d = difference(a, b, "")
			}
			errs = append(errs, fmt.Sprintf("tool %s, provider %s: the embedded definition is not the projection of the embedded schema: at %s: %s", tool.Name, p, orRoot(ptr), d))
		case !slices.Equal(def.Local, got.Local) || def.NullAsAbsent != got.NullAsAbsent:
			errs = append(errs, fmt.Sprintf("tool %s, provider %s: the embedded enforced-locally list or null mapping differs from the projection's", tool.Name, p))
		}
	}
	for _, p := range tool.Providers {
		if !slices.Contains(provider.All, p) {
			errs = append(errs, fmt.Sprintf("tool %s: it is exported to %q, which is not a provider", tool.Name, p))
		}
	}
	return errs
}

// providerSchema extracts the schema from a provider's tool definition.
func providerSchema(def provider.Definition) (*jsonval.Value, error) {
	v, err := jsonval.Parse([]byte(def.JSON))
	if err != nil {
		return nil, err
	}
	var s *jsonval.Value
	switch def.Provider {
	case provider.OpenAIChat:
		s = v.Get("function").Get("parameters")
	case provider.OpenAIResponses, provider.GeminiLegacy:
		s = v.Get("parameters")
	case provider.Anthropic:
		s = v.Get("input_schema")
	case provider.Gemini:
		s = v.Get("parametersJsonSchema")
	case provider.MCP:
		s = v.Get("inputSchema")
	}
	if s == nil {
		return nil, fmt.Errorf("no schema in the %s definition", def.Provider)
	}
	return s, nil
}
