package benchside

import (
	"errors"
	"strings"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := Median(tc.xs); got != tc.want {
			t.Errorf("Median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

// TestMedianRatio: the ratio is taken round by round, then the median: a
// round slow for both contenders does not move it.
func TestMedianRatio(t *testing.T) {
	a := []float64{2, 20, 3, 4}
	b := []float64{1, 10, 2, 1}
	if got, want := MedianRatio(a, b), 2.0; got != want {
		t.Errorf("MedianRatio = %v, want %v", got, want)
	}
}

func TestCheck(t *testing.T) {
	refuse := Contender{Name: "x", Run: func([]byte) error { return errors.New("no") }}
	accept := Contender{Name: "x", Run: func([]byte) error { return nil }}
	if err := Check([]Case{{Name: "a", Accept: true, Contenders: []Contender{accept}}, {Name: "b", Contenders: []Contender{refuse}}}); err != nil {
		t.Errorf("Check: %v", err)
	}
	err := Check([]Case{{Name: "c", Accept: true, Contenders: []Contender{refuse}}})
	if err == nil || !strings.Contains(err.Error(), "c: x: accepted=false, want true") {
		t.Errorf("Check of a refused payload declared accepted: %v", err)
	}
}

func TestRunAndPrint(t *testing.T) {
	cases := []Case{{Name: "p", Data: []byte("{}"), Accept: true, Contenders: []Contender{
		{Name: "subject", Run: func([]byte) error { return nil }},
		{Name: "ref", Run: func([]byte) error { return nil }},
	}}}
	res := Run(cases, Options{Rounds: 2, Batch: 0})
	if len(res) != 1 || len(res[0].Ratio) != 2 || res[0].Bytes != 2 {
		t.Fatalf("Run = %+v", res)
	}
	var b strings.Builder
	Print(&b, res, cases)
	if !strings.Contains(b.String(), "| payload | bytes | subject ns | allocs | ÷ ref |") || !strings.Contains(b.String(), "| p | 2 |") {
		t.Errorf("Print:\n%s", b.String())
	}
}
