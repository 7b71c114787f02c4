package jsonpos

import "testing"

func TestFind(t *testing.T) {
	src := "{\n  \"name\": \"x\",\n  \"p\": {\"a~b\": [1, {\"é\": true}], \"c/d\": null}\n}\n"
	m, err := Read([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ptr  string
		want string
	}{
		{"", "1:1"},
		{"/name", "2:3"},
		{"/p", "3:3"},
		{"/p/a~0b", "3:9"},
		{"/p/a~0b/0", "3:17"},
		{"/p/a~0b/1", "3:20"},
		{"/p/a~0b/1/é", "3:21"},
		{"/p/c~1d", "3:34"},
		{"/p/c~1d/missing/deeper", "3:34"},
		{"/nothing", "1:1"},
	}
	for _, tt := range tests {
		if got := m.Find(tt.ptr).String(); got != tt.want {
			t.Errorf("Find(%q) = %s, want %s", tt.ptr, got, tt.want)
		}
	}
}

func TestReadRefusesInvalidJSON(t *testing.T) {
	for _, src := range []string{`{"a": 1, "a": 2}`, `{"a": }`, `[1,]`, `{} x`} {
		if _, err := Read([]byte(src)); err == nil {
			t.Errorf("Read(%q) succeeded", src)
		}
	}
}

func TestAt(t *testing.T) {
	src := []byte("{\n  \"é\": 1,\n\t\"b\": }")
	tests := []struct {
		off  int
		want string
	}{
		{0, "1:1"},
		{1, "1:2"},
		{2, "2:1"},
		{10, "2:8"}, // after "é" (two bytes, one column) and ": 1"
		{19, "3:7"},
		{-1, "1:1"},
		{99, "3:8"}, // past the end: the end
	}
	for _, tt := range tests {
		if got := At(src, tt.off).String(); got != tt.want {
			t.Errorf("At(%d) = %s, want %s", tt.off, got, tt.want)
		}
	}
	m, err := Read([]byte("{\n  \"é\": 1,\n\t\"b\": 2}"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := At(src, 14), m.Find("/b"); got.String() != want.String() {
		t.Errorf("At(14) = %s, Find(/b) = %s: the two count alike", got, want)
	}
}
