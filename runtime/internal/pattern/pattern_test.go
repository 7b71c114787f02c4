package pattern

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// patterns mixes the shapes the table and the sequence matcher take with
// ones they leave to regexp; kind is the matcher MustCompile picks.
var patterns = []struct {
	expr string
	kind string
}{
	{`^[A-Z][A-Z0-9-]{2,31}$`, "dfa"},
	{`^[A-Z0-9]{4,12}$`, "dfa"},
	{`^[A-Z]{2}$`, "dfa"},
	{`^[A-Z0-9][A-Z0-9 -]{1,9}$`, "dfa"},
	{`[0-9]`, "dfa"},
	{`^a*$`, "dfa"},
	{`a+b?c`, "dfa"},
	{`^\d{3}-\d{4}$`, "dfa"},
	{`^.{2,3}$`, "sequence"},
	{`é+`, "sequence"},
	{`^[^\s]+$`, "sequence"},
	{`x$`, "dfa"},
	{`^$`, "dfa"},
	{``, "dfa"},
	{`^[a-c]*[b-d]*c$`, "dfa"},
	{`^[a-z]{0,300}$`, "sequence"}, // too many states
	{`(?i)^abc$`, "regexp"},
	{`^(ab)+$`, "dfa"},
	{`^a|b$`, "dfa"},
	{`(a*)*b`, "dfa"},
	{`^(-?[a-zA-Z]{2})$`, "dfa"},
	{`^((([1-9]|[1-9][0-9]|[1-2][0-9][0-9]|3[0-5][0-9]|36[0-4])d(control)?)|(([1-9]|[1-4][0-9]|5[0-2])w(control)?))$`, "dfa"},
	{`^(a|b)*c(x$|^y)`, "dfa"},
	{`$^|(ab)?$`, "dfa"},
	{`^(a|é)$`, "regexp"},
	{`^(a|.)$`, "regexp"},
	{`^(a|[^b])$`, "regexp"},
	{`(?m)^(a|b)$`, "regexp"},
	{`\bword\b`, "regexp"},
}

// kindOf names the matcher m.
func kindOf(m Matcher) string {
	switch m.(type) {
	case *dfa:
		return "dfa"
	case *sequence:
		return "sequence"
	}
	return "regexp"
}

// fastMatchers returns the matchers other than regexp that expr compiles
// to: its sequence matcher and its table, if it has them.
func fastMatchers(expr string) map[string]Matcher {
	out := map[string]Matcher{}
	seq, ok := compileSequence(expr)
	if !ok {
		if m, ok := compileProgDFA(expr); ok {
			out["dfa"] = m
		}
		return out
	}
	seq.re = regexp.MustCompile(expr)
	out["sequence"] = seq
	if m, ok := compileDFA(seq); ok {
		out["dfa"] = m
	}
	return out
}

// TestProgDFAWorkIsBounded: building the table of a pattern with groups
// stops after its budget of instructions visited, and the pattern keeps
// regexp; a hostile tool file's pattern cannot hold up the start of the
// program whose package declares it.
func TestProgDFAWorkIsBounded(t *testing.T) {
	const expr = `^((([1-9]|[1-9][0-9]|[1-2][0-9][0-9]|3[0-5][0-9]|36[0-4])d(control)?)|(([1-9]|[1-4][0-9]|5[0-2])w(control)?))$`
	if _, ok := progDFAWithin(expr, maxProgSteps); !ok {
		t.Fatalf("%s: no table within %d steps", expr, maxProgSteps)
	}
	if _, ok := progDFAWithin(expr, 100); ok {
		t.Errorf("%s: a table within 100 steps, want none", expr)
	}
	for _, hostile := range []string{`([!-~]{1,50}|[a-z]{1,50}){1,20}Z`, `([a-z]{1,1000})+!`} {
		if _, ok := MustCompile(hostile).(*regexp.Regexp); !ok {
			t.Errorf("%s: %T, want regexp", hostile, MustCompile(hostile))
		}
	}
}

func TestPatternMatchesLikeRegexp(t *testing.T) {
	alphabet := []rune("aAbBcCdxyz019- é\n\t😀")
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := []string{"", "A-19", "AB", "a", "abc", "ABC", "b", "c", strings.Repeat("A", 200), "A" + strings.Repeat("1", 130), "\xff", "a\xffc"}
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		inputs = append(inputs, b.String())
	}
	for _, p := range patterns {
		if got := kindOf(MustCompile(p.expr)); got != p.kind {
			t.Errorf("%q: %s matcher, want %s", p.expr, got, p.kind)
		}
		re := regexp.MustCompile(p.expr)
		for name, m := range fastMatchers(p.expr) {
			for _, in := range slices.Concat(inputs, sequenceInputs(p.expr, 500)) {
				if got, want := m.Match([]byte(in)), re.Match([]byte(in)); got != want {
					t.Errorf("%q on %q: %s says %v, regexp %v", p.expr, in, name, got, want)
				}
			}
		}
	}
}

// TestGreedySplit: which sequences the one-scan greedy matcher takes (the
// others use the position-set matcher), and that both answer as regexp on
// inputs built from the patterns' own characters, where greedy choices
// matter.
func TestGreedySplit(t *testing.T) {
	for _, tc := range []struct {
		expr   string
		greedy bool
	}{
		{`^[A-Z][A-Z0-9-]{2,31}$`, true},           // variable last step, then $
		{`^ORD-[0-9]{6,12}$`, true},                // literals, then digits
		{`^[A-Z]{3}-[0-9]{4,8}$`, true},            // disjoint neighbours
		{`^[A-Z0-9][A-Z0-9 ]{2,8}[A-Z0-9]$`, true}, // overlap before a fixed tail
		{`^[a-c]*[b-d]*c$`, false},                 // two overlapping variable steps
		{`^a*[ab]$`, true},                         // overlap, fixed tail
		{`^a*b?a$`, false},                         // a* overlaps a, b? between them
		{`^a*b?a+$`, false},                        // no fixed tail, a* overlaps a+
		{`^a*b?c$`, true},                          // a* disjoint from b and c
		{`^a*b?a`, false},                          // no $: no backward tail
		{`^[0-9]+x`, true},                         // greedy head, no $
		{`[0-9]+x$`, false},                        // no ^
		{`^$`, true},
		{`^.{2,3}$`, true},
		{`^ab-c[0-9]+xy$`, true},  // literal runs fused around a class
		{`^é-a{2}b$`, true},       // a non-ASCII literal is not fused
		{`^ORD-?[0-9]{2}$`, true}, // an optional literal ends the run
	} {
		seq, ok := compileSequence(tc.expr)
		if !ok {
			t.Fatalf("%q: not a sequence", tc.expr)
		}
		if seq.split != tc.greedy {
			t.Errorf("%q: greedy %v, want %v", tc.expr, seq.split, tc.greedy)
		}
		re := regexp.MustCompile(tc.expr)
		for name, m := range fastMatchers(tc.expr) {
			for _, in := range sequenceInputs(tc.expr, 2000) {
				if got, want := m.Match([]byte(in)), re.MatchString(in); got != want {
					t.Errorf("%q on %q: %s says %v, regexp %v", tc.expr, in, name, got, want)
				}
			}
		}
	}
}

// sequenceInputs returns n strings made of the characters a pattern names
// (and a few others), of lengths around its counts.
func sequenceInputs(expr string, n int) []string {
	alphabet := []rune("aAbcz09- é😀\xff")
	for _, r := range expr {
		if r != '^' && r != '$' && r != '[' && r != ']' && r != '{' && r != '}' {
			alphabet = append(alphabet, r)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(len(expr)), 7))
	out := []string{"", "ORD-00482913", "NW1 6XE", "A-19", "ORD-20250314-0042", "\xff\xfe", "a\xc3"}
	for range n {
		var b strings.Builder
		for range rng.IntN(16) {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		out = append(out, b.String())
	}
	return out
}

// FuzzGreedy builds sequence patterns from the fuzzer's bytes (classes of a
// small alphabet with counts, optional anchors) and checks the sequence
// matcher, the table when the pattern has one, and MustCompile's choice
// against regexp on the fuzzer's string.
func FuzzGreedy(f *testing.F) {
	f.Add([]byte{3, 0x11, 2, 5, 0x22, 0, 0xff}, "ab-1")
	f.Add([]byte{1, 0x07, 1, 1, 0x0f, 2, 8, 0x07, 1, 1}, "AB 1C")
	f.Add([]byte{2, 0x03, 0, 0xff, 0x06, 1, 2}, "xab\xffba")
	f.Add([]byte{0, 0x01, 3, 3, 0x20, 1, 0}, "éaaaé")
	f.Fuzz(func(t *testing.T, spec []byte, in string) {
		expr := specPattern(spec)
		want := regexp.MustCompile(expr).MatchString(in)
		matchers := fastMatchers(expr)
		matchers["MustCompile"] = MustCompile(expr)
		for name, m := range matchers {
			if got := m.Match([]byte(in)); got != want {
				t.Errorf("%q on %q: %s says %v, regexp %v", expr, in, name, got, want)
			}
		}
	})
}

// specPattern turns bytes into a pattern: the first byte's low bits choose
// the anchors, then each triple is a class (a bitmap over "ab-1 é"), a
// minimum and a span (0xff: unbounded).
func specPattern(spec []byte) string {
	chars := []string{"a", "b", `\-`, "1", " ", "é"}
	var b strings.Builder
	if len(spec) == 0 {
		return ""
	}
	anchors := spec[0]
	if anchors&1 != 0 {
		b.WriteByte('^')
	}
	for k := 1; k+2 < len(spec) && k < 3*6; k += 3 {
		b.WriteByte('[')
		any := false
		for i, c := range chars {
			if spec[k]&(1<<i) != 0 {
				b.WriteString(c)
				any = true
			}
		}
		if !any {
			b.WriteByte('a')
		}
		b.WriteByte(']')
		lo := int(spec[k+1] % 4)
		switch span := spec[k+2]; {
		case span == 0xff:
			fmt.Fprintf(&b, "{%d,}", lo)
		default:
			fmt.Fprintf(&b, "{%d,%d}", lo, lo+int(span%4))
		}
	}
	if anchors&2 != 0 {
		b.WriteByte('$')
	}
	return b.String()
}

func FuzzPattern(f *testing.F) {
	f.Add(`^[A-Z][A-Z0-9-]{2,31}$`, "A-19")
	f.Add(`a+b?c`, "xaac")
	f.Add(`^.{2,3}$`, "é😀")
	f.Add(`^((1|7|30)d|(1|4)w)(control)?$`, "30dcontrol")
	f.Add(`(a|b)*c(x$|^y)|$^`, "abcx")
	f.Fuzz(func(t *testing.T, expr, in string) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		if got, want := MustCompile(expr).Match([]byte(in)), re.Match([]byte(in)); got != want {
			t.Errorf("%q on %q: %v, regexp says %v", expr, in, got, want)
		}
	})
}

func BenchmarkPattern(b *testing.B) {
	for _, tc := range []struct{ expr, in string }{
		{`^[A-Z][A-Z0-9-]{2,31}$`, "ORD-20250314-0042"},
		{`^ORD-[0-9]{6,12}$`, "ORD-00482913"},
		{`^[A-Z0-9][A-Z0-9 ]{2,8}[A-Z0-9]$`, "NW1 6XE"},
		{`^[A-Z]{3}-[0-9]{4,8}$`, "MUG-20455"},
		{`^[a-c]*[b-d]*c$`, "abcbcdc"},
	} {
		in := []byte(tc.in)
		for name, m := range fastMatchers(tc.expr) {
			b.Run(tc.expr+"/"+name, func(b *testing.B) {
				for b.Loop() {
					m.Match(in)
				}
			})
		}
		b.Run(tc.expr+"/regexp", func(b *testing.B) {
			m := regexp.MustCompile(tc.expr)
			for b.Loop() {
				m.Match(in)
			}
		})
	}
}

// TestFuseLiterals: the greedy head compares each run of single ASCII
// literals as one text.
func TestFuseLiterals(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{`^ORD-[0-9]{6,12}$`, `"ORD-" [] `},
		{`^[A-Z]{3}-[0-9]{4,8}$`, `[] "-" [] `},
		{`^ab-c[0-9]+xy$`, `"ab-c" [] `}, // "xy" is the backward tail
		{`^é-a{2}b`, `[] "-" [] "b" `},
	} {
		seq, ok := compileSequence(tc.expr)
		if !ok || !seq.split {
			t.Fatalf("%q: not greedy", tc.expr)
		}
		var b strings.Builder
		for _, st := range seq.greedyHead {
			if st.lit != "" {
				fmt.Fprintf(&b, "%q ", st.lit)
			} else {
				b.WriteString("[] ")
			}
		}
		if b.String() != tc.want {
			t.Errorf("%q: head %s, want %s", tc.expr, b.String(), tc.want)
		}
	}
}

// TestMustCompilePanics: an invalid pattern panics, whichever matcher a
// valid one of its shape would get.
func TestMustCompilePanics(t *testing.T) {
	for _, expr := range []string{`^[A-Z`, `a{2,1}`, `(ab`, `x{1001}`, `\p{Nope}`} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("MustCompile(%q) did not panic", expr)
				}
			}()
			MustCompile(expr)
		}()
	}
}
