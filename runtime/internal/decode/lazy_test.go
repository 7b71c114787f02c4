package decode

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/internal/violation"
	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// The eager rendering that recording replaced: each violation's pointer
// and message written from the decoder's state the moment it is found.
// TestLazyMatchesEager checks that the records, rendered when the error is
// read, give exactly these, with the limits package violation documents.

const (
	eagerMaxPathText = 1024
	eagerMaxName     = 128
	eagerHidden      = "*"
)

// eagerName appends the member name whose opening quote is data[off],
// decoded, cut at eagerMaxName runes, and reports whether it was cut.
func eagerName(b, data []byte, off int) ([]byte, bool) {
	name := []rune(jsonread.Unquote(data, off))
	if len(name) > eagerMaxName {
		return append(b, string(name[:eagerMaxName])...), true
	}
	return append(b, string(name)...), false
}

func eagerPointer(d *Decoder) string {
	var b []byte
	for i, seg := range d.path[:min(d.depth, maxPath)] {
		if len(b) >= eagerMaxPathText {
			return string(append(b, "/…"...))
		}
		b = append(b, '/')
		switch {
		case seg < 0:
			b = strconv.AppendInt(b, int64(-seg-1), 10)
		case d.hiddenSegs&(1<<i) != 0:
			b = append(b, eagerHidden...)
		default:
			mark := len(b)
			var cut bool
			b, cut = eagerName(b, d.R.Data(), int(seg))
			if bytes.ContainsAny(b[mark:], "~/") {
				token := strings.NewReplacer("~", "~0", "/", "~1").Replace(string(b[mark:]))
				b = append(b[:mark], token...)
			}
			if cut {
				b = append(b, "…"...)
			}
		}
	}
	return string(b)
}

func eagerSubject(d *Decoder) string {
	var b []byte
	for i, seg := range d.path[:min(d.depth, maxPath)] {
		if len(b) >= eagerMaxPathText {
			return string(append(b, "…"...))
		}
		if seg < 0 {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(-seg-1), 10)
			b = append(b, ']')
			continue
		}
		if len(b) > 0 {
			b = append(b, '.')
		}
		if d.hiddenSegs&(1<<i) != 0 {
			b = append(b, eagerHidden...)
			continue
		}
		mark := len(b)
		var cut bool
		b, cut = eagerName(b, d.R.Data(), int(seg))
		if !violation.BareName(b[mark:]) {
			name := string(b[mark:])
			b = violation.AppendVisible(b[:mark], name)
		}
		if cut {
			b = append(b, "…"...)
		}
	}
	return string(b)
}

// eager is the violation as the eager code wrote it: the subject (or
// empty), then the rule, then "; received <got>" unless got is "" or a
// sensitive value is being read.
func eager(d *Decoder, keyword, sp, empty, got string, rule ...string) toolerr.Violation {
	msg := eagerSubject(d)
	if msg == "" {
		msg = empty
	}
	msg += strings.Join(rule, "")
	if got != "" && d.hidden == 0 {
		msg += "; received " + got
	}
	return toolerr.Violation{Keyword: keyword, InstancePath: eagerPointer(d), SchemaPath: sp, Message: msg}
}

// A lazyCase is a violation method called on a value (at a leaf of the
// document, the value not yet read when consumes) and the violation the
// eager code wrote for it.
type lazyCase struct {
	name     string
	consumes bool
	call     func(d *Decoder, raw []byte) toolerr.Violation
}

var negZero = func() float64 { z := 0.0; return -z }()

func plural2(n int, unit string) string {
	return strconv.Itoa(n) + " " + unit + map[bool]string{true: "", false: "s"}[n == 1]
}

// plainCase is the lazyCase of a violation method of the plain form: it
// records the violation of keyword (at schema pointer sp, with the
// template's argument arg) for the value, shown as show shows it, and the
// eager message is the subject, rule, arg and "; received <got>".
func plainCase(keyword, sp, rule, arg string, show func(*Decoder, []byte) string, record func(d *Decoder, sp, arg, got string)) lazyCase {
	return lazyCase{keyword, false, func(d *Decoder, raw []byte) toolerr.Violation {
		got := show(d, raw)
		w := eager(d, keyword, sp, "the arguments", got, rule, arg)
		record(d, sp, arg, got)
		return w
	}}
}

var lazyCases = []lazyCase{
	{"type", true, func(d *Decoder, _ []byte) toolerr.Violation {
		k := d.R.Peek()
		got := "null"
		if k != jsonread.Null {
			got = Article(k.String())
		}
		w := eager(d, "type", "/t/type", "the arguments", "", " must be ", Article("string or null"), "; received ", got)
		d.TypeMismatch("/t/type", "string or null")
		return w
	}},
	{"false", true, func(d *Decoder, _ []byte) toolerr.Violation {
		w := eager(d, "false", "/f", "the arguments", "", " is not allowed")
		d.False("/f")
		return w
	}},
	plainCase("enum", "/e/enum", " must be one of ", "a, b or c", (*Decoder).Quote, (*Decoder).Enum),
	plainCase("const", "/c/const", " must be ", "k", (*Decoder).Quote, (*Decoder).Const),
	plainCase("minimum", "/n/minimum", " must be at least ", "10", (*Decoder).Text, (*Decoder).Minimum),
	plainCase("exclusiveMinimum", "/n/exclusiveMinimum", " must be greater than ", "0", (*Decoder).Text, (*Decoder).ExclusiveMinimum),
	plainCase("maximum", "/n/maximum", " must be at most ", "5", (*Decoder).Text, (*Decoder).Maximum),
	plainCase("exclusiveMaximum", "/n/exclusiveMaximum", " must be less than ", "5", (*Decoder).Text, (*Decoder).ExclusiveMaximum),
	plainCase("multipleOf", "/n/multipleOf", " must be a multiple of ", "0.5", (*Decoder).Text, (*Decoder).MultipleOf),
	plainCase("pattern", "/s/pattern", " must match the pattern ", "^[A-Z]+$", (*Decoder).Quote, (*Decoder).Pattern),
	plainCase("format", "/s/format", " must be a valid ", "date (RFC 3339 full-date)", (*Decoder).Quote, (*Decoder).Format),
	{"minLength", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "minLength", "/s/minLength", "the arguments", "", " must be at least ", plural2(3, "character"), " long; received ", plural2(1, "character"))
		d.MinLength("/s/minLength", 3, 1)
		return w
	}},
	{"maxLength", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "maxLength", "/s/maxLength", "the arguments", "", " must be at most ", plural2(1, "character"), " long; received ", plural2(len(raw), "character"))
		d.MaxLength("/s/maxLength", 1, len(raw))
		return w
	}},
	{"minItems", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "minItems", "/a/minItems", "the arguments", "", " must have at least ", plural2(2, "item"), "; received ", "1")
		d.MinItems("/a/minItems", 2, 1)
		return w
	}},
	{"maxItems", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "maxItems", "/a/maxItems", "the arguments", "", " must have at most ", plural2(1, "item"), "; received ", "-20000")
		d.MaxItems("/a/maxItems", 1, -20000)
		return w
	}},
	{"uniqueItems", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "uniqueItems", "/a/uniqueItems", "the arguments", "", " must not contain duplicate items; items 0 and 2 are equal")
		d.UniqueItems("/a/uniqueItems", [][]byte{[]byte(`1`), []byte(`"x"`), []byte(`1.0`)})
		return w
	}},
	{"integer", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "type", "/i/type", "the arguments", d.shown([]byte("1.5e-3"), false), " must be an integer")
		d.ParseInt([]byte("1.5e-3"), "/i/type", false)
		return w
	}},
	{"integer sensitive", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "type", "/i/type", "the arguments", "", " must be an integer")
		d.ParseInt([]byte("2.5"), "/i/type", true)
		return w
	}},
	{"intRange", false, func(d *Decoder, raw []byte) toolerr.Violation {
		got := d.Text([]byte("1" + strings.Repeat("0", 80)))
		w := eager(d, "type", "/i/type", "the arguments", got, " must be an integer between -9223372036854775808 and 9223372036854775807")
		d.IntRange("/i/type", got)
		return w
	}},
	{"float", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "type", "/f/type", "the arguments", d.shown([]byte("-1e400"), false), " must be a number within the 64-bit floating-point range")
		d.ParseFloat([]byte("-1e400"), "/f/type", false)
		return w
	}},
	{"floatBound", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "exclusiveMinimum", "/f/exclusiveMinimum", "the arguments", "1e-400, which is 0 as a 64-bit float", " must be ", "greater than", " ", "0", " also as a 64-bit floating-point number")
		d.FloatBound("exclusiveMinimum", "/f/exclusiveMinimum", "0", "1e-400", 0)
		return w
	}},
	{"floatBound maximum", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "maximum", "/f/maximum", "the arguments", "", " must be ", "at most", " ", "1e308", " also as a 64-bit floating-point number")
		d.FloatBound("maximum", "/f/maximum", "1e308", "", 0)
		return w
	}},
	{"floatBound minimum", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "minimum", "/f/minimum", "the arguments", "-1e-400, which is -0 as a 64-bit float", " must be ", "at least", " ", "0", " also as a 64-bit floating-point number")
		d.FloatBound("minimum", "/f/minimum", "0", "-1e-400", negZero)
		return w
	}},
	{"floatBound exclusiveMaximum", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "exclusiveMaximum", "/f/exclusiveMaximum", "the arguments", "1.00000000000000000001, which is 1 as a 64-bit float", " must be ", "less than", " ", "1", " also as a 64-bit floating-point number")
		d.FloatBound("exclusiveMaximum", "/f/exclusiveMaximum", "1", "1.00000000000000000001", 1)
		return w
	}},
	{"oneOf none", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "oneOf", "/oneOf", "the arguments", "", " must match exactly one schema of oneOf; it matches none")
		d.OneOf("/oneOf", -1, -1)
		return w
	}},
	{"not", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "not", "/not", "the arguments", "", " must not match the schema of not")
		d.Not("/not")
		return w
	}},
	{"then", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "then", "/then", "the arguments", "", " matches the if schema, so it must match then")
		d.IfThenElse("/then", "then")
		return w
	}},
	{"minContains", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "minContains", "/contains", "the arguments", "", " must contain at least 2 items matching contains; received 1")
		d.Contains("/contains", 2, -1, 1)
		return w
	}},
	{"contains", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "contains", "/contains", "the arguments", "", " must contain at least 1 item matching contains; received 0")
		d.Contains("/contains", 1, -1, 0)
		return w
	}},
	{"contains at most", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "maxContains", "/contains", "the arguments", "", " must contain at most 1 item matching contains; received 2")
		d.Contains("/contains", 0, 1, 2)
		return w
	}},
	{"$ref", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "$ref", "/$ref", "the arguments", "", " must match the referenced schema")
		d.Ref("/$ref")
		return w
	}},
	{"unevaluatedItems", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "unevaluatedItems", "/unevaluatedItems", "the arguments", "", " has item 7, which no matching schema allows")
		d.UnevaluatedItem("/unevaluatedItems", 7)
		return w
	}},
	{"propertyNames", false, func(d *Decoder, raw []byte) toolerr.Violation {
		got := violation.Quote(raw)
		w := eager(d, "propertyNames", "/propertyNames", "the arguments", got, " has a member name that propertyNames does not allow")
		d.PropertyName("/propertyNames", string(raw))
		return w
	}},
	{"allOf", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "allOf", "/allOf", "the arguments", "", " must match every schema of allOf; it does not match #12")
		d.AllOf("/allOf", 12)
		return w
	}},
	{"oneOf", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "oneOf", "/oneOf", "the arguments", "", " must match exactly one schema of oneOf; it matches #0 and #3")
		d.OneOf("/oneOf", 0, 3)
		return w
	}},
	{"else", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "else", "/else", "the arguments", "", " does not match the if schema, so it must match else")
		d.IfThenElse("/else", "else")
		return w
	}},
	{"contains", false, func(d *Decoder, raw []byte) toolerr.Violation {
		w := eager(d, "maxContains", "/contains", "the arguments", "", " must contain between 2 and 3 items matching contains; received 4")
		d.Contains("/contains", 2, 3, 4)
		return w
	}},
	{"patternProperties", false, func(d *Decoder, raw []byte) toolerr.Violation {
		got := violation.Quote(raw)
		w := eager(d, "patternProperties", "/patternProperties/^a", "the arguments", got, " has a member, named as received, whose value fails the schema of patternProperties ", violation.Show("^a b"))
		d.PatternProperty("/patternProperties/^a", string(raw), "^a b")
		return w
	}},
	{"unevaluatedProperties", false, func(d *Decoder, raw []byte) toolerr.Violation {
		got := violation.Quote(raw)
		w := eager(d, "unevaluatedProperties", "/unevaluatedProperties", "the arguments", got, " has a member that no matching schema declares")
		d.Unevaluated("/unevaluatedProperties", string(raw))
		return w
	}},
}

// objectEnd are the violations checked at the end of an object, the path
// being the object's own (empty at the top level).
var objectEnd = []func(d *Decoder) toolerr.Violation{
	func(d *Decoder) toolerr.Violation {
		msg := eagerSubject(d)
		if msg != "" {
			msg += "."
		}
		w := toolerr.Violation{Keyword: "required", InstancePath: eagerPointer(d), SchemaPath: "/required", Message: msg + "orderId is required"}
		d.Required("/required", "orderId")
		return w
	},
	func(d *Decoder) toolerr.Violation {
		w := eager(d, "minProperties", "/minProperties", "the arguments", "", " must have at least 3 members; received 1")
		d.MinProperties("/minProperties", 3, 1)
		return w
	},
	func(d *Decoder) toolerr.Violation {
		w := eager(d, "dependentRequired", "/dependentRequired/a", "the arguments", "", " must have "+showName("b c")+" because it has a")
		d.DependentRequired("/dependentRequired/a", "a", "b c")
		return w
	},
	func(d *Decoder) toolerr.Violation {
		w := eager(d, "anyOf", "/anyOf", "the arguments", "", " must match at least one schema of anyOf; it matches none")
		d.AnyOf("/anyOf")
		return w
	},
	func(d *Decoder) toolerr.Violation {
		w := eager(d, "maxProperties", "/maxProperties", "the arguments", "", " must have at most 1 member; received 2")
		d.MaxProperties("/maxProperties", 1, 2)
		return w
	},
	func(d *Decoder) toolerr.Violation {
		w := eager(d, "dependentSchemas", "/dependentSchemas/a", "the arguments", "", " has a, so it must match the schema that a requires")
		d.DependentSchema("/dependentSchemas/a", "a")
		return w
	},
}

// lazyWalk reads the value at d with the cases, starting at case *next:
// a member named x… is not declared (Additional), one named s… is
// sensitive, one named k… is an undeclared name (Extra) that is read.
func lazyWalk(d *Decoder, next *int, want *[]toolerr.Violation) {
	switch d.R.Peek() {
	case jsonread.Object:
		mark := d.ObjectNames()
		d.R.ObjectStart()
		for {
			name, ok := d.R.NextMember()
			if !ok {
				break
			}
			d.PushName()
			switch {
			case bytes.HasPrefix(name, []byte("x")):
				// Additional marks the name hidden inside a sensitive
				// value before recording, as Extra does.
				hidden := d.hiddenSegs
				if d.hidden > 0 {
					d.hiddenSegs |= 1 << (d.depth - 1)
				}
				kw, sp, known := "additionalProperties", "/additionalProperties", "a, b"
				if len(name)%2 == 0 {
					kw, sp, known = "unevaluatedProperties", "/unevaluatedProperties", ""
				}
				rule := " is not a known field; the fields are " + known
				if known == "" {
					rule = " is not a known field; this object takes none"
				}
				w := eager(d, kw, sp, "the arguments", "", rule)
				d.hiddenSegs = hidden
				d.Additional(sp, mark, name, known)
				*want = append(*want, w)
			case bytes.HasPrefix(name, []byte("s")):
				d.BeginSensitive()
				lazyWalk(d, next, want)
				d.EndSensitive()
			case bytes.HasPrefix(name, []byte("k")):
				d.Extra(mark, name)
				lazyWalk(d, next, want)
			default:
				lazyWalk(d, next, want)
			}
			d.Pop()
		}
		d.EndObject(mark)
		*want = append(*want, objectEnd[*next%len(objectEnd)](d))
		*next++
	case jsonread.Array:
		d.R.ArrayStart()
		for i := 0; d.R.NextItem(); i++ {
			d.PushIndex(i)
			lazyWalk(d, next, want)
			d.Pop()
		}
	default:
		c := lazyCases[*next%len(lazyCases)]
		*next++
		if c.consumes {
			*want = append(*want, c.call(d, nil))
			return
		}
		var raw []byte
		switch d.R.Peek() {
		case jsonread.String:
			raw = d.R.String() // escaped: the reader's scratch buffer
		case jsonread.Number:
			raw = d.R.Number()
		default:
			start := d.R.Offset()
			d.R.Skip()
			raw = d.R.Capture(start)
		}
		*want = append(*want, c.call(d, raw))
	}
}

// TestLazyMatchesEager: every kind of violation, at every kind of path
// (indexes, names to escape or quote, names cut at maxName, paths cut at
// eagerMaxPathText, undeclared names hidden inside sensitive values, the top
// level), rendered when the error is read, is exactly what the eager code
// wrote when it was found; so are the error's text and JSON. The input is
// overwritten before the error is read: nothing renders from it.
func TestLazyMatchesEager(t *testing.T) {
	long := strings.Repeat("n", 200)
	longEsc := strings.Repeat(`\u00e9`, 150)
	deep := strings.Repeat(`{"`+strings.Repeat("d", 90)+`":`, 14) + `"leaf"` + strings.Repeat("}", 14)
	deepNames := strings.Repeat(`{"`+long+`":`, 12) + `[1]` + strings.Repeat("}", 12)
	docs := []string{
		`{"a":1,"b":"two words","c":[1,"x",null,true,{"d":"é\u200b"}],"o":{"p":{"q":-1.5e3}},"x1":1,"xx":2}`,
		`{"a/b~c":{"\"q\"":"GBP"},"":[[12345678901234567890]],"orderId\u200b":false,"línea":"é","big":"` + strings.Repeat("y", 100) + `"}`,
		`{"s1":{"k1":"secret","k2":{"n":3,"kk":[1,{"x9":1}]},"x8":"v"},"s2":[{"k3":"v3"}],"s3":"plain"}`,
		`{"` + long + `":{"` + longEsc + `":1,"k` + long + `":"\ud83d\ude00 é"}}`,
		`{"s":{"k` + long + `":{"` + long + `":[true]}}}`,
		deep, deepNames,
		`{}`, `{"a":{}}`,
	}
	for rot := range len(lazyCases) {
		for _, doc := range docs {
			data := []byte(doc)
			var d Decoder
			d.Reset("tool", data)
			if !d.Object() {
				t.Fatalf("%s: not an object: %v", doc, d.Finish())
			}
			next := rot
			var want []toolerr.Violation
			lazyWalk(&d, &next, &want)
			err := d.Finish()
			for i := range data {
				data[i] = '#'
			}
			if len(want) > toolerr.MaxViolations {
				t.Fatalf("%s: %d violations, more than the cap: shorten the document", doc, len(want))
			}
			e, ok := toolErr(err)
			if !ok {
				t.Fatalf("%s: %v", doc, err)
			}
			got := e.Violations()
			if len(got) != len(want) {
				t.Fatalf("%s (rotation %d): %d violations, want %d", doc, rot, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s (rotation %d), violation %d:\n got  %+v\n want %+v", doc, rot, i, got[i], want[i])
				}
			}
			ref := (&toolerr.Error{Code: toolerr.InvalidArguments, Tool: "tool"}).SetViolations(want)
			gotJSON, _ := json.Marshal(e)
			wantJSON, _ := json.Marshal(ref)
			if !bytes.Equal(gotJSON, wantJSON) || e.Error() != ref.Error() {
				t.Errorf("%s: JSON or text differ:\n got  %s\n want %s", doc, gotJSON, wantJSON)
			}
		}
	}
}
