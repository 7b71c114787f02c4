package decode

import "github.com/toolgate/toolgate/runtime/opt"

// The calls a generated decode method makes to read an array whose items
// are booleans, integers, numbers or strings read with one call each, the
// array's minItems and maxItems included: ReadStrings, ReadEnums, ReadInts,
// ReadNumbers and ReadBools.

// Array is the rules of an array schema read by one of those calls: its
// JSON pointer and bounds.
type Array struct {
	typePtr, minPtr, maxPtr string
	minItems, maxItems      int // -1: none
}

// An ArrayKeyword adds a keyword's rule to an Array.
type ArrayKeyword func(*Array)

// NewArray returns the rules of the array schema at the JSON pointer ptr.
func NewArray(ptr string, kws ...ArrayKeyword) *Array {
	a := &Array{typePtr: ptr + "/type", minPtr: ptr + "/minItems", maxPtr: ptr + "/maxItems", minItems: -1, maxItems: -1}
	for _, kw := range kws {
		kw(a)
	}
	return a
}

// MinItems is the minItems keyword.
func MinItems(n int) ArrayKeyword { return func(a *Array) { a.minItems = n } }

// MaxItems is the maxItems keyword.
func MaxItems(n int) ArrayKeyword { return func(a *Array) { a.maxItems = n } }

// ReadStrings reads an array of strings, each checked by item. ok is false
// when the value is not an array (a type violation, recorded).
func ReadStrings(d *Decoder, a *Array, item *Scalar) (xs []string, ok bool) {
	return readArray(d, a, func() (string, bool) { return d.ReadString(item) })
}

// ReadEnums is ReadStrings for strings of item's enum.
func ReadEnums[T ~string](d *Decoder, a *Array, item *Scalar) (xs []T, ok bool) {
	return readArray(d, a, func() (T, bool) {
		x, ok := d.ReadEnum(item)
		return T(x), ok
	})
}

// ReadInts is ReadStrings for integers.
func ReadInts(d *Decoder, a *Array, item *Scalar) (xs []int64, ok bool) {
	return readArray(d, a, func() (int64, bool) { return d.ReadInt(item) })
}

// ReadNumbers is ReadStrings for numbers.
func ReadNumbers(d *Decoder, a *Array, item *Scalar) (xs []float64, ok bool) {
	return readArray(d, a, func() (float64, bool) { return d.ReadNumber(item) })
}

// ReadBools is ReadStrings for booleans; itemType is the pointer of the
// items' type keyword.
func ReadBools(d *Decoder, a *Array, itemType string) (xs []bool, ok bool) {
	return readArray(d, a, func() (bool, bool) { return d.ReadBool(itemType) })
}

// readArray reads the array that follows with read, one item at a time.
// The items are collected in a buffer on the stack and copied once (Own);
// past maxItems they are still read and checked but no longer kept, since
// the call is refused (Drop).
func readArray[T any](d *Decoder, a *Array, read func() (T, bool)) ([]T, bool) {
	if !d.AtArray(a.typePtr) {
		return nil, false
	}
	var buf [8]T
	items := buf[:0]
	d.R.ArrayStart()
	i := 0
	for d.R.NextItem() {
		d.PushIndex(i)
		if i == a.maxItems {
			d.Drop()
		}
		if x, ok := read(); ok && (a.maxItems < 0 || i < a.maxItems) {
			items = append(items, x)
		}
		d.Pop()
		i++
	}
	if i < a.minItems {
		d.MinItems(a.minPtr, a.minItems, i)
	}
	if a.maxItems >= 0 && i > a.maxItems {
		d.MaxItems(a.maxPtr, a.maxItems, i)
	}
	return Own(items), true
}

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
