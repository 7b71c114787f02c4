package composebench

import (
	"bytes"
	"testing"

	"github.com/toolgate/toolgate/runtime/tgimpl"
)

// TestNestedTrialsLinear proves, without timing, that decoding a union
// nested in itself (or a schema that reaches itself through allOf, not,
// if/then, contains and dependentSchemas) is linear: the trials a decode runs (tgimpl's Trials)
// grow by the same count per level of nestedBlocks, where trying every
// branch again at every level doubled them. The call is accepted whole at
// every depth.
func TestNestedTrialsLinear(t *testing.T) {
	type decoded interface{ MarshalJSON() ([]byte, error) }
	for _, tc := range []struct {
		name   string
		tool   string
		decode func(d *tgimpl.Decoder) decoded
	}{
		{"oneOf", BlocksOneofToolName, func(d *tgimpl.Decoder) decoded { var v BlocksOneofArgs; v.decode(d); return v }},
		{"anyOf", BlocksAnyofToolName, func(d *tgimpl.Decoder) decoded { var v BlocksAnyofArgs; v.decode(d); return v }},
		{"allOf, not, if/then, contains, dependentSchemas", BlocksMixedToolName, func(d *tgimpl.Decoder) decoded { var v BlocksMixedArgs; v.decode(d); return v }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trials := func(levels int) int {
				data := nestedBlocks(levels)
				var d tgimpl.Decoder
				d.Reset(tc.tool, data)
				if !d.Object() {
					t.Fatalf("levels %d: not an object", levels)
				}
				v := tc.decode(&d)
				if err := d.Finish(); err != nil {
					t.Fatalf("levels %d: %v", levels, err)
				}
				if out, _ := v.MarshalJSON(); !bytes.Equal(out, data) {
					t.Fatalf("levels %d: re-encoded as %s", levels, out)
				}
				return d.Trials()
			}
			first, second := trials(1), trials(2)
			perLevel := second - first
			if perLevel <= 0 {
				t.Fatalf("%d trials at one level, %d at two", first, second)
			}
			for levels := 3; levels <= 31; levels++ {
				if got, want := trials(levels), first+(levels-1)*perLevel; got != want {
					t.Fatalf("%d levels: %d trials, want %d (%d, then %d per level)", levels, got, want, first, perLevel)
				}
			}
		})
	}
}
