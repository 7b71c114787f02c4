package decode

import "github.com/toolgate/toolgate/runtime/opt"

// The calls a generated decode method makes to read a scalar member into
// its field with one line: a required member into a plain field, an
// optional one into an opt.Optional, which a null that means absent (see
// AbsentNull) leaves unset. The field is set when the value has the right
// type, also when it breaks a rule of r: the call is then refused and its
// result dropped.

// RequiredString reads a string checked by r into *p.
func RequiredString(d *Decoder, p *string, r *Scalar) {
	if x, ok := d.ReadString(r); ok {
		*p = x
	}
}

// RequiredEnum reads a string of r's enum into *p.
func RequiredEnum[T ~string](d *Decoder, p *T, r *Scalar) {
	if x, ok := d.ReadEnum(r); ok {
		*p = T(x)
	}
}

// RequiredInt reads an integer checked by r into *p.
func RequiredInt(d *Decoder, p *int64, r *Scalar) {
	if x, ok := d.ReadInt(r); ok {
		*p = x
	}
}

// RequiredNumber reads a number checked by r into *p.
func RequiredNumber(d *Decoder, p *float64, r *Scalar) {
	if x, ok := d.ReadNumber(r); ok {
		*p = x
	}
}

// RequiredBool reads a boolean into *p; sp is the type keyword's pointer.
func RequiredBool(d *Decoder, p *bool, sp string) {
	if x, ok := d.ReadBool(sp); ok {
		*p = x
	}
}

// OptionalString is RequiredString for an optional member.
func OptionalString(d *Decoder, p *opt.Optional[string], r *Scalar) {
	if d.AbsentNull() {
		return
	}
	if x, ok := d.ReadString(r); ok {
		*p = opt.Some(x)
	}
}

// OptionalEnum is RequiredEnum for an optional member.
func OptionalEnum[T ~string](d *Decoder, p *opt.Optional[T], r *Scalar) {
	if d.AbsentNull() {
		return
	}
	if x, ok := d.ReadEnum(r); ok {
		*p = opt.Some(T(x))
	}
}

// OptionalInt is RequiredInt for an optional member.
func OptionalInt(d *Decoder, p *opt.Optional[int64], r *Scalar) {
	if d.AbsentNull() {
		return
	}
	if x, ok := d.ReadInt(r); ok {
		*p = opt.Some(x)
	}
}

// OptionalNumber is RequiredNumber for an optional member.
func OptionalNumber(d *Decoder, p *opt.Optional[float64], r *Scalar) {
	if d.AbsentNull() {
		return
	}
	if x, ok := d.ReadNumber(r); ok {
		*p = opt.Some(x)
	}
}

// OptionalBool is RequiredBool for an optional member.
func OptionalBool(d *Decoder, p *opt.Optional[bool], sp string) {
	if d.AbsentNull() {
		return
	}
	if x, ok := d.ReadBool(sp); ok {
		*p = opt.Some(x)
	}
}
