package tgimpl

import (
	"iter"

	"github.com/toolgate/toolgate/runtime/internal/decode"
	"github.com/toolgate/toolgate/runtime/jsonread"
)

// StringTrial is decode.StringTrial.
func StringTrial(raw []byte, r *Scalar, others bool) bool { return decode.StringTrial(raw, r, others) }

// KindOf is decode.KindOf.
func KindOf(raw []byte) jsonread.Kind { return decode.KindOf(raw) }

// Members is decode.Members.
func Members(raw []byte) iter.Seq2[string, []byte] { return decode.Members(raw) }

// Items is decode.Items.
func Items(raw []byte) iter.Seq2[int, []byte] { return decode.Items(raw) }

// Has is decode.Has.
func Has(raw []byte, name string) bool { return decode.Has(raw, name) }

// NameJSON is decode.NameJSON.
func NameJSON(name string) []byte { return decode.NameJSON(name) }

// FirstTwo is decode.FirstTwo.
func FirstTwo(oks ...bool) (first, second int) { return decode.FirstTwo(oks...) }

// Seen is decode.Seen.
type Seen = decode.Seen

// Candidates is decode.Candidates.
func Candidates(raw []byte, name string, values ...string) uint64 {
	return decode.Candidates(raw, name, values...)
}

// Tag is decode.Tag.
func Tag(ahead []byte, name string, values ...string) int { return decode.Tag(ahead, name, values...) }

// Decoder is decode.Decoder.
type Decoder = decode.Decoder

// Article is decode.Article.
func Article(s string) string { return decode.Article(s) }

// Own is decode.Own.
func Own[T any](items []T) []T { return decode.Own[T](items) }

// Equal is decode.Equal.
func Equal(a, b []byte) bool { return decode.Equal(a, b) }

// RawIn is decode.RawIn.
func RawIn(raw []byte, vals ...string) bool { return decode.RawIn(raw, vals...) }

// DecodeObject is decode.DecodeObject.
func DecodeObject[T any](tool string, data []byte, v *T, dec func(*T, *Decoder)) error {
	return decode.DecodeObject[T](tool, data, v, dec)
}

// DecodeSensitiveObject is decode.DecodeSensitiveObject.
func DecodeSensitiveObject[T any](tool string, data []byte, v *T, dec func(*T, *Decoder)) error {
	return decode.DecodeSensitiveObject[T](tool, data, v, dec)
}

// Unmarshal is decode.Unmarshal.
func Unmarshal[T any](v *T, data []byte, dec func([]byte) (T, error)) error {
	return decode.Unmarshal[T](v, data, dec)
}
