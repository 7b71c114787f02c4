package gen

import (
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// The result of a tool. A tool file may declare the JSON Schema of what
// its executor returns: outputSchema, as MCP names it, in canonical files
// and MCP tool objects alike. It is read with the same rules as the
// arguments' schema — compiled first by santhosh-tekuri/jsonschema, every
// keyword enforced or refused, objects closed by default — and modelled
// with the same builder, so that the result gets a <Tool>Result type, a
// strict decoder (Decode<Tool>Result) and an encoder (MarshalJSON: exactly
// the members set), and the gate checks every result with the decoder
// before it leaves (gate.BindTyped).

// key is the member of the tool file that holds the builder's schema.
func (b *builder) key() string {
	if b.result {
		return "outputSchema"
	}
	return b.tool.paramsKey
}

// source is the builder's schema as the tool file holds it.
func (b *builder) source() *jsonval.Value {
	if b.result {
		return b.tool.output
	}
	return b.tool.params
}

// url is the address the builder's schema was compiled under.
func (b *builder) url() string {
	if b.result {
		return resultURL(b.tool)
	}
	return schemaURL(b.tool)
}

// base is the prefix of the Go names derived from the builder's schema:
// the tool's Go name for the arguments (RefundOrderReason), with Result
// for the result (GetOrderStatusResultStatus).
func (b *builder) base() string {
	if b.result {
		return b.tool.goName() + "Result"
	}
	return b.tool.goName()
}

func resultURL(t *Tool) string { return "toolgate:///" + t.Name + ".output.json" }

// modelResult checks the tool's outputSchema, when it has one, and builds
// its model: tm.result and tm.resultSchema.
func (tm *toolModel) modelResult(opts Options) error {
	t := tm.t
	if t.output == nil {
		return nil
	}
	draft7 := false
	if s := t.output.Get("$schema"); s != nil {
		switch strings.TrimSuffix(s.Str, "#") {
		case draft2020URL:
		case draft7URL:
			draft7 = true
		default:
			return &Error{File: t.File, Pointer: t.Pointer + "/outputSchema/$schema", Keyword: "$schema", Message: fmt.Sprintf("unsupported dialect %q: toolgate reads JSON Schema 2020-12 (the default) and draft-07", s.Str)}
		}
	}
	checked := checkSchema(t, "outputSchema", t.output, resultURL(t), draft7)
	if checked.compiler == nil {
		return checked.errs
	}
	out := t
	if checked.schema != t.output {
		// A copy that is never generated from.
		c := *t
		c.output = checked.schema
		out = &c
	}
	closed := schema.ClosedResult(out.output, opts.OpenObjects)
	tm.resultSchema = string(schema.WithoutExtensions(closed).Marshal())
	b := &builder{tool: out, root: closed, draft7: draft7, opts: opts, nodes: map[string]*node{}, refs: indexRefs(closed, resultURL(t), draft7), result: true}
	tm.result = b.build("", closed, tm.goName+"Result")
	switch r := tm.result; {
	case r.nullable || r.kind == kindNull || r.kind == kindNever:
		b.fail("", "type", "a result that may be null (or can never be valid) is not supported: the outputSchema's root needs one type other than null")
	case r.kind == kindObject && !r.freeForm:
		r.hasStruct = true
	}
	b.checkDefaults(checked.compiler)
	errs := checked.errs
	for _, e := range b.errs {
		if ge, ok := e.(*Error); !ok || !coveredBy(ge, checked.pruned) {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	tm.warnings = append(tm.warnings, b.warns...)
	if err := markCycles(tm.result); err != nil {
		return &Error{File: t.File, Pointer: t.Pointer + "/outputSchema", Message: err.Error()}
	}
	return nil
}

// roots are the roots of the tool's schemas: the arguments', and the
// result's when it has one.
func (tm *toolModel) roots() []*node {
	if tm.result == nil {
		return []*node{tm.root}
	}
	return []*node{tm.root, tm.result}
}

// resultNames are the package-level names toolgate declares for the
// tool's result.
func (tm *toolModel) resultNames() []string {
	if tm.result == nil {
		return nil
	}
	r := tm.resultType()
	return []string{r, "Decode" + r, tm.goName + "ResultSchema", tm.goName + "ResultSpec"}
}

// resultType is the Go name of the tool's result type: the struct of an
// object result, the enum type of a string enum, else a defined type over
// the Go type of the root (type ListUsersResult []ListUsersResultItem).
func (tm *toolModel) resultType() string {
	if tm.result.goName != "" {
		return tm.result.goName
	}
	return tm.goName + "Result"
}

// ResultSchema returns the effective schema of a tool's result (its
// outputSchema with every implied closure written out), or nil when the
// tool declares none. The tool must have passed Schema or Generate.
func ResultSchema(t *Tool, opts Options) *jsonval.Value {
	if t.output == nil {
		return nil
	}
	return schema.EffectiveResult(t.output, opts.OpenObjects)
}
