package decode

import "github.com/toolgate/toolgate/runtime/opt"

// The calls a generated decode method makes to read a member that is an
// array of scalars (see ReadStrings) into its field with one line, as
// RequiredString and OptionalString do for a scalar.

// RequiredStrings reads an array of strings into *p.
func RequiredStrings(d *Decoder, p *[]string, a *Array, item *Scalar) {
	if xs, ok := ReadStrings(d, a, item); ok {
		*p = xs
	}
}

// RequiredEnums reads an array of enum strings into *p.
func RequiredEnums[T ~string](d *Decoder, p *[]T, a *Array, item *Scalar) {
	if xs, ok := ReadEnums[T](d, a, item); ok {
		*p = xs
	}
}

// RequiredInts reads an array of integers into *p.
func RequiredInts(d *Decoder, p *[]int64, a *Array, item *Scalar) {
	if xs, ok := ReadInts(d, a, item); ok {
		*p = xs
	}
}

// RequiredNumbers reads an array of numbers into *p.
func RequiredNumbers(d *Decoder, p *[]float64, a *Array, item *Scalar) {
	if xs, ok := ReadNumbers(d, a, item); ok {
		*p = xs
	}
}

// RequiredBools reads an array of booleans into *p.
func RequiredBools(d *Decoder, p *[]bool, a *Array, itemType string) {
	if xs, ok := ReadBools(d, a, itemType); ok {
		*p = xs
	}
}

// OptionalStrings is RequiredStrings for an optional member.
func OptionalStrings(d *Decoder, p *opt.Optional[[]string], a *Array, item *Scalar) {
	if d.AbsentNull() {
		return
	}
	if xs, ok := ReadStrings(d, a, item); ok {
		*p = opt.Some(xs)
	}
}

// OptionalEnums is RequiredEnums for an optional member.
func OptionalEnums[T ~string](d *Decoder, p *opt.Optional[[]T], a *Array, item *Scalar) {
	if d.AbsentNull() {
		return
	}
	if xs, ok := ReadEnums[T](d, a, item); ok {
		*p = opt.Some(xs)
	}
}

// OptionalInts is RequiredInts for an optional member.
func OptionalInts(d *Decoder, p *opt.Optional[[]int64], a *Array, item *Scalar) {
	if d.AbsentNull() {
		return
	}
	if xs, ok := ReadInts(d, a, item); ok {
		*p = opt.Some(xs)
	}
}

// OptionalNumbers is RequiredNumbers for an optional member.
func OptionalNumbers(d *Decoder, p *opt.Optional[[]float64], a *Array, item *Scalar) {
	if d.AbsentNull() {
		return
	}
	if xs, ok := ReadNumbers(d, a, item); ok {
		*p = opt.Some(xs)
	}
}

// OptionalBools is RequiredBools for an optional member.
func OptionalBools(d *Decoder, p *opt.Optional[[]bool], a *Array, itemType string) {
	if d.AbsentNull() {
		return
	}
	if xs, ok := ReadBools(d, a, itemType); ok {
		*p = opt.Some(xs)
	}
}
