package composebench

import "testing"

// BenchmarkDecode compares the decoder of a oneOf of three object branches
// told apart by a constant member (PetOneof) with the decoder of a plain
// object of the same size (PetPlain): the ratio Oneof/Plain is what the
// composition costs. The oneOf member is a tagged union (gen/tagged.go):
// its tag is looked up ahead (runtime/tgimpl.Tag, a byte compare when the
// tag comes first), then the value is decoded once, by the main decoder,
// as the branch the tag names, closed, straight into the union's Go value.
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
