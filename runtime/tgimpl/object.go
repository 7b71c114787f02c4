package tgimpl

// DecodeObject decodes data, the arguments of the named tool or a part of
// them, into *v with decode, a generated decode method, as strictly as the
// tool's decoder: the UnmarshalJSON of a nested type. *v is set only when
// the value is accepted.
func DecodeObject[T any](tool string, data []byte, v *T, decode func(*T, *Decoder)) error {
	return decodeObject(tool, data, v, decode, false)
}

// DecodeSensitiveObject is DecodeObject for a type whose schema is marked
// sensitive, or of a sensitive tool: no message repeats a value it holds
// (see BeginSensitive).
func DecodeSensitiveObject[T any](tool string, data []byte, v *T, decode func(*T, *Decoder)) error {
	return decodeObject(tool, data, v, decode, true)
}

func decodeObject[T any](tool string, data []byte, v *T, decode func(*T, *Decoder), sensitive bool) error {
	var x T
	var d Decoder
	d.Reset(tool, data)
	if sensitive {
		d.BeginSensitive()
	}
	if d.Object() {
		decode(&x, &d)
	}
	if err := d.Finish(); err != nil {
		return err
	}
	*v = x
	return nil
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
