package decode

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/format"
	"github.com/toolgate/toolgate/runtime/internal/pattern"
	"github.com/toolgate/toolgate/runtime/internal/violation"
	"github.com/toolgate/toolgate/runtime/jsonnum"
)

// A Scalar holds the rules of one integer, number or string schema, enum
// and const included: the generated decoder reads every such value with
// one call (ReadInt, ReadNumber, ReadString, ReadEnum), so that each
// keyword has one check, here. The JSON pointer of each keyword and the
// exact limits of each bound are derived once, when the package variable
// holding the Scalar is made, so a read costs about what checks written
// out per value would, and a violation reports exactly what they would.
type Scalar struct {
	ptr       string // the schema's JSON pointer
	typePtr   string // ptr + "/type"
	want      string // the type as violations name it
	integer   bool
	sensitive bool

	checked              bool // a string has a keyword to check
	minLen, maxLen       int  // -1: none
	minLenPtr, maxLenPtr string
	pattern              pattern.Matcher
	patternText          string
	patternPtr           string
	format               func(string) bool
	formatWhat           string
	formatPtr            string
	enum                 []string       // the values of a string enum, nil for none
	enumIndex            map[string]int // the same, indexed when there are many
	enumPhrase           string         // the values as messages list them
	enumPtr              string
	enumConst            bool     // the enum is a const keyword
	hasEnum              bool     // an integer or number has an enum or const
	intEnum              []int64  // the values of an integer's enum
	numEnum              []string // the values of a number's enum, as JSON text

	bounds      []bound
	lo, hi      int64  // an integer in [lo, hi] keeps every bound with an int64 limit
	exactChecks bool   // an integer has a bound without an int64 limit or a multipleOf
	multiple    string // the multipleOf text, "" for none
	multipleInt int64  // the multipleOf of an integer when it fits int64, else 0
	multiplePtr string
}

// bound is one of minimum, exclusiveMinimum, maximum and exclusiveMaximum.
type bound struct {
	kw, ptr, text    string
	exclusive, lower bool
	// limit: an integer breaks the bound when x < limit (lower) or
	// x > limit, if hasLimit; otherwise the text is compared.
	limit    int64
	hasLimit bool
	// flimit: a float64 x breaks the bound its text keeps when it is past
	// flimit (see FloatLimit), if hasFloat.
	flimit   float64
	hasFloat bool
}

// A Keyword adds one keyword of the schema to a Scalar.
type Keyword func(*Scalar)

// NewInt returns the rules of the integer schema at the JSON pointer ptr.
func NewInt(ptr string, kws ...Keyword) *Scalar {
	return newScalar(ptr, "integer", true, kws)
}

// NewNumber returns the rules of the number schema at ptr.
func NewNumber(ptr string, kws ...Keyword) *Scalar {
	return newScalar(ptr, "number", false, kws)
}

// NewString returns the rules of the string schema at ptr.
func NewString(ptr string, kws ...Keyword) *Scalar {
	return newScalar(ptr, "string", false, kws)
}

func newScalar(ptr, want string, integer bool, kws []Keyword) *Scalar {
	s := &Scalar{ptr: ptr, typePtr: ptr + "/type", want: want, integer: integer, minLen: -1, maxLen: -1, lo: math.MinInt64, hi: math.MaxInt64}
	for _, kw := range kws {
		kw(s)
	}
	s.checked = s.minLen >= 0 || s.maxLen >= 0 || s.pattern != nil || s.format != nil
	s.exactChecks = s.multiple != ""
	for _, b := range s.bounds {
		switch {
		case !b.hasLimit:
			s.exactChecks = true
		case b.lower:
			s.lo = max(s.lo, b.limit)
		default:
			s.hi = min(s.hi, b.limit)
		}
	}
	return s
}

// MinLength is the minLength keyword.
func MinLength(n int) Keyword {
	return func(s *Scalar) { s.minLen, s.minLenPtr = n, s.ptr+"/minLength" }
}

// MaxLength is the maxLength keyword.
func MaxLength(n int) Keyword {
	return func(s *Scalar) { s.maxLen, s.maxLenPtr = n, s.ptr+"/maxLength" }
}

// Pattern is the pattern keyword, compiled once (pattern.MustCompile).
func Pattern(expr string) Keyword { return TranslatedPattern(expr, expr) }

// TranslatedPattern is the pattern keyword for a pattern whose Go syntax,
// goExpr, differs from expr, the pattern as the schema writes it and
// messages show it (ECMA-262 classes such as \d spelled out for Go).
func TranslatedPattern(expr, goExpr string) Keyword {
	m := pattern.MustCompile(goExpr)
	return func(s *Scalar) { s.pattern, s.patternText, s.patternPtr = m, expr, s.ptr+"/pattern" }
}

// Format is the format keyword, for a format that runtime/format checks.
// An unknown name panics: the generator writes only supported ones.
func Format(name string) Keyword {
	check, ok := format.Lookup(name)
	if !ok {
		panic("tgimpl: unsupported format " + name)
	}
	return func(s *Scalar) {
		s.format, s.formatWhat, s.formatPtr = check, format.Description(name), s.ptr+"/format"
	}
}

// Enum is the enum keyword of a string schema whose values are all
// strings (ReadEnum).
func Enum(values ...string) Keyword {
	shown := make([]string, len(values))
	for i, v := range values {
		shown[i] = violation.Show(v)
	}
	phrase := shown[len(shown)-1]
	if len(shown) > 1 {
		phrase = strings.Join(shown[:len(shown)-1], ", ") + " or " + phrase
	}
	return EnumOf("enum", phrase, values...)
}

// Const is the const keyword of a string schema whose value is the string
// value.
func Const(value string) Keyword { return EnumOf("const", violation.Show(value), value) }

// EnumOf is the enum keyword (kw "enum") or the const keyword (kw
// "const") of any integer, number or string schema: phrase is its values
// as messages list them, values those of the schema's type (strings as
// they are, numbers as JSON text, integers in int64's range in decimal).
// A value of another type is listed in phrase but never matched.
func EnumOf(kw, phrase string, values ...string) Keyword {
	return func(s *Scalar) {
		s.enumPtr, s.enumPhrase, s.enumConst = s.ptr+"/"+kw, phrase, kw == "const"
		switch {
		case s.integer:
			s.hasEnum = true
			for _, v := range values {
				x, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					panic("tgimpl: the integer enum value " + v + " is not an int64")
				}
				s.intEnum = append(s.intEnum, x)
			}
		case s.want == "number":
			s.hasEnum, s.numEnum = true, values
		default:
			s.enum = values
			if len(values) > linearEnum {
				s.enumIndex = make(map[string]int, len(values))
				for i, v := range values {
					s.enumIndex[v] = i
				}
			}
		}
	}
}

// enumViolation records a value outside the enum or const of r; got is
// the value as messages show it.
func (d *Decoder) enumViolation(r *Scalar, got string) {
	if r.enumConst {
		d.Const(r.enumPtr, r.enumPhrase, got)
		return
	}
	d.Enum(r.enumPtr, r.enumPhrase, got)
}

// linearEnum is how many enum values are compared one by one; more are
// looked up in a map.
const linearEnum = 8

// Minimum is the minimum keyword, with the bound as the schema writes it.
func Minimum(text string) Keyword { return boundKeyword("minimum", text, false, true) }

// ExclusiveMinimum is the exclusiveMinimum keyword.
func ExclusiveMinimum(text string) Keyword {
	return boundKeyword("exclusiveMinimum", text, true, true)
}

// Maximum is the maximum keyword.
func Maximum(text string) Keyword { return boundKeyword("maximum", text, false, false) }

// ExclusiveMaximum is the exclusiveMaximum keyword.
func ExclusiveMaximum(text string) Keyword {
	return boundKeyword("exclusiveMaximum", text, true, false)
}

func boundKeyword(kw, text string, exclusive, lower bool) Keyword {
	return func(s *Scalar) {
		b := bound{kw: kw, ptr: s.ptr + "/" + kw, text: text, exclusive: exclusive, lower: lower}
		if s.integer {
			b.limit, b.hasLimit = IntLimit(text, exclusive, lower)
		} else {
			b.flimit, b.hasFloat = FloatLimit(text, exclusive, lower)
		}
		s.bounds = append(s.bounds, b)
	}
}

// MultipleOf is the multipleOf keyword, with the divisor as the schema
// writes it.
func MultipleOf(text string) Keyword {
	return func(s *Scalar) {
		s.multiple, s.multiplePtr = text, s.ptr+"/multipleOf"
		if r, ok := new(big.Rat).SetString(text); s.integer && ok && r.IsInt() && r.Num().IsInt64() && r.Sign() > 0 {
			s.multipleInt = r.Num().Int64()
		}
	}
}

// Sensitive marks a schema whose value is sensitive: no message repeats it.
func Sensitive(s *Scalar) { s.sensitive = true }

// ReadString reads a string, checks it against r and returns it as a Go
// string for the result, the way Value does: "" once the call is refused.
// ok is false for a value of another type (a violation, recorded).
func (d *Decoder) ReadString(r *Scalar) (x string, ok bool) {
	s, ok := d.R.TryString()
	if !ok {
		d.TypeMismatch(r.typePtr, r.want)
		return "", false
	}
	if r.checked {
		d.checkString(r, s)
	}
	if d.refused() {
		return "", true
	}
	return d.String(s), true
}

// checkString checks s against the keywords of r but enum.
func (d *Decoder) checkString(r *Scalar, s []byte) {
	if n, counted := r.runes(s); counted {
		if n < r.minLen {
			d.MinLength(r.minLenPtr, r.minLen, n)
		}
		if r.maxLen >= 0 && n > r.maxLen {
			d.MaxLength(r.maxLenPtr, r.maxLen, n)
		}
	}
	if r.pattern != nil && !r.pattern.Match(s) {
		d.Pattern(r.patternPtr, r.patternText, r.quote(d, s))
	}
	if r.format != nil && !r.format(View(s)) {
		d.Format(r.formatPtr, r.formatWhat, r.quote(d, s))
	}
}

// runes returns the length of s in code points when minLength or
// maxLength needs it. A string of b bytes has between b/4 and b code
// points (UTF-8): they are counted only when b alone does not keep both
// bounds (counted is false when it does).
func (r *Scalar) runes(s []byte) (n int, counted bool) {
	if b := len(s); (r.minLen >= 0 && (b+3)/4 < r.minLen) || (r.maxLen >= 0 && b > r.maxLen) {
		return RuneCount(s), true
	}
	return 0, false
}

// holds reports whether s keeps every keyword of r but enum: checkString
// for a trial, which only needs the verdict.
func (r *Scalar) holds(s []byte) bool {
	if n, counted := r.runes(s); counted && (n < r.minLen || r.maxLen >= 0 && n > r.maxLen) {
		return false
	}
	return (r.pattern == nil || r.pattern.Match(s)) && (r.format == nil || r.format(View(s)))
}

// ReadEnum reads a string, checks it against r and returns the enum value
// it equals, one of the strings r was made with: nothing of the input is
// kept. ok is false for a value of another type or outside the enum (a
// violation, recorded).
func (d *Decoder) ReadEnum(r *Scalar) (x string, ok bool) {
	s, ok := d.R.TryString()
	if !ok {
		d.TypeMismatch(r.typePtr, r.want)
		return "", false
	}
	if r.checked {
		d.checkString(r, s)
	}
	if r.enumIndex != nil {
		if i, ok := r.enumIndex[string(s)]; ok {
			return r.enum[i], true
		}
	} else {
		for _, v := range r.enum {
			if string(s) == v {
				return v, true
			}
		}
	}
	d.enumViolation(r, r.quote(d, s))
	return "", false
}

// ReadInt reads an integer and checks it against r. ok is false when the
// value is not an integer that int64 holds, or is outside r's enum (a
// violation, recorded).
func (d *Decoder) ReadInt(r *Scalar) (x int64, ok bool) {
	raw, ok := d.R.TryNumber()
	if !ok {
		d.TypeMismatch(r.typePtr, r.want)
		return 0, false
	}
	x, ok, isInt := jsonnum.Int64(raw)
	switch {
	case !ok && isInt:
		d.hugeInt(r, raw)
		return 0, false
	case !ok:
		d.ParseInt(raw, r.typePtr, r.sensitive) // records the type violation
		return 0, false
	}
	// Within [lo, hi] an integer keeps every bound with an int64 limit;
	// only the others, or multipleOf, need a look.
	if x < r.lo || x > r.hi || r.exactChecks {
		d.checkInt(r, x, raw)
	}
	if r.hasEnum && !slices.Contains(r.intEnum, x) {
		d.enumViolation(r, r.text(d, raw))
		return 0, false
	}
	return x, true
}

// checkInt checks the integer x, of text raw, against the keywords of r.
func (d *Decoder) checkInt(r *Scalar, x int64, raw []byte) {
	for i := range r.bounds {
		b := &r.bounds[i]
		var broken bool
		switch {
		case !b.hasLimit:
			broken = b.breaks(raw)
		case b.lower:
			broken = x < b.limit
		default:
			broken = x > b.limit
		}
		if broken {
			d.bound(r, b, raw)
		}
	}
	if r.multiple != "" {
		var off bool
		if r.multipleInt != 0 {
			off = x%r.multipleInt != 0
		} else {
			off = !jsonnum.IsMultipleOf(raw, []byte(r.multiple))
		}
		if off {
			d.MultipleOf(r.multiplePtr, r.multiple, r.text(d, raw))
		}
	}
}

// hugeInt checks an integer beyond int64 against r's bounds, exactly on
// the text: only one that breaks none leaves the type's range to refuse.
func (d *Decoder) hugeInt(r *Scalar, raw []byte) {
	broken := false
	for i := range r.bounds {
		if b := &r.bounds[i]; b.breaks(raw) {
			d.bound(r, b, raw)
			broken = true
		}
	}
	if !broken {
		d.IntRange(r.typePtr, r.text(d, raw))
	}
}

// ReadNumber reads a number and checks it against r, exactly on its text,
// then converts it to float64: ok is false when the value is not a number,
// is outside r's enum or is beyond float64's range (a violation, recorded). A float64 that
// breaks a bound the text keeps is a violation too (FloatBound).
func (d *Decoder) ReadNumber(r *Scalar) (x float64, ok bool) {
	raw, ok := d.R.TryNumber()
	if !ok {
		d.TypeMismatch(r.typePtr, r.want)
		return 0, false
	}
	for i := range r.bounds {
		if b := &r.bounds[i]; b.breaks(raw) {
			d.bound(r, b, raw)
		}
	}
	if r.multiple != "" && !jsonnum.IsMultipleOf(raw, []byte(r.multiple)) {
		d.MultipleOf(r.multiplePtr, r.multiple, r.text(d, raw))
	}
	inEnum := !r.hasEnum || NumberIn(raw, r.numEnum...)
	if !inEnum {
		d.enumViolation(r, r.text(d, raw))
	}
	if x, ok = d.ParseFloat(raw, r.typePtr, r.sensitive); !ok {
		return 0, false
	}
	for i := range r.bounds {
		b := &r.bounds[i]
		if b.hasFloat && b.floatBreaks(x) && !b.breaks(raw) {
			d.FloatBound(b.kw, b.ptr, b.text, r.text(d, raw), x)
		}
	}
	if !inEnum {
		return 0, false
	}
	return x, true
}

// breaks reports whether the number text raw breaks b, exactly.
func (b *bound) breaks(raw []byte) bool {
	c := jsonnum.Compare(raw, []byte(b.text))
	switch {
	case b.lower && b.exclusive:
		return c <= 0
	case b.lower:
		return c < 0
	case b.exclusive:
		return c >= 0
	}
	return c > 0
}

// floatBreaks reports whether x is past the float64 limit of b.
func (b *bound) floatBreaks(x float64) bool {
	switch {
	case b.lower && b.exclusive:
		return x <= b.flimit
	case b.lower:
		return x < b.flimit
	case b.exclusive:
		return x >= b.flimit
	}
	return x > b.flimit
}

// bound records the violation of b by the number text raw.
func (d *Decoder) bound(r *Scalar, b *bound, raw []byte) {
	got := r.text(d, raw)
	switch b.kw {
	case "minimum":
		d.Minimum(b.ptr, b.text, got)
	case "exclusiveMinimum":
		d.ExclusiveMinimum(b.ptr, b.text, got)
	case "maximum":
		d.Maximum(b.ptr, b.text, got)
	default:
		d.ExclusiveMaximum(b.ptr, b.text, got)
	}
}

// text is the number text as a message shows it, "" when r is sensitive.
func (r *Scalar) text(d *Decoder, raw []byte) string {
	if r.sensitive {
		return ""
	}
	return d.Text(raw)
}

// quote is the string as a message shows it, "" when r is sensitive.
func (r *Scalar) quote(d *Decoder, s []byte) string {
	if r.sensitive {
		return ""
	}
	return d.Quote(s)
}
