package jsonread

import "testing"

// TestTryReads: TryString and TryNumber read a value of their type as
// String and Number do, leave any other value unread and unreported (at
// its first byte, as Peek leaves it), report a malformed value of their
// type as String and Number do, and return nothing after an error.
func TestTryReads(t *testing.T) {
	tests := []struct {
		name, in string
		number   bool
		want     string
		ok       bool
		offset   int // Offset after the call
		reason   string
	}{
		{name: "string", in: ` "abc" `, want: "abc", ok: true, offset: 6},
		{name: "escaped string", in: `"a\n\u00e9"`, want: "a\né", ok: true, offset: 11},
		{name: "empty string", in: `""`, want: "", ok: true, offset: 2},
		{name: "number for string", in: ` 12`, offset: 1},
		{name: "object for string", in: `{}`, offset: 0},
		{name: "garbage for string", in: `  x`, offset: 2},
		{name: "end for string", in: `  `, offset: 2},
		{name: "bad string", in: `"a\x"`, ok: true, reason: `invalid character 'x' in string escape code`},
		{name: "unterminated string", in: `"abc`, ok: true, reason: "unexpected end of input"},
		{name: "number", in: ` -12.5e3 `, number: true, want: "-12.5e3", ok: true, offset: 8},
		{name: "zero", in: `0`, number: true, want: "0", ok: true, offset: 1},
		{name: "string for number", in: ` "1"`, number: true, offset: 1},
		{name: "null for number", in: `null`, number: true, offset: 0},
		{name: "bad number", in: `-x`, number: true, ok: true, reason: "invalid character 'x' in numeric literal"},
		{name: "leading zero", in: `01`, number: true, ok: true, reason: "leading zero in number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Reader
			r.Reset([]byte(tt.in), Limits{})
			var got []byte
			var ok bool
			if tt.number {
				got, ok = r.TryNumber()
			} else {
				got, ok = r.TryString()
			}
			if string(got) != tt.want || ok != tt.ok {
				t.Errorf("got %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
			if tt.reason != "" {
				if r.Err() == nil || r.Err().Reason != tt.reason || got != nil {
					t.Errorf("error %v and %q, want %q and nil", r.Err(), got, tt.reason)
				}
				return
			}
			if r.Err() != nil {
				t.Fatalf("unexpected error %v", r.Err())
			}
			if r.Offset() != tt.offset {
				t.Errorf("offset %d, want %d", r.Offset(), tt.offset)
			}
		})
	}
}

// TestTryAfterError: after an error neither read consumes or reports
// anything.
func TestTryAfterError(t *testing.T) {
	var r Reader
	r.Reset([]byte(`"a" 1`), Limits{})
	r.Fail(0, ErrStopped, "earlier")
	if s, ok := r.TryString(); s != nil || ok {
		t.Errorf("TryString after an error = %q, %v", s, ok)
	}
	if n, ok := r.TryNumber(); n != nil || ok {
		t.Errorf("TryNumber after an error = %q, %v", n, ok)
	}
	if r.Offset() != 0 || r.Err().Reason != "earlier" {
		t.Errorf("offset %d, error %v", r.Offset(), r.Err())
	}
}
