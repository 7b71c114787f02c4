package vet

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"
)

// decodeFix is the advice every decode-outside-gate diagnostic ends with.
const decodeFix = "pass the raw bytes to runtime/adapter and the registry (Registry.Dispatch) instead"

// decodeArgsName matches the generated argument decoders.
var decodeArgsName = regexp.MustCompile(`^Decode[A-Z]\w*Args(NullAsAbsent)?$`)

// jsonDecoders are the functions, by package, that decode the JSON their
// first argument holds: encoding/json and the libraries Go services use
// beside it.
var jsonDecoders = map[string][]string{
	"encoding/json":                      {"Unmarshal", "NewDecoder"},
	"github.com/goccy/go-json":           {"Unmarshal", "UnmarshalNoEscape", "NewDecoder"},
	"github.com/segmentio/encoding/json": {"Unmarshal", "NewDecoder"},
	"github.com/bytedance/sonic":         {"Unmarshal", "UnmarshalString"},
	"github.com/tidwall/gjson":           {"Get", "GetBytes", "GetMany", "GetManyBytes", "Parse", "ParseBytes"},
	"github.com/buger/jsonparser": {"Get", "GetString", "GetInt", "GetFloat", "GetBoolean", "GetUnsafeString",
		"ArrayEach", "ObjectEach", "EachKey"},
}

// mcpGoDecoders are the methods of mcp-go's CallToolRequest that decode
// its arguments themselves.
var mcpGoDecoders = regexp.MustCompile(`^(BindArguments|(Get|Require)(String|Int|Float|Bool)(Slice)?)$`)

// addToolFix is the advice for the go-sdk's generic AddTool.
const addToolFix = "add the tool with Server.AddTool and hand the raw arguments to the registry (runtime/mcpgate does) instead"

// goSDKAddTool reports whether fn is (an instance of) the MCP go-sdk's
// generic AddTool, which decodes a call's arguments into its handler's
// type parameter with encoding/json, after validating and rewriting them.
func goSDKAddTool(fn *ssa.Function) bool {
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	obj := fn.Object()
	return fn.Signature.Recv() == nil && fn.Name() == "AddTool" && obj != nil && obj.Pkg() != nil &&
		inPackage(obj.Pkg().Path(), "github.com/modelcontextprotocol/go-sdk", "mcp")
}

// mcpGoRequest reports whether fn is a method of mcp-go's CallToolRequest.
func mcpGoRequest(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil {
		return false
	}
	name, path, _ := namedOf(recv.Type())
	return name == "CallToolRequest" && inPackage(path, "github.com/mark3labs/mcp-go", "mcp")
}

// A sink is where tainted arguments are decoded outside the gate.
type sink struct {
	pos  token.Pos
	what string
	// from names the source field; empty in a parameter's summary, where
	// the caller's argument names it.
	from string
	// fix is the advice, when it is not decodeFix.
	fix string
}

// summary is what a function does with a tainted parameter (or, for
// param -1, with the sources it reads itself).
type summary struct {
	sinks []sink
	// returns names the source of a tainted result ("" for a parameter's
	// own taint); ok says whether fn returns taint at all.
	returns string
	ok      bool
}

type sumKey struct {
	fn    *ssa.Function
	param int
}

// tainter follows tool-call arguments through the functions of one package.
type tainter struct {
	pkg  *ssa.Package
	sums map[sumKey]*summary
	// readers holds each function's readers, built once for all its
	// summaries.
	readers map[*ssa.Function]*readers
}

func checkDecode(pass *analysis.Pass) {
	res := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	t := &tainter{pkg: res.Pkg, sums: map[sumKey]*summary{}, readers: map[*ssa.Function]*readers{}}
	starts := callStarts(pass.Files)
	reported := map[token.Pos]bool{}
	// A test that decodes arguments to look at them exposes nothing: only
	// the service's code is followed and reported.
	for _, fn := range res.SrcFuncs {
		if isTestPos(pass, fn.Pos()) {
			continue
		}
		for _, k := range t.summarize(fn, -1).sinks {
			pos := k.pos
			if p, ok := starts[pos]; ok {
				pos = p
			}
			if reported[pos] || isTestPos(pass, pos) {
				continue
			}
			reported[pos] = true
			fix := cmp.Or(k.fix, decodeFix)
			pass.Report(analysis.Diagnostic{
				Pos:      pos,
				Category: CheckDecode,
				Message:  "tool-call arguments from " + k.from + " reach " + k.what + " outside the gate; " + fix,
			})
		}
	}
}

// callStarts maps the Lparen of each call (where SSA puts a call) to the
// start of the call expression.
func callStarts(files []*ast.File) map[token.Pos]token.Pos {
	m := map[token.Pos]token.Pos{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				m[c.Lparen] = c.Pos()
			}
			return true
		})
	}
	return m
}

// sources maps the reads of tool-call arguments in fn (the SDKs' fields,
// mcp-go's GetArguments and GetRawArguments, calls of the package's
// functions that return such a read) to their names, and lists the calls
// of mcp-go's own decoders, sinks whatever their operands.
func (t *tainter) sources(fn *ssa.Function) (map[ssa.Value]string, []sink) {
	out := map[ssa.Value]string{}
	var sinks []sink
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			var (
				x     ssa.Value
				field int
			)
			switch in := in.(type) {
			case *ssa.Field:
				x, field = in.X, in.Field
			case *ssa.FieldAddr:
				x, field = in.X, in.Field
			case *ssa.Call:
				callee := in.Common().StaticCallee()
				if callee == nil {
					continue
				}
				if own := t.own(callee); own != nil {
					if s := t.summarize(own, -1); s.ok {
						out[in] = s.returns
					}
					continue
				}
				if goSDKAddTool(callee) {
					sinks = append(sinks, sink{pos: in.Pos(), what: "the SDK's own decoding", from: "MCP go-sdk mcp.AddTool", fix: addToolFix})
					continue
				}
				if !mcpGoRequest(callee) {
					continue
				}
				what := "mcp-go CallToolRequest." + callee.Name()
				switch name := callee.Name(); {
				case name == "GetArguments" || name == "GetRawArguments":
					out[in] = what
				case mcpGoDecoders.MatchString(name):
					sinks = append(sinks, sink{pos: in.Pos(), what: "the SDK's own decoding", from: what})
				}
				continue
			default:
				continue
			}
			if name, ok := sourceField(x.Type(), field); ok {
				out[in.(ssa.Value)] = name
			}
		}
	}
	return out, sinks
}

// own returns the function of the package that fn is (or instantiates),
// nil for any other.
func (t *tainter) own(fn *ssa.Function) *ssa.Function {
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if fn.Pkg != t.pkg || len(fn.Blocks) == 0 {
		return nil
	}
	return fn
}

// summarize returns what fn does with parameter param tainted (param -1:
// with its own sources tainted; from len(fn.Params) on, a closure's free
// variables).
func (t *tainter) summarize(fn *ssa.Function, param int) *summary {
	k := sumKey{fn, param}
	if s, ok := t.sums[k]; ok {
		return s
	}
	// A recursive call sees an empty summary while this one is computed.
	t.sums[k] = &summary{}
	start := map[ssa.Value]string{}
	var direct []sink
	if param < 0 {
		start, direct = t.sources(fn)
	} else if param < len(fn.Params) {
		start[fn.Params[param]] = ""
	} else if i := param - len(fn.Params); i < len(fn.FreeVars) {
		start[fn.FreeVars[i]] = ""
	}
	s := t.flow(fn, start)
	s.sinks = append(s.sinks, direct...)
	t.sums[k] = s
	return s
}

// flow taints the values of start in fn, each with the name of its source,
// and reports where the taint reaches a sink and whether fn returns it. It
// is a worklist over the instructions that use a tainted value or read a
// tainted variable: a value is tainted once, each instruction is stepped
// once per tainted operand, and a read of a variable at most three times
// (its location stored, the whole variable stored, a first field of it
// stored), so the walk is linear in fn's size.
func (t *tainter) flow(fn *ssa.Function, start map[ssa.Value]string) *summary {
	r := t.readers[fn]
	if r == nil {
		r = readersOf(fn)
		t.readers[fn] = r
	}
	f := &flowState{t: t, tainted: map[ssa.Value]string{}, mem: map[loc]string{}, partial: map[ssa.Value]string{}, readers: r, seen: map[token.Pos]bool{}, s: &summary{}}
	for v, name := range start {
		f.taint(v, name)
	}
	for len(f.work) > 0 {
		v := f.work[len(f.work)-1]
		f.work = f.work[:len(f.work)-1]
		if refs := v.Referrers(); refs != nil {
			for _, in := range *refs {
				f.step(in)
			}
		}
	}
	return f.s
}

// readers are the instructions of a function that read its variables or
// their fields: loads, and closures that capture a variable by reference.
type readers struct {
	// at holds them by the location they read, in by its variable.
	at map[loc][]ssa.Instruction
	in map[ssa.Value][]ssa.Instruction
}

func readersOf(fn *ssa.Function) *readers {
	r := &readers{at: map[loc][]ssa.Instruction{}, in: map[ssa.Value][]ssa.Instruction{}}
	add := func(l loc, in ssa.Instruction) {
		r.at[l] = append(r.at[l], in)
		r.in[l.base] = append(r.in[l.base], in)
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.UnOp:
				if l, ok := locOf(in.X); ok && in.Op == token.MUL {
					add(l, in)
				}
			case *ssa.MakeClosure:
				for _, b := range in.Bindings {
					if l, ok := locOf(b); ok {
						add(l, in)
					}
				}
			}
		}
	}
	return r
}

// flowState is the taint of one function's values and variables.
type flowState struct {
	t       *tainter
	tainted map[ssa.Value]string
	mem     map[loc]string
	partial map[ssa.Value]string
	readers *readers
	// work holds the values tainted whose users are still to be stepped.
	work []ssa.Value
	seen map[token.Pos]bool
	s    *summary
}

// from reports whether v is tainted and the name of its source.
func (f *flowState) from(v ssa.Value) (string, bool) {
	name, ok := f.tainted[v]
	return name, ok
}

// mark taints v by the taint of x, if x is tainted.
func (f *flowState) mark(v, x ssa.Value) {
	if name, ok := f.tainted[x]; ok {
		f.taint(v, name)
	}
}

func (f *flowState) taint(v ssa.Value, name string) {
	if _, ok := f.tainted[v]; !ok {
		f.tainted[v] = name
		f.work = append(f.work, v)
	}
}

// store taints the location l and steps the readers whose read it taints
// (memAt): those of l; for a whole variable, those of its fields too; for
// the first field of a variable stored, those of the whole variable.
func (f *flowState) store(l loc, name string) {
	if _, ok := f.mem[l]; ok {
		return
	}
	f.mem[l] = name
	reads := f.readers.at[l]
	if l.field < 0 {
		reads = f.readers.in[l.base]
	} else if _, ok := f.partial[l.base]; !ok {
		f.partial[l.base] = name
		f.stepAll(f.readers.at[loc{l.base, -1}])
	}
	f.stepAll(reads)
}

func (f *flowState) stepAll(ins []ssa.Instruction) {
	for _, in := range ins {
		f.step(in)
	}
}

// memAt reports whether reading l reads the arguments: l was stored, or
// l is a field of a variable stored whole, or l is a whole variable one of
// whose fields was stored (a struct read whole, and handed to a function,
// holds the arguments; its other fields read one by one do not).
func (f *flowState) memAt(l loc) (string, bool) {
	if name, ok := f.mem[l]; ok {
		return name, true
	}
	if l.field < 0 {
		name, ok := f.partial[l.base]
		return name, ok
	}
	name, ok := f.mem[loc{l.base, -1}]
	return name, ok
}

func (f *flowState) sink(pos token.Pos, what string, x ssa.Value) {
	name, ok := f.tainted[x]
	if ok && !f.seen[pos] {
		f.seen[pos] = true
		f.s.sinks = append(f.s.sinks, sink{pos: pos, what: what, from: name})
	}
}

// loc names a memory location: a local variable, or a field of one.
type loc struct {
	base  ssa.Value
	field int
}

func locOf(v ssa.Value) (loc, bool) {
	switch v := v.(type) {
	case *ssa.Alloc, *ssa.FreeVar, *ssa.Global:
		return loc{v, -1}, true
	case *ssa.FieldAddr:
		if base, ok := locOf(v.X); ok && base.field < 0 {
			return loc{base.base, v.Field}, true
		}
	}
	return loc{}, false
}

func (f *flowState) step(in ssa.Instruction) {
	switch in := in.(type) {
	case *ssa.Convert:
		f.mark(in, in.X)
	case *ssa.ChangeType:
		f.mark(in, in.X)
	case *ssa.MakeInterface:
		f.mark(in, in.X)
	case *ssa.ChangeInterface:
		f.mark(in, in.X)
	case *ssa.Slice:
		f.mark(in, in.X)
	case *ssa.Field:
		// A member of a tainted struct: an SDK's union of argument forms
		// (Responses' Arguments.OfString).
		f.mark(in, in.X)
	case *ssa.FieldAddr:
		f.mark(in, in.X)
	case *ssa.Extract:
		f.mark(in, in.Tuple)
	case *ssa.Phi:
		for _, e := range in.Edges {
			f.mark(in, e)
		}
	case *ssa.TypeAssert:
		if _, ok := in.AssertedType.Underlying().(*types.Map); ok {
			f.sink(in.Pos(), "a type assertion to "+in.AssertedType.String(), in.X)
			return
		}
		f.mark(in, in.X)
	case *ssa.Lookup:
		f.sink(in.Pos(), "a map read", in.X)
	case *ssa.Range:
		if _, ok := in.X.Type().Underlying().(*types.Map); ok {
			f.sink(in.Pos(), "a range over the map", in.X)
		}
	case *ssa.UnOp:
		if in.Op != token.MUL {
			return
		}
		if l, ok := locOf(in.X); ok {
			if name, ok := f.memAt(l); ok {
				f.taint(in, name)
			}
		}
		f.mark(in, in.X)
	case *ssa.Store:
		name, ok := f.from(in.Val)
		if !ok {
			return
		}
		if l, ok := locOf(in.Addr); ok {
			f.store(l, name)
		}
	case *ssa.Return:
		for _, r := range in.Results {
			if name, ok := f.from(r); ok && !f.s.ok {
				f.s.returns, f.s.ok = name, true
			}
		}
	case *ssa.Call:
		f.call(in)
	case *ssa.MakeClosure:
		f.closure(in)
	}
}

// closure follows taint into a function literal through the variables it
// captures: by value, or by reference to a tainted variable.
func (f *flowState) closure(mc *ssa.MakeClosure) {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return
	}
	for i, b := range mc.Bindings {
		name, ok := f.from(b)
		if l, isLoc := locOf(b); !ok && isLoc {
			name, ok = f.memAt(l)
		}
		if !ok {
			continue
		}
		f.inherit(f.t.summarize(fn, len(fn.Params)+i), name)
	}
}

// inherit adds the sinks of a callee's summary, named by the caller's
// source name where the summary's taint came from a parameter.
func (f *flowState) inherit(s *summary, name string) {
	for _, k := range s.sinks {
		if f.seen[k.pos] {
			continue
		}
		f.seen[k.pos] = true
		from := k.from
		if from == "" {
			from = name
		}
		f.s.sinks = append(f.s.sinks, sink{pos: k.pos, what: k.what, from: from, fix: k.fix})
	}
}

// call applies a call: the sinks of encoding/json and the generated
// decoders, taint through strings, bytes, io and bufio, and the summaries
// of the package's own functions.
func (f *flowState) call(c *ssa.Call) {
	common := c.Common()
	callee := common.StaticCallee()
	if callee == nil {
		return
	}
	args := common.Args
	var path string
	if obj := callee.Object(); obj != nil && obj.Pkg() != nil {
		path = obj.Pkg().Path()
	} else if callee.Pkg != nil {
		path = callee.Pkg.Pkg.Path()
	}
	name := callee.Name()
	if mcpGoRequest(callee) {
		// Its sources and decoders are found by sources.
		return
	}
	switch {
	case slices.Contains(jsonDecoders[path], name) && callee.Signature.Recv() == nil:
		if len(args) > 0 {
			f.sink(c.Pos(), path+"."+name, args[0])
		}
		return
	case decodeArgsName.MatchString(name) && path != f.t.pkg.Pkg.Path():
		if len(args) > 0 {
			f.sink(c.Pos(), "the generated "+name+", called outside a registry,", args[0])
		}
		return
	case path == "strings" || path == "bytes" || path == "io" || path == "bufio":
		for _, a := range args {
			f.mark(c, a)
		}
		return
	}
	fn := f.t.own(callee)
	if fn == nil {
		return
	}
	for i, a := range args {
		name, ok := f.from(a)
		if !ok {
			continue
		}
		s := f.t.summarize(fn, i)
		f.inherit(s, name)
		if s.ok {
			ret := s.returns
			if ret == "" {
				ret = name
			}
			f.taint(c, ret)
		}
	}
}
