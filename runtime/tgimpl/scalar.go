package tgimpl

import (
	"github.com/toolgate/toolgate/runtime/internal/decode"
	"github.com/toolgate/toolgate/runtime/opt"
)

// RequiredString is decode.RequiredString.
func RequiredString(d *Decoder, p *string, r *Scalar) { decode.RequiredString(d, p, r) }

// RequiredEnum is decode.RequiredEnum.
func RequiredEnum[T ~string](d *Decoder, p *T, r *Scalar) { decode.RequiredEnum[T](d, p, r) }

// RequiredInt is decode.RequiredInt.
func RequiredInt(d *Decoder, p *int64, r *Scalar) { decode.RequiredInt(d, p, r) }

// RequiredNumber is decode.RequiredNumber.
func RequiredNumber(d *Decoder, p *float64, r *Scalar) { decode.RequiredNumber(d, p, r) }

// RequiredBool is decode.RequiredBool.
func RequiredBool(d *Decoder, p *bool, sp string) { decode.RequiredBool(d, p, sp) }

// OptionalString is decode.OptionalString.
func OptionalString(d *Decoder, p *opt.Optional[string], r *Scalar) { decode.OptionalString(d, p, r) }

// OptionalEnum is decode.OptionalEnum.
func OptionalEnum[T ~string](d *Decoder, p *opt.Optional[T], r *Scalar) {
	decode.OptionalEnum[T](d, p, r)
}

// OptionalInt is decode.OptionalInt.
func OptionalInt(d *Decoder, p *opt.Optional[int64], r *Scalar) { decode.OptionalInt(d, p, r) }

// OptionalNumber is decode.OptionalNumber.
func OptionalNumber(d *Decoder, p *opt.Optional[float64], r *Scalar) { decode.OptionalNumber(d, p, r) }

// OptionalBool is decode.OptionalBool.
func OptionalBool(d *Decoder, p *opt.Optional[bool], sp string) { decode.OptionalBool(d, p, sp) }

// Scalar is decode.Scalar.
type Scalar = decode.Scalar

// Keyword is decode.Keyword.
type Keyword = decode.Keyword

// NewInt is decode.NewInt.
func NewInt(ptr string, kws ...Keyword) *Scalar { return decode.NewInt(ptr, kws...) }

// NewNumber is decode.NewNumber.
func NewNumber(ptr string, kws ...Keyword) *Scalar { return decode.NewNumber(ptr, kws...) }

// NewString is decode.NewString.
func NewString(ptr string, kws ...Keyword) *Scalar { return decode.NewString(ptr, kws...) }

// MinLength is decode.MinLength.
func MinLength(n int) Keyword { return decode.MinLength(n) }

// MaxLength is decode.MaxLength.
func MaxLength(n int) Keyword { return decode.MaxLength(n) }

// Pattern is decode.Pattern.
func Pattern(expr string) Keyword { return decode.Pattern(expr) }

// TranslatedPattern is decode.TranslatedPattern.
func TranslatedPattern(expr, goExpr string) Keyword { return decode.TranslatedPattern(expr, goExpr) }

// Format is decode.Format.
func Format(name string) Keyword { return decode.Format(name) }

// Enum is decode.Enum.
func Enum(values ...string) Keyword { return decode.Enum(values...) }

// Minimum is decode.Minimum.
func Minimum(text string) Keyword { return decode.Minimum(text) }

// ExclusiveMinimum is decode.ExclusiveMinimum.
func ExclusiveMinimum(text string) Keyword { return decode.ExclusiveMinimum(text) }

// Maximum is decode.Maximum.
func Maximum(text string) Keyword { return decode.Maximum(text) }

// ExclusiveMaximum is decode.ExclusiveMaximum.
func ExclusiveMaximum(text string) Keyword { return decode.ExclusiveMaximum(text) }

// MultipleOf is decode.MultipleOf.
func MultipleOf(text string) Keyword { return decode.MultipleOf(text) }

// Sensitive is decode.Sensitive.
func Sensitive(s *Scalar) { decode.Sensitive(s) }

// EnumOf is decode.EnumOf.
func EnumOf(kw, phrase string, values ...string) Keyword { return decode.EnumOf(kw, phrase, values...) }

// Const is decode.Const.
func Const(value string) Keyword { return decode.Const(value) }
