package lint

import (
	"slices"
	"testing"
)

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		"amountInCents":   {"amount", "in", "cents"},
		"amount_in_cents": {"amount", "in", "cents"},
		"HTTPTimeoutMs":   {"http", "timeout", "ms"},
		"get-order.v2":    {"get", "order", "v2"},
		"isAdmin":         {"is", "admin"},
	} {
		if got := words(in); !slices.Equal(got, want) {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSkeletonAndEditDistance(t *testing.T) {
	same := [][2]string{{"get_order", "GetOrder"}, {"get_order", "get.0rder"}, {"modern", "modem"}, {"payment", "pаyment"}, {"list_files", "list_fi1es"}}
	for _, p := range same {
		if skeleton(p[0]) != skeleton(p[1]) {
			t.Errorf("skeleton(%q) != skeleton(%q)", p[0], p[1])
		}
	}
	if skeleton("get_order") == skeleton("get_orders") {
		t.Error("get_order and get_orders share a skeleton")
	}
	for _, tt := range []struct {
		a, b string
		want bool
	}{{"get_order", "get_orders", true}, {"get_order", "get_odrer", false}, {"get_user", "get_uses", true}, {"a", "a", false}, {"ab", "ba", false}, {"abc", "a", false}} {
		if got := editDistance1(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance1(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

func TestMatchFile(t *testing.T) {
	for _, tt := range []struct {
		pattern, file string
		want          bool
	}{
		{"schemas/a.json", "schemas/a.json", true},
		{"schemas/a.json", "./schemas/a.json", true},
		{"schemas/*.json", "/src/app/schemas/a.json", true},
		{"a.json", "/src/app/schemas/a.json", true},
		{"schemas/a.json", "schemas/b.json", false},
		{"other/a.json", "schemas/a.json", false},
	} {
		if got := matchFile(tt.pattern, tt.file); got != tt.want {
			t.Errorf("matchFile(%q, %q) = %v", tt.pattern, tt.file, got)
		}
	}
}
