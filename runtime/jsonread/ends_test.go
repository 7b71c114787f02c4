package jsonread

import "testing"

// TestRememberJumps: a Reader that remembers notes where each object and
// array it skips ends, in the offsets of the document, and a second Reader
// on a part of the same document jumps over what the first noted (here a
// container's bytes changed after the first read, which a scan would
// reject and a jump does not look at), landing where the value ends.
func TestRememberJumps(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  string
		at   int // where the second Reader's input starts
	}{
		{"object in an object", `{"a":{"b":[1,2,{"c":3}]},"d":4}`, 5},
		{"array in an array", `[[1,[2,[3]]],4]`, 1},
		{"the whole document", `{"a":[{"b":{}}]}`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := []byte(tc.doc)
			var ends Ends
			var first Reader
			first.Reset(doc, DefaultLimits)
			first.Remember(&ends, 0)
			first.Skip()
			if first.Err() != nil {
				t.Fatal(first.Err())
			}
			var whole Reader
			whole.Reset(doc[tc.at:], DefaultLimits)
			whole.Skip()
			end := whole.Offset()
			inner := doc[tc.at : tc.at+end]
			// Break the bytes inside the value: a Reader that scans fails,
			// one that jumps does not see them.
			broken := append([]byte(nil), inner...)
			for i := 1; i < len(broken)-1; i++ {
				broken[i] = '!'
			}
			copy(doc[tc.at:], broken)
			var second Reader
			second.Reset(doc[tc.at:tc.at+end], DefaultLimits)
			second.Remember(&ends, tc.at)
			second.Skip()
			if second.Err() != nil || second.Offset() != end {
				t.Errorf("second read: offset %d, error %v; want a jump to %d", second.Offset(), second.Err(), end)
			}
			var scan Reader
			scan.Reset(doc[tc.at:tc.at+end], DefaultLimits)
			if scan.Skip(); scan.Err() == nil {
				t.Errorf("a Reader that does not remember accepts the broken bytes %s", doc[tc.at:tc.at+end])
			}
		})
	}
}
