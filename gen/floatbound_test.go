package gen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
)

// TestFloatBreaks: the condition emitted for each bound, and none where
// the float64 cannot break what the text keeps.
func TestFloatBreaks(t *testing.T) {
	tests := []struct {
		bound            string
		exclusive, lower bool
		want             string // "" for no check
	}{
		{"0", false, true, ""},
		{"0", true, true, `x <= 0 && tgjsonnum.Compare(raw, []byte("0")) > 0`},
		{"1", true, false, `x >= 1 && tgjsonnum.Compare(raw, []byte("1")) < 0`},
		{"1", false, false, ""},
		{"0.3", false, true, `x < 0.30000000000000004 && tgjsonnum.Compare(raw, []byte("0.3")) >= 0`},
		{"0.1", false, false, `x > 0.09999999999999999 && tgjsonnum.Compare(raw, []byte("0.1")) <= 0`},
		{"1e-400", true, true, `x <= 0 && tgjsonnum.Compare(raw, []byte("1e-400")) > 0`},
		{"1e400", false, true, ""}, // the text that keeps it is beyond float64
		{"-1e400", true, false, ""},
		{"1e400", false, false, ""},
		{"1e400", true, true, ""},
		{"-1e400", false, true, ""},
	}
	for _, tt := range tests {
		cond := floatBreaks(jen.Id("x"), jen.Id("raw"), tt.bound, tt.exclusive, tt.lower)
		got := ""
		if cond != nil {
			f := jen.NewFile("p")
			f.ImportAlias(pkgJSONNum, "tgjsonnum")
			f.Var().Id("_").Op("=").Add(cond)
			got = strings.TrimSpace(strings.SplitN(fmt.Sprintf("%#v", f), "var _ = ", 2)[1])
		}
		if got != tt.want {
			t.Errorf("floatBreaks(%s, exclusive %v, lower %v) = %q, want %q", tt.bound, tt.exclusive, tt.lower, got, tt.want)
		}
	}
}
