package tgimpl

import (
	"github.com/toolgate/toolgate/runtime/internal/decode"
	"github.com/toolgate/toolgate/runtime/opt"
)

// Array is decode.Array.
type Array = decode.Array

// ArrayKeyword is decode.ArrayKeyword.
type ArrayKeyword = decode.ArrayKeyword

// NewArray is decode.NewArray.
func NewArray(ptr string, kws ...ArrayKeyword) *Array { return decode.NewArray(ptr, kws...) }

// MinItems is decode.MinItems.
func MinItems(n int) ArrayKeyword { return decode.MinItems(n) }

// MaxItems is decode.MaxItems.
func MaxItems(n int) ArrayKeyword { return decode.MaxItems(n) }

// ReadStrings is decode.ReadStrings.
func ReadStrings(d *Decoder, a *Array, item *Scalar) (xs []string, ok bool) {
	return decode.ReadStrings(d, a, item)
}

// ReadEnums is decode.ReadEnums.
func ReadEnums[T ~string](d *Decoder, a *Array, item *Scalar) (xs []T, ok bool) {
	return decode.ReadEnums[T](d, a, item)
}

// ReadInts is decode.ReadInts.
func ReadInts(d *Decoder, a *Array, item *Scalar) (xs []int64, ok bool) {
	return decode.ReadInts(d, a, item)
}

// ReadNumbers is decode.ReadNumbers.
func ReadNumbers(d *Decoder, a *Array, item *Scalar) (xs []float64, ok bool) {
	return decode.ReadNumbers(d, a, item)
}

// ReadBools is decode.ReadBools.
func ReadBools(d *Decoder, a *Array, itemType string) (xs []bool, ok bool) {
	return decode.ReadBools(d, a, itemType)
}

// RequiredStrings is decode.RequiredStrings.
func RequiredStrings(d *Decoder, p *[]string, a *Array, item *Scalar) {
	decode.RequiredStrings(d, p, a, item)
}

// RequiredEnums is decode.RequiredEnums.
func RequiredEnums[T ~string](d *Decoder, p *[]T, a *Array, item *Scalar) {
	decode.RequiredEnums[T](d, p, a, item)
}

// RequiredInts is decode.RequiredInts.
func RequiredInts(d *Decoder, p *[]int64, a *Array, item *Scalar) { decode.RequiredInts(d, p, a, item) }

// RequiredNumbers is decode.RequiredNumbers.
func RequiredNumbers(d *Decoder, p *[]float64, a *Array, item *Scalar) {
	decode.RequiredNumbers(d, p, a, item)
}

// RequiredBools is decode.RequiredBools.
func RequiredBools(d *Decoder, p *[]bool, a *Array, itemType string) {
	decode.RequiredBools(d, p, a, itemType)
}

// OptionalStrings is decode.OptionalStrings.
func OptionalStrings(d *Decoder, p *opt.Optional[[]string], a *Array, item *Scalar) {
	decode.OptionalStrings(d, p, a, item)
}

// OptionalEnums is decode.OptionalEnums.
func OptionalEnums[T ~string](d *Decoder, p *opt.Optional[[]T], a *Array, item *Scalar) {
	decode.OptionalEnums[T](d, p, a, item)
}

// OptionalInts is decode.OptionalInts.
func OptionalInts(d *Decoder, p *opt.Optional[[]int64], a *Array, item *Scalar) {
	decode.OptionalInts(d, p, a, item)
}

// OptionalNumbers is decode.OptionalNumbers.
func OptionalNumbers(d *Decoder, p *opt.Optional[[]float64], a *Array, item *Scalar) {
	decode.OptionalNumbers(d, p, a, item)
}

// OptionalBools is decode.OptionalBools.
func OptionalBools(d *Decoder, p *opt.Optional[[]bool], a *Array, itemType string) {
	decode.OptionalBools(d, p, a, itemType)
}
