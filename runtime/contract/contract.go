// Package contract proves, in a generated package's own tests, that the
// schema each model provider is sent matches the schema the gate enforces.
// toolgate generates a contract test that calls Run with every tool of the
// package; it imports this package and not the generator, so a service's
// test build never pulls in the generator.
//
// For every tool, Run checks that:
//
//  1. the canonical file on disk still hashes to what the code was
//     generated from — and when it does not, says which tool, which
//     provider and where the schema now differs;
//  2. a definition is embedded for exactly the providers the tool is
//     exported to (each of them projects it without refusal), and each is
//     exactly the projection of the embedded effective schema (recomputed
//     with package provider);
//  3. structure survives each projection: the same property names at every
//     level, the same required sets (OpenAI strict lists every member; the
//     added ones accept null), the same types, the same enum values in the
//     same order, and every closed object closed (or, where a provider
//     cannot say so, listed as enforced locally);
//  4. on a boundary matrix of instances derived from the schema (see
//     Instances), the generated decoder agrees with
//     santhosh-tekuri/jsonschema on the effective schema, except where it
//     refuses a number whose Go value would break the schema while the
//     exact value keeps it (see RepresentationOnly); per dialect, an
//     instance the provider's schema accepts is accepted by the gate exactly
//     when the effective schema accepts it (OpenAI strict: after mapping
//     null to absent for the members the projection made nullable), and
//     every instance a provider's schema accepts but the gate refuses breaks
//     a rule listed as enforced locally (the violation's schema path is the
//     local rule's pointer and keyword);
//  5. every instance, dispatched through a gate — plainly and in the dialect
//     of each definition, so that the dialect's decoder and filtering are
//     the gate's own — runs the executor exactly once when the dialect's
//     decoder accepts it, and a refused one runs no executor.
//
// toolgate also generates a fuzz target per tool that calls Fuzz, which makes
// the same checks on any input the fuzzing engine finds.
package contract

import (
	"context"
	"slices"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
	"github.com/toolgate/toolgate/runtime/provider"
)

// maxInstances bounds the boundary matrix of one tool.
const maxInstances = 400

// Tool is one generated tool, as the contract test sees it.
type Tool struct {
	Name        string
	Description string
	// Schema is the embedded effective schema.
	Schema string
	// Source is the canonical file, relative to the package directory, and
	// SourceSHA256 the hash of its bytes at generation.
	Source       string
	SourceSHA256 string
	// OpenObjects is the generation option (plain JSON Schema semantics).
	OpenObjects bool
	// MCP is the tool's other MCP members, as a JSON object, or "".
	MCP string
	// Destructive is the spec's: its MCP definition says destructiveHint.
	Destructive bool
	// Definitions are the embedded provider definitions.
	Definitions []provider.Definition
	// Providers are the providers the tool is exported to: exactly these
	// have a definition.
	Providers []provider.Provider

	decode             func([]byte) error
	result             *result // see WithResult
	decodeNullAsAbsent func([]byte) error
	bind               func(execute func()) *gate.Tool
}

// For describes a generated tool from its spec and generated constants;
// providers are the providers the tool is exported to.
func For[A any](spec gate.Spec[A], source, sourceSHA256, mcp string, openObjects bool, defs []provider.Definition, providers []provider.Provider) Tool {
	t := Tool{
		Name: spec.Name, Description: spec.Description, Schema: spec.Schema,
		Source: source, SourceSHA256: sourceSHA256, OpenObjects: openObjects, MCP: mcp, Destructive: spec.Destructive, Definitions: defs,
		Providers: slices.Clone(providers),
		decode:    func(b []byte) error { _, err := spec.Decode(b); return err },
		bind: func(execute func()) *gate.Tool {
			return gate.Bind(withoutApproval(spec), gate.Binding[A]{
				Policy:  gate.AllowAll[A],
				Execute: func(context.Context, A) (any, error) { execute(); return nil, nil },
			})
		},
	}
	if spec.DecodeNullAsAbsent != nil {
		t.decodeNullAsAbsent = func(b []byte) error { _, err := spec.DecodeNullAsAbsent(b); return err }
	}
	return t
}

// withoutApproval returns spec with no approval: the contract judges the
// decoder, and a call that waits for approval would run nothing (the gate's
// approvals are tested in package gate).
func withoutApproval[A any](spec gate.Spec[A]) gate.Spec[A] {
	spec.Approval, spec.Approvers, spec.SelfApproval = gate.ApprovalNone, nil, false
	return spec
}

// Run checks the contract of every tool.
func Run(t *testing.T, tools ...Tool) {
	t.Helper()
	for _, tool := range tools {
		t.Run(tool.Name, func(t *testing.T) {
			t.Run("source", func(t *testing.T) { checkSource(t, tool) })
			t.Run("projection", func(t *testing.T) { checkProjection(t, tool) })
			t.Run("structure", func(t *testing.T) { checkStructure(t, tool) })
			t.Run("differential", func(t *testing.T) { checkDifferential(t, tool) })
			if tool.result != nil {
				checkResult(t, tool)
			}
		})
	}
}
