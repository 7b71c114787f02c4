package gen

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
)

func newFile(pkg string) *jen.File {
	f := jen.NewFile(pkg)
	f.HeaderComment(strings.TrimPrefix(Header, "// "))
	// The runtime is imported under distinctive names, so that generated
	// files can live in a user's package (--out .) whose own identifiers
	// (a "provider", a "format") would otherwise clash with the imports.
	f.ImportName(pkgTgimpl, "tgimpl")
	f.ImportAlias(pkgJSONRead, "tgjsonread")
	f.ImportAlias(pkgJSONNum, "tgjsonnum")
	f.ImportAlias(pkgOpt, "tgopt")
	f.ImportAlias(pkgFormat, "tgformat")
	f.ImportAlias(pkgGate, "tggate")
	f.ImportAlias(pkgProvider, "tgprovider")
	return f
}

func render(f *jen.File) ([]byte, error) {
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		// jennifer's error holds the whole unformatted source after its
		// first line.
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return nil, fmt.Errorf("toolgate bug: the generated code does not format: %s", escapeText(msg, unsafeRune))
	}
	return groupImports(buf.Bytes()), nil
}

// groupImports puts the standard library's imports before the others, in
// two groups, as goimports does (jennifer writes one gofmt-ed, sorted block;
// splitting it keeps both groups sorted, so the result is gofmt-ed too).
func groupImports(src []byte) []byte {
	start := bytes.Index(src, []byte("\nimport (\n"))
	if start < 0 {
		return src
	}
	start += len("\nimport (\n")
	end := bytes.Index(src[start:], []byte("\n)\n"))
	if end < 0 {
		return src
	}
	end += start
	var std, other []string
	for _, line := range strings.Split(string(src[start:end]), "\n") {
		path := strings.Trim(strings.TrimSpace(line[strings.LastIndexByte(line, ' ')+1:]), `"`)
		if strings.Contains(strings.SplitN(path, "/", 2)[0], ".") {
			other = append(other, line)
		} else {
			std = append(std, line)
		}
	}
	block := strings.Join(std, "\n")
	if len(std) > 0 && len(other) > 0 {
		block += "\n\n"
	}
	block += strings.Join(other, "\n")
	return append(append(append([]byte(nil), src[:start]...), block...), src[end:]...)
}

// packageFile holds what the package needs once: the compile-time check that
// the runtime it imports is the one it was generated for, and the Bindings
// struct and NewRegistry constructor that bind every tool to a gate.
func packageFile(opts Options, models []*toolModel, ns *namespace) (File, error) {
	f := newFile(opts.Package)
	for _, line := range strings.Split(wrap(fmt.Sprintf("The generated code of this package is written for version %d of the toolgate runtime; these constants overflow, and the package does not compile, against a runtime that does not support it.", genVersion)), "\n") {
		f.Comment(line)
	}
	f.Const().Defs(
		jen.Id("_").Op("=").Qual(pkgTgimpl, "EnforceVersion").Call(jen.Lit(genVersion).Op("-").Qual(pkgTgimpl, "MinVersion")),
		jen.Id("_").Op("=").Qual(pkgTgimpl, "EnforceVersion").Call(jen.Qual(pkgTgimpl, "MaxVersion").Op("-").Lit(genVersion)),
	)
	f.Line()
	for _, line := range strings.Split(wrap("Each object type of this package has a decode method, which reads it from a tgimpl.Decoder at an object, checking every rule of its schema, and an appendJSON method, which appends it as JSON: the members set, in schema order. The package variables whose names end in Rule hold the keywords a decode method reads with one call, made from the schema once."), "\n") {
		f.Comment(line)
	}
	if !opts.ValueRoots {
		for _, name := range []string{"Bindings", "NewRegistry"} {
			ns.claim(name, "the package's registry") // first in: tools that collide are told
		}
		emitBindings(f, models)
		emitAllProviders(f, models)
	}
	data, err := render(f)
	if err != nil {
		return File{}, err
	}
	return File{Name: "toolgate.go", Data: data}, nil
}

// emitBindings writes the Bindings struct and NewRegistry.
func emitBindings(f *jen.File, models []*toolModel) {
	f.Line()
	f.Comment("Bindings holds, for every tool of this package, the authorization policy")
	f.Comment("and the executor a service supplies. NewRegistry refuses a tool left")
	f.Comment("unbound.")
	var fields, binds []jen.Code
	for _, tm := range models {
		fields = append(fields, jen.Comment(fmt.Sprintf("%s binds the %s tool.", tm.goName, tm.t.Name)))
		fields = append(fields, jen.Id(tm.goName).Add(bindingType(tm)))
		binds = append(binds, bindCall(tm))
	}
	f.Type().Id("Bindings").Struct(fields...)
	f.Line()
	f.Comment("NewRegistry returns the gate registry of every tool of this package, bound")
	f.Comment("as b says. It returns an error naming each tool whose policy or executor is")
	f.Comment("nil.")
	f.Func().Id("NewRegistry").Params(jen.Id("b").Id("Bindings"), jen.Id("opts").Op("...").Qual(pkgGate, "Option")).Params(jen.Op("*").Qual(pkgGate, "Registry"), jen.Error()).Block(
		jen.Return(jen.Qual(pkgGate, "NewRegistry").Call(jen.Index().Op("*").Qual(pkgGate, "Tool").ValuesFunc(func(g *jen.Group) {
			for _, b := range binds {
				g.Line().Add(b)
			}
			g.Line()
		}), jen.Id("opts").Op("..."))),
	)
}
