package decode

import "sync"

// DecodeObject decodes data, the arguments of the named tool or a part of
// them, into *v with decode, a generated decode method, as strictly as the
// tool's decoder: the UnmarshalJSON of a nested type. On an error *v is
// left as it was; while the call runs it holds the value being decoded.
func DecodeObject[T any](tool string, data []byte, v *T, decode func(*T, *Decoder)) error {
	return decodeObject(tool, data, v, decode, false)
}

// DecodeSensitiveObject is DecodeObject for a type whose schema is marked
// sensitive, or of a sensitive tool: no message repeats a value it holds
// (see BeginSensitive).
func DecodeSensitiveObject[T any](tool string, data []byte, v *T, decode func(*T, *Decoder)) error {
	return decodeObject(tool, data, v, decode, true)
}

// objectDecoders holds the Decoders of nested decodes. decode is called
// through a func value, so a Decoder on decodeObject's stack would escape
// and be allocated per call; a pooled one is allocated once per P. It is
// zeroed before it is put back, so the pool keeps no view of a caller's
// input.
var objectDecoders = sync.Pool{New: func() any { return new(Decoder) }}

// decodeObject decodes into *v itself, which the caller's UnmarshalJSON
// already holds on the heap, and restores the copy kept on its own stack
// when the value is refused: a value decoded elsewhere and copied in would
// be one more allocation per call. It is instantiated for every nested
// type, so what does not need T is in beginObject and endObject.
func decodeObject[T any](tool string, data []byte, v *T, decode func(*T, *Decoder), sensitive bool) error {
	d := beginObject(tool, data, sensitive)
	old := *v
	var zero T
	*v = zero
	if d.Object() {
		decode(v, d)
	}
	err := endObject(d)
	if err != nil {
		*v = old
	}
	return err
}

// beginObject returns a pooled Decoder reset to decode data for the named
// tool, sensitive or not.
func beginObject(tool string, data []byte, sensitive bool) *Decoder {
	d := objectDecoders.Get().(*Decoder)
	d.Reset(tool, data)
	if sensitive {
		d.BeginSensitive()
	}
	return d
}

// endObject returns the outcome of d's decode and puts d back in the pool,
// zeroed. (A Decoder whose decode panicked is not put back.)
func endObject(d *Decoder) error {
	err := d.Finish()
	*d = Decoder{}
	objectDecoders.Put(d)
	return err
}

// Unmarshal sets *v to what decode, a tool's generated Decode function,
// returns for data, and leaves it unchanged on an error: the UnmarshalJSON
// of a tool's arguments.
func Unmarshal[T any](v *T, data []byte, decode func([]byte) (T, error)) error {
	x, err := decode(data)
	if err != nil {
		return err
	}
	*v = x
	return nil
}
