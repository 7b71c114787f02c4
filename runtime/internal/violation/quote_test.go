package violation

import (
	"runtime"
	"strings"
	"testing"
)

// allocated returns the bytes f allocates, on average over n calls.
func allocated(n int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(n)
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"GBP", "GBP"},
		{"", `""`},
		{"two words", `"two words"`},
		{"orderId\u200b", `"orderId\u200b"`},
		{"a\u00a0b", `"a\u00a0b"`},
		{"rtl\u202eevil", `"rtl\u202eevil"`},
		{"tag\U000E0041", `"tag\udb40\udc41"`},
		{"bad\xffbyte", `"bad\ufffdbyte"`},
		{"línea", `"línea"`},
		{"quote\"back\\slash\n", `"quote\"back\\slash\n"`},
		{strings.Repeat("a", MaxEcho), strings.Repeat("a", MaxEcho)},
		{strings.Repeat("a", MaxEcho+1), strings.Repeat("a", MaxEcho) + "…"},
		{strings.Repeat("é", MaxEcho+1), `"` + strings.Repeat("é", MaxEcho) + `"…`},
		{strings.Repeat(" ", 1<<20), `"` + strings.Repeat(" ", MaxEcho) + `"…`},
	}
	for _, tt := range tests {
		if got := Quote([]byte(tt.in)); got != tt.want {
			t.Errorf("Quote(%.40q) = %.100q, want %.100q", tt.in, got, tt.want)
		}
	}
	if got := Text([]byte(strings.Repeat("9", 1000))); got != strings.Repeat("9", MaxEcho)+"…" {
		t.Errorf("Text of 1000 digits = %q", got)
	}
	if got := Text([]byte("-1.5e-7")); got != "-1.5e-7" {
		t.Errorf("Text = %q", got)
	}
}

// TestQuoteCostsWhatIsShown: quoting a 1 MiB value allocates what the 64
// runes shown take (at most 12 bytes each, escaped), not a copy (let alone
// a rune slice) of the value.
func TestQuoteCostsWhatIsShown(t *testing.T) {
	big := []byte(strings.Repeat("é", 1<<19)) // 1 MiB
	word := []byte(strings.Repeat("a", 1<<20))
	num := []byte(strings.Repeat("9", 1<<20))
	for name, f := range map[string]func(){
		"quoted": func() { Quote(big) },
		"bare":   func() { Quote(word) },
		"number": func() { Text(num) },
	} {
		n := allocated(20, f)
		if n > 4096 {
			t.Errorf("%s: %d bytes allocated per call for a 1 MiB value", name, n)
		}
		t.Logf("%s: %d bytes allocated to quote a 1 MiB value", name, n)
	}
}

// TestAppendName: names are decoded, escapes included, up to the cut.
func TestAppendName(t *testing.T) {
	tests := []struct {
		raw, want string
		max       int
		cut       bool
	}{
		{`"plain"`, "plain", 10, false},
		{`"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t", 20, false},
		{`"\u00e9\u200B"`, "é\u200b", 10, false},
		{`"\ud83d\ude00!"`, "😀!", 10, false},
		{`"\ud83d\ude00!"`, "😀", 1, true},
		{`"abcdef"`, "abc", 3, true},
		{`"abc"`, "abc", 3, false},
		{`""`, "", 3, false},
	}
	for _, tt := range tests {
		b, cut := appendName(nil, []byte(tt.raw), 0, tt.max)
		got := string(b)
		if got != tt.want || cut != tt.cut {
			t.Errorf("appendName(%s, %d) = %q, %v; want %q, %v", tt.raw, tt.max, got, cut, tt.want, tt.cut)
		}
	}
}
