package gen

import (
	"fmt"
	"testing"
)

// TestTranslationsBounded: past maxTranslations patterns the cache takes
// no more, and a pattern it does not hold gets the same answer as one it
// does.
func TestTranslationsBounded(t *testing.T) {
	for i := range maxTranslations + 100 {
		if _, err := ecmaToRE2(fmt.Sprintf(`^a\s%d$`, i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := cached.Load(); n > maxTranslations {
		t.Fatalf("the cache holds %d patterns, more than %d", n, maxTranslations)
	}
	for _, pattern := range []string{`^x\sy$`, `(?=a)`, `^\cA$`} {
		want, wantErr := translate(pattern)
		for range 2 {
			got, err := ecmaToRE2(pattern)
			if got != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("ecmaToRE2(%q) = %q, %v; want %q, %v", pattern, got, err, want, wantErr)
			}
		}
	}
}
