package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"time"

	"github.com/dave/jennifer/jen"
)

// emitted is one tool's rendered file, the package-level names it
// declares (checked against the other tools' afterwards) and its errors.
type emitted struct {
	data   []byte
	claims []claimed
	err    error
}

type claimed struct{ name, what string }

// emitTool renders one tool's file with its own emitter.
func emitTool(tm *toolModel, opts Options) emitted {
	f := newFile(opts.Package)
	e := &emitter{f: f, tm: tm, ns: newNamespace(), done: map[*node]bool{}, ruleDone: map[*node]bool{}, closable: tm.closable}
	t := tm.t
	g := tm.goName
	src := filepath.ToSlash(sourcePath(opts.OutDir, t.File))
	for _, name := range []string{g + "ToolName", g + "Description", g + "Schema", g + "Source", g + "SourceSHA256", g + "Spec"} {
		e.claim(name, "tool "+t.Name)
	}
	e.doc(fmt.Sprintf("%sToolName is the exact name of the %s tool.", g, t.Name))
	f.Const().Id(g + "ToolName").Op("=").Lit(t.Name)
	f.Line()
	e.doc(fmt.Sprintf("%sDescription is the description of the %s tool, for the model.", g, t.Name))
	f.Const().Id(g + "Description").Op("=").Lit(t.Description)
	f.Line()
	e.doc((fmt.Sprintf("%sSchema is the effective JSON Schema of the %s tool's arguments, every implied closure written out: what the decoder enforces and the model is shown.", g, t.Name)))
	f.Const().Id(g + "Schema").Op("=").Add(goString(tm.projected.Schema))
	f.Line()
	e.doc((fmt.Sprintf("%sSource is the canonical file of %s, relative to this package, and %sSourceSHA256 the SHA-256 of its bytes at generation.", g, t.Name, g)))
	f.Const().Defs(
		jen.Id(g+"Source").Op("=").Lit(src),
		jen.Id(g+"SourceSHA256").Op("=").Lit(t.SourceSHA256),
	)
	f.Line()
	if opts.ValueRoots {
		e.emitValidate()
	} else {
		e.emitEntryPoints()
		e.emitDefinitions()
		e.emitSpec()
	}
	e.declare(tm.root)
	e.emitResult()
	if len(e.errs) > 0 {
		return emitted{claims: e.claims, err: e.errs}
	}
	data, err := render(f)
	return emitted{data: data, claims: e.claims, err: err}
}

// emitEntryPoints writes Decode<Tool>Args and UnmarshalJSON.
func (e *emitter) emitEntryPoints() {
	args := e.tm.root.goName
	g := e.tm.goName
	fn := "Decode" + args
	e.claim(fn, "tool "+e.tm.t.Name)
	body := func(nullAsAbsent jen.Code) []jen.Code {
		return []jen.Code{
			jen.Var().Id("v").Id(args),
			jen.Var().Id("d").Qual(pkgTgimpl, "Decoder"),
			jen.Id("d").Dot("Reset").Call(jen.Id(g+"ToolName"), jen.Id("data")),
			jen.Id("d").Dot("NullAsAbsent").Op("=").Add(nullAsAbsent),
			e.beginSensitiveTool(e.tm.root.sens),
			jen.If(jen.Id("d").Dot("Object").Call()).Block(jen.Id("v").Dot("decode").Call(jen.Op("&").Id("d"))),
			jen.If(jen.Err().Op(":=").Id("d").Dot("Finish").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id(args).Values(), jen.Err())),
			jen.Return(jen.Id("v"), jen.Nil()),
		}
	}
	e.doc((fmt.Sprintf(`%s reads the %s tool's arguments in one pass, checking every rule of %sSchema; errors.As gives its *toolerr.Error: invalid_json or invalid_arguments.`, fn, e.tm.t.Name, g)))
	if !e.tm.nullAsAbsent() {
		b := body(jen.False())
		e.f.Func().Id(fn).Params(jen.Id("data").Index().Byte()).Params(jen.Id(args), jen.Error()).Block(append(b[:3], b[4:]...)...)
		e.f.Line()
	} else {
		e.f.Func().Id(fn).Params(jen.Id("data").Index().Byte()).Params(jen.Id(args), jen.Error()).Block(
			jen.Return(jen.Id("decode"+args).Call(jen.Id("data"), jen.False())))
		e.f.Line()
		strictFn := fn + "NullAsAbsent"
		e.claim(strictFn, "tool "+e.tm.t.Name)
		e.claim("decode"+args, "tool "+e.tm.t.Name)
		e.doc(fmt.Sprintf("%s is %s for calls in the OpenAI strict dialect: null in an optional member that is not nullable means absent.", strictFn, fn))
		e.f.Func().Id(strictFn).Params(jen.Id("data").Index().Byte()).Params(jen.Id(args), jen.Error()).Block(
			jen.Return(jen.Id("decode"+args).Call(jen.Id("data"), jen.True())))
		e.f.Line()
		e.f.Func().Id("decode"+args).Params(jen.Id("data").Index().Byte(), jen.Id("nullAsAbsent").Bool()).Params(jen.Id(args), jen.Error()).Block(body(jen.Id("nullAsAbsent"))...)
		e.f.Line()
	}
	e.doc(fmt.Sprintf("UnmarshalJSON decodes v with %s.", fn))
	e.f.Func().Params(jen.Id("v").Op("*").Id(args)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Return(jen.Qual(pkgTgimpl, "Unmarshal").Call(jen.Id("v"), jen.Id("data"), jen.Id(fn))),
	)
	e.f.Line()
}

// version is the tool's schema version: its x-toolgate version, else a
// content hash of what the model sees and the gate enforces (the result
// schema included, when there is one).
func (tm *toolModel) version() string {
	if tm.t.Meta.Version != "" {
		return tm.t.Meta.Version
	}
	h := sha256.New()
	for _, part := range []string{tm.t.Name, tm.t.Description, tm.projected.Schema} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	if tm.resultSchema != "" {
		// A result schema is part of what the tool promises; tools without
		// one keep the versions they had.
		h.Write([]byte(tm.resultSchema))
		h.Write([]byte{0})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// emitSpec writes the tool's gate.Spec.
func (e *emitter) emitSpec() {
	tm, g := e.tm, e.tm.goName
	fields := []jen.Code{
		field("Name", jen.Id(g+"ToolName")),
		field("Description", jen.Id(g+"Description")),
		field("Schema", jen.Id(g+"Schema")),
		field("Version", jen.Lit(tm.version())),
	}
	if len(tm.t.Meta.Roles) > 0 {
		var roles []jen.Code
		for _, r := range tm.t.Meta.Roles {
			roles = append(roles, jen.Lit(r))
		}
		fields = append(fields, field("Roles", jen.Index().String().Values(roles...)))
	}
	if tm.t.Meta.Destructive {
		fields = append(fields, field("Destructive", jen.True()))
	}
	if tm.t.Meta.Timeout != "" {
		d, _ := time.ParseDuration(tm.t.Meta.Timeout) // validated when loading
		fields = append(fields, field("Timeout", durationCode(d)))
	}
	fields = append(fields, approvalFields(tm.t.Meta)...)
	if sens := tm.sensitivePointers(); len(sens) > 0 {
		var ptrs []jen.Code
		for _, p := range sens {
			ptrs = append(ptrs, jen.Lit(p))
		}
		fields = append(fields, field("Sensitive", jen.Index().String().Values(ptrs...)))
	}
	fields = append(fields, field("Decode", jen.Id("Decode"+tm.root.goName)))
	if tm.nullAsAbsent() {
		fields = append(fields, field("DecodeNullAsAbsent", jen.Id("Decode"+tm.root.goName+"NullAsAbsent")))
	}
	fields = append(fields, field("Definitions", jen.Id(g+"Definitions")))
	e.doc(fmt.Sprintf("%sSpec describes the %s tool to a gate registry: its name, schema, version, metadata and decoder.", g, tm.t.Name))
	e.f.Var().Id(g+"Spec").Op("=").Qual(pkgGate, "Spec").Types(jen.Id(tm.root.goName)).Add(literal(fields))
	e.f.Line()
}

// durationCode writes d as readable Go: 10 * time.Second.
func durationCode(d time.Duration) jen.Code {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}} {
		if d%u.d == 0 {
			return jen.Lit(int(d/u.d)).Op("*").Qual("time", u.name)
		}
	}
	return jen.Qual("time", "Duration").Call(jen.Lit(int64(d)))
}

// emitValidate writes Validate<Tool>, which checks any JSON value.
func (e *emitter) emitValidate() {
	fn := "Validate" + e.tm.goName
	e.claim(fn, "tool "+e.tm.t.Name)
	e.doc(fmt.Sprintf("%s checks that data is one JSON value that %sSchema accepts.", fn, e.tm.goName))
	body := []jen.Code{
		jen.Var().Id("dec").Qual(pkgTgimpl, "Decoder"),
		jen.Id("d").Op(":=").Op("&").Id("dec"),
		jen.Id("d").Dot("Reset").Call(jen.Id(e.tm.goName+"ToolName"), jen.Id("data")),
		e.beginSensitiveTool(false),
	}
	body = append(body, e.decodeValue(e.tm.root, discard)...)
	body = append(body, jen.Return(jen.Id("d").Dot("Finish").Call()))
	e.f.Func().Id(fn).Params(jen.Id("data").Index().Byte()).Error().Block(body...)
	e.f.Line()
}

// letGoNodes drops the model of the arguments and what is keyed by its
// nodes once the tool's file is emitted: they are what a tool holds the
// most of, and nothing after the emitter reads them. The result's model
// stays (the package file reads its name).
func (tm *toolModel) letGoNodes() {
	tm.root, tm.ruleVars, tm.unionFuncs = nil, nil, nil
}
