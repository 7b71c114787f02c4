package tgimpl

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// patterns mixes the shapes the sequence matcher takes with ones it leaves
// to regexp.
var patterns = []struct {
	expr string
	fast bool
}{
	{`^[A-Z][A-Z0-9-]{2,31}$`, true},
	{`^[A-Z0-9]{4,12}$`, true},
	{`^[A-Z]{2}$`, true},
	{`^[A-Z0-9][A-Z0-9 -]{1,9}$`, true},
	{`[0-9]`, true},
	{`^a*$`, true},
	{`a+b?c`, true},
	{`^\d{3}-\d{4}$`, true},
	{`^.{2,3}$`, true},
	{`é+`, true},
	{`^[^\s]+$`, true},
	{`x$`, true},
	{`^$`, true},
	{``, true},
	{`^[a-c]*[b-d]*c$`, true},
	{`(?i)^abc$`, false},
	{`^(ab)+$`, false},
	{`^a|b$`, false},
	{`\bword\b`, false},
}

func TestPatternMatchesLikeRegexp(t *testing.T) {
	alphabet := []rune("aAbBcCdxyz019- é\n\t😀")
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := []string{"", "A-19", "AB", "a", "abc", "ABC", "b", "c", strings.Repeat("A", 200), "A" + strings.Repeat("1", 130)}
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		inputs = append(inputs, b.String())
	}
	for _, p := range patterns {
		m := MustPattern(p.expr)
		if _, fast := m.(*sequence); fast != p.fast {
			t.Errorf("%q: sequence matcher %v, want %v", p.expr, fast, p.fast)
		}
		re := regexp.MustCompile(p.expr)
		for _, in := range inputs {
			if got, want := m.Match([]byte(in)), re.Match([]byte(in)); got != want {
				t.Errorf("%q on %q: %v, regexp says %v", p.expr, in, got, want)
			}
		}
	}
}

func FuzzPattern(f *testing.F) {
	f.Add(`^[A-Z][A-Z0-9-]{2,31}$`, "A-19")
	f.Add(`a+b?c`, "xaac")
	f.Add(`^.{2,3}$`, "é😀")
	f.Fuzz(func(t *testing.T, expr, in string) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		if got, want := MustPattern(expr).Match([]byte(in)), re.Match([]byte(in)); got != want {
			t.Errorf("%q on %q: %v, regexp says %v", expr, in, got, want)
		}
	})
}

func BenchmarkPattern(b *testing.B) {
	in := []byte("A-19")
	b.Run("sequence", func(b *testing.B) {
		m := MustPattern(`^[A-Z][A-Z0-9-]{2,31}$`)
		for b.Loop() {
			m.Match(in)
		}
	})
	b.Run("regexp", func(b *testing.B) {
		m := regexp.MustCompile(`^[A-Z][A-Z0-9-]{2,31}$`)
		for b.Loop() {
			m.Match(in)
		}
	})
}
