package composebench

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkDecode compares the decoder of a oneOf of three object branches
// told apart by a constant member (PetOneof) with the decoder of a plain
// object of the same size (PetPlain): the ratio Oneof/Plain is what the
// composition costs. The oneOf member is a tagged union (gen/tagged.go):
// its tag is looked up ahead (runtime/tgimpl.Tag, a byte compare when the
// tag comes first), then the value is decoded once, by the main decoder,
// as the branch the tag names, closed, straight into the union's Go value.
// Composed (ShipmentChecks) is a composition whose branches are tried, not
// nested: the common path that remembering nested trials must not slow.
func BenchmarkDecode(b *testing.B) {
	plain := []byte(`{"pet":{"kind":"dog","name":"Rex","age":3,"indoor":true}}`)
	oneOf := []byte(`{"pet":{"kind":"dog","name":"Rex","age":3,"leash":true}}`)
	b.Run("Plain", func(b *testing.B) {
		b.SetBytes(int64(len(plain)))
		for b.Loop() {
			if _, err := DecodePetPlainArgs(plain); err != nil {
				b.Fatal(err)
			}
		}
	})
	composed := []byte(`{"destination":{"street":"1 High St","city":"Leeds","access":{"code":"4711","lift":true}},"parcel":{"size":"M","fragile":true,"insurance":"full"}}`)
	b.Run("Composed", func(b *testing.B) {
		b.SetBytes(int64(len(composed)))
		for b.Loop() {
			if _, err := DecodeShipmentChecksArgs(composed); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Oneof", func(b *testing.B) {
		b.SetBytes(int64(len(oneOf)))
		for b.Loop() {
			if _, err := DecodePetOneofArgs(oneOf); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestBenchInputs keeps the benchmark honest: both inputs decode, and each
// decoder refuses the other's branch member.
func TestBenchInputs(t *testing.T) {
	if _, err := DecodePetOneofArgs([]byte(`{"pet":{"kind":"dog","name":"Rex","age":3,"indoor":true}}`)); err == nil {
		t.Error("a dog with the cat's member indoor is accepted")
	}
	if _, err := DecodePetPlainArgs([]byte(`{"pet":{"kind":"dog","name":"Rex","age":3,"leash":true}}`)); err == nil {
		t.Error("the plain pet accepts an unknown member")
	}
}

// nestedBlocks is a valid call of blocks_oneof and blocks_anyof: a chain of
// levels blocks, paragraphs and lists in turn, each the only child of the
// one above (a JSON nesting of 2×levels+1, under the reader's limit of 64
// for levels up to 31).
func nestedBlocks(levels int) []byte {
	var b strings.Builder
	b.WriteString(`{"root":`)
	for i := range levels - 1 {
		if i%2 == 0 {
			b.WriteString(`{"para":"a paragraph","children":[`)
		} else {
			b.WriteString(`{"list":"a list","children":[`)
		}
	}
	b.WriteString(`{"para":"the last block"}`)
	b.WriteString(strings.Repeat("]}", levels-1))
	b.WriteString(`}`)
	return []byte(b.String())
}

// BenchmarkDecodeNested decodes nestedBlocks at each depth with the oneOf
// and the anyOf of two block shapes: with b.SetBytes, ns/byte (the
// inverse of MB/s) stays flat when decoding is linear in the input.
func BenchmarkDecodeNested(b *testing.B) {
	decoders := []struct {
		name   string
		decode func([]byte) error
	}{
		{"oneOf", func(data []byte) error { _, err := DecodeBlocksOneofArgs(data); return err }},
		{"anyOf", func(data []byte) error { _, err := DecodeBlocksAnyofArgs(data); return err }},
	}
	for _, dec := range decoders {
		for _, levels := range []int{1, 2, 4, 8, 16, 24, 31} {
			data := nestedBlocks(levels)
			b.Run(fmt.Sprintf("%s/levels=%d", dec.name, levels), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					if err := dec.decode(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
