package format

import (
	"slices"
	"strings"
	"testing"
)

type formatCase struct {
	in   string
	want bool
}

// formatCases are this package's own cases per format, beyond the suite:
// boundaries of every rule in the package comment.
var formatCases = map[string][]formatCase{
	"date": {
		{"2024-02-29", true}, {"2023-02-29", false}, {"2000-02-29", true}, {"1900-02-29", false},
		{"2023-02-28", true}, {"0000-01-01", true}, {"0000-02-29", true}, {"9999-12-31", true},
		{"2024-04-30", true}, {"2024-04-31", false}, {"2024-12-31", true}, {"2024-12-32", false},
		{"2024-13-01", false}, {"2024-00-01", false}, {"2024-01-00", false}, {"2024-1-01", false},
		{"2024/01/01", false}, {"2024-01-01T00:00:00Z", false}, {"", false}, {"2024-01-0a", false},
		{"2024-0１-01", false}, {"２024-01-01", false},
	},
	"time": {
		{"00:00:00Z", true}, {"23:59:59Z", true}, {"23:59:59z", true}, {"24:00:00Z", false},
		{"23:60:00Z", false}, {"23:59:61Z", false}, {"23:59:60Z", true}, {"23:59:60.999Z", true},
		{"23:59:60+00:00", true}, {"23:59:60-00:00", true}, {"00:59:60+01:00", true},
		{"18:29:60-05:30", true}, {"05:29:60+05:30", true}, {"23:59:60+01:00", false},
		{"00:00:60Z", false}, {"12:00:00", false}, {"12:00:00.5", false}, {"12:00:00.Z", false},
		{"12:00:00.123456789012345678901234567890Z", true}, {"12:00:00,5Z", false},
		{"12:00:00+23:59", true}, {"12:00:00+24:00", false}, {"12:00:00+00:60", false},
		{"12:00:00+0000", false}, {"12:00:00+00", false}, {"12:00:00+00:00Z", false},
		{"12:00:00ZZ", false}, {"12:00:00 Z", false}, {"1:00:00Z", false}, {"12:00Z", false},
		{"12:00:00 PST", false}, {"12:00:00Z\n", false}, {"", false}, {"12:0a:00Z", false},
		{"08:30:06+00:20", true}, {"01:29:60+01:30", true}, {"23:29:60+23:30", true},
		{"00:29:60-23:30", true}, {"23:59:60-00:30", false}, {"08:30:06-8:000", false},
		{"08:30:06#00:20", false}, {"2020-11-28T23:55:45Z", false},
	},
	"date-time": {
		{"2024-02-29T12:00:00Z", true}, {"2023-02-29T12:00:00Z", false},
		{"2024-01-01t00:00:00z", true}, {"2024-01-01 00:00:00Z", false},
		{"2024-01-01T24:00:00Z", false}, {"2024-01-01T00:00:00", false},
		{"2016-12-31T23:59:60Z", true}, {"2016-12-31T15:59:60-08:00", true},
		{"2017-01-01T00:59:60+01:00", true}, {"2016-12-31T23:59:60+01:00", false},
		{"2024-01-01T00:00:00.1+05:45", true}, {"2024-01-01T", false}, {"2024-01-01", false},
		{"2024-01-01TT00:00:00Z", false}, {"T00:00:00Z", false}, {"", false},
		{"2024-06-15T10:20:30.000000001-12:00", true},
	},
	"duration": {
		{"P1Y", true}, {"P1M", true}, {"P1D", true}, {"P1W", true}, {"PT1H", true}, {"PT1M", true},
		{"PT1S", true}, {"P1Y2M3DT4H5M6S", true}, {"P1Y2M", true}, {"P2M3D", true},
		{"P1Y3D", false}, {"PT1H2M", true}, {"PT2M3S", true}, {"PT1H3S", false},
		{"P1DT1H", true}, {"P0D", true}, {"PT0S", true}, {"P007D", true}, {"P", false}, {"PT", false},
		{"P1YT", false}, {"", false}, {"1D", false}, {"P1", false}, {"PT1", false},
		{"P1M1Y", false}, {"P1D1D", false}, {"PT1S1M", false}, {"P1H", false}, {"PT1D", false},
		{"P1W1D", false}, {"P1Y1W", false}, {"P1WT1H", false}, {"PW", false}, {"P1.5D", false},
		{"PT0,5S", false}, {"-P1D", false}, {"P-1D", false}, {"p1d", false}, {"P1d", false},
		{"P1DT", false}, {"P1DTT1H", false}, {"PT1HT1M", false}, {"P1D ", false}, {"P1e2D", false},
	},
	"email": {
		{"a@b", true}, {"a@example.com", true}, {"first.last+tag@example.co.uk", true},
		{"!#$%&'*+-/=?^_`{|}~@example.com", true}, {"\"a b\"@example.com", true},
		{"\"a\\\"b\"@example.com", true}, {"\"a\\\\b\"@example.com", true}, {"\"\"@example.com", true},
		{"\"a\"b@example.com", false}, {"\"a@example.com", false}, {"\"a\\\"@example.com", false},
		{"\"a\tb\"@example.com", false}, {"a.@example.com", false}, {".a@example.com", false},
		{"a..b@example.com", false}, {"a@b@example.com", false}, {"a@", false}, {"@a", false},
		{"a", false}, {"", false}, {"a b@example.com", false}, {"a@example.com.", false},
		{"a@-example.com", false}, {"a@example-.com", false}, {"a@exa_mple.com", false},
		{"a@example..com", false}, {"a@[127.0.0.1]", true}, {"a@[256.0.0.1]", false},
		{"a@[127.0.0.01]", false}, {"a@[IPv6:::1]", true}, {"a@[ipv6:2001:db8::1]", true},
		{"a@[IPv6:2001:db8::g]", false}, {"a@[::1]", false}, {"a@[IPv6:1.2.3.4]", false},
		{"a@[127.0.0.1", false}, {"a@127.0.0.1]", false}, {"a@[example.com]", false},
		{"José@example.com", false}, {"a@exämple.com", false}, {"<a@example.com>", false},
		{"A <a@example.com>", false}, {"a@example.com ", false}, {" a@example.com", false},
		{strings.Repeat("a", 64) + "@example.com", true}, {strings.Repeat("a", 65) + "@example.com", false},
		{"a@" + strings.Repeat("b", 63) + ".com", true}, {"a@" + strings.Repeat("b", 64) + ".com", false},
		{"a@" + strings.Repeat(strings.Repeat("b", 63)+".", 3) + strings.Repeat("c", 60), true},
		{"a@" + strings.Repeat(strings.Repeat("b", 63)+".", 3) + strings.Repeat("c", 61), false},
	},
	"uuid": {
		{"123e4567-e89b-12d3-a456-426614174000", true}, {"FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", true},
		{"00000000-0000-0000-0000-000000000000", true}, {"123e4567-e89b-12d3-a456-42661417400", false},
		{"123e4567-e89b-12d3-a456-4266141740000", false}, {"123e4567e89b12d3a456426614174000", false},
		{"{123e4567-e89b-12d3-a456-426614174000}", false}, {"123e4567-e89b-12d3-a456_426614174000", false},
		{"123e4567-e89b-12d3-a456-42661417400g", false}, {"", false},
	},
	"ipv4": {
		{"0.0.0.0", true}, {"255.255.255.255", true}, {"192.168.0.1", true}, {"10.0.0.10", true},
		{"256.0.0.0", false}, {"1.2.3.256", false}, {"01.2.3.4", false}, {"1.2.3.04", false},
		{"1.2.3.00", false}, {"1.2.3", false}, {"1.2.3.4.5", false}, {"1.2.3.4.", false},
		{".1.2.3.4", false}, {"1..2.3", false}, {"1234.1.1.1", false}, {"1.2.3.1000", false},
		{"+1.2.3.4", false}, {"1.2.3.4/24", false}, {"1.2.3.4:80", false}, {" 1.2.3.4", false},
		{"1.2.3.4 ", false}, {"0x7f.0.0.1", false}, {"2130706433", false}, {"1.2.3.४", false}, {"", false},
	},
	"ipv6": {
		{"::", true}, {"::1", true}, {"1::", true}, {"1:2:3:4:5:6:7:8", true}, {"1:2:3:4:5:6:7::", true},
		{"::2:3:4:5:6:7:8", true}, {"1::8", true}, {"FFFF:ffff:FfFf::", true}, {"0000:0:00:000::", true},
		{"1:2:3:4:5:6:7:8:9", false}, {"1:2:3:4:5:6:7", false}, {"1:2:3:4:5:6:7:8::", false},
		{"::1:2:3:4:5:6:7:8", false}, {"1:2:3:4::5:6:7:8", false}, {"1::2::3", false}, {":::", false},
		{"1:::2", false}, {":1::2", false}, {"1::2:", false}, {"1:2", false}, {":", false}, {"", false},
		{"12345::", false}, {"g::", false}, {"::ffff:1.2.3.4", true}, {"::1.2.3.4", true},
		{"1:2:3:4:5:6:1.2.3.4", true}, {"1:2:3:4:5::1.2.3.4", true}, {"1:2:3:4:5:6:7:1.2.3.4", false},
		{"1:2:3:4:5:6::1.2.3.4", false}, {"::1.2.3", false}, {"::1.2.3.4:5", false},
		{"::256.1.1.1", false}, {"::01.1.1.1", false}, {"1.2.3.4", false}, {"::1.2.3.4.5", false},
		{"fe80::1%eth0", false}, {"fe80::/64", false}, {"[::1]", false}, {" ::1", false}, {"::1 ", false},
		{"1:2:3:4:5:6:7:৪", false},
	},
	"hostname": {
		{"a", true}, {"example.com", true}, {"EXAMPLE.com", true}, {"1host", true}, {"123.24-7-ex.com", true},
		{"a-b.c-d", true}, {"a--b", true}, {"xn--4gbwdl.xn--wgbh1c", true}, {"example.com.", true},
		{"example.com..", false}, {".", false}, {"", false}, {".example.com", false}, {"a..b", false},
		{"-a", false}, {"a-", false}, {"a.-b", false}, {"a.b-", false}, {"a_b", false}, {"a b", false},
		{"ex@mple", false}, {"exämple", false}, {"1.2.3.4", true},
		{strings.Repeat("a", 63) + ".com", true}, {strings.Repeat("a", 64) + ".com", false},
		{strings.Repeat("a", 63), true}, {strings.Repeat("a", 64), false},
		// 4 labels of 63 and one of 1: 253 characters, and one more.
		{strings.Repeat(strings.Repeat("a", 63)+".", 3) + strings.Repeat("b", 61), true},
		{strings.Repeat(strings.Repeat("a", 63)+".", 3) + strings.Repeat("b", 61) + ".", true},
		{strings.Repeat(strings.Repeat("a", 63)+".", 3) + strings.Repeat("b", 62), false},
	},
	"uri": {
		{"http://example.com", true}, {"https://example.com/a/b?c=d&e=f#g", true}, {"urn:isbn:0451450523", true},
		{"mailto:a@example.com", true}, {"tel:+1-816-555-1212", true}, {"about:", true}, {"a:", true},
		{"a+b-c.d:x", true}, {"file:///etc/hosts", true}, {"http://[::1]:8080/", true},
		{"http://[2001:db8::7]/c=GB?objectClass?one", true}, {"http://[v1.fe80::a+en1]/", true},
		{"http://[::1", false}, {"http://[::g]/", false}, {"http://[1.2.3.4]/", false}, {"http://[v1.]/", false},
		{"http://[vz.a]/", false}, {"http://::1/", false}, {"http://[::1]x/", false},
		{"http://a/%20%2F%2f", true}, {"http://a/%", false}, {"http://a/%2", false}, {"http://a/%2G", false},
		{"http://a/?%zz", false}, {"http://a/#%", false}, {"http://%41/", true}, {"http://a%4/", false},
		{"http://u%3Ap@a/", true}, {"http://u%@a/", false}, {"http://a:80", true}, {"http://a:", true},
		{"http://a:8a", false}, {"http://a:-1", false}, {"http://u@h@a/", false}, {"http://", true},
		{"http:///a", true}, {"http:a/b", true}, {"http:/a//b", true}, {"http://a/b//c", true},
		{"http://a/?q=/?#f/?", true}, {"http://a/#f#g", false}, {"http://a/[b]", false},
		{"http://a/ b", false}, {"http://a/é", false}, {"http://a/\x00", false}, {"http://a/\\", false},
		{"http://a/{}", false}, {"http://a/|", false}, {"http://a/^", false}, {"http://a/`", false},
		{"http://a/\"", false}, {"http://a/<>", false}, {"//example.com/a", false}, {"/a", false},
		{"a", false}, {"", false}, {":a", false}, {"1a:b", false}, {"a_b:c", false}, {"a,b:c", false},
		{"http:// a", false}, {"http://a b/", false}, {"http://a.com::", false}, {"http://:80", true},
		{"http://!$&'()*+,;=.com", true}, {"http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com", true},
		{"http://999.999.999.999/", true}, {"https://[@example.org/test.txt", false},
	},
}

func TestFormats(t *testing.T) {
	for _, name := range Names() {
		cases, ok := formatCases[name]
		if !ok {
			t.Errorf("no own cases for format %q", name)
			continue
		}
		check, _ := Lookup(name)
		for _, c := range cases {
			if got := check(c.in); got != c.want {
				t.Errorf("%s(%q) = %v, want %v", name, c.in, got, c.want)
			}
		}
	}
	for name := range formatCases {
		if _, ok := Lookup(name); !ok {
			t.Errorf("cases for unsupported format %q", name)
		}
	}
}

// TestLookup checks the table behind Lookup, Names and Description.
func TestLookup(t *testing.T) {
	want := []string{"date", "date-time", "duration", "email", "hostname", "ipv4", "ipv6", "time", "uri", "uuid"}
	names := Names()
	if !slices.Equal(names, want) {
		t.Fatalf("Names() = %q, want %q", names, want)
	}
	names[0] = "changed"
	if Names()[0] != "date" {
		t.Error("Names() shares its slice with the caller")
	}
	for _, name := range want {
		if check, ok := Lookup(name); !ok || check == nil {
			t.Errorf("Lookup(%q) = _, %v", name, ok)
		}
		if Description(name) == "" {
			t.Errorf("Description(%q) is empty", name)
		}
	}
	for _, name := range []string{"", "Date", "date ", "uri-reference", "regex", "iri"} {
		if _, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) succeeded", name)
		}
		if d := Description(name); d != "" {
			t.Errorf("Description(%q) = %q, want empty", name, d)
		}
	}
	if d := Description("date"); d != "date (RFC 3339 full-date, YYYY-MM-DD)" {
		t.Errorf("Description(date) = %q", d)
	}
	// The checker returned must be the exported function of that name.
	for name, s := range allocSamples {
		check, _ := Lookup(name)
		if !check(s) {
			t.Errorf("Lookup(%q) rejects %q", name, s)
		}
	}
}

// allocSamples is a valid input per format, long enough to reach every
// part of its checker.
var allocSamples = map[string]string{
	"date":      "2024-02-29",
	"date-time": "1998-12-31T15:59:60.123-08:00",
	"duration":  "P1Y2M3DT4H5M6S",
	"email":     "\"joe bloggs\"@[IPv6:2001:db8::1]",
	"hostname":  "www.example.com.",
	"ipv4":      "192.168.0.1",
	"ipv6":      "2001:db8::ffff:192.168.0.1",
	"time":      "23:59:60Z",
	"uri":       "https://user:pw@[::1]:8443/a%20b/c?q=1&r=/x?#frag",
	"uuid":      "2eb8aa08-AA98-11ea-B4Aa-73B441D16380",
}

var sink bool

func TestNoAllocs(t *testing.T) {
	for _, name := range Names() {
		s, ok := allocSamples[name]
		if !ok {
			t.Errorf("no allocation sample for %q", name)
			continue
		}
		check, _ := Lookup(name)
		if n := testing.AllocsPerRun(100, func() { sink = check(s) }); n != 0 {
			t.Errorf("%s(%q): %v allocations per run, want 0", name, s, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() { sink = Email("first.last@example.com") }); n != 0 {
		t.Errorf("Email dot-atom: %v allocations per run, want 0", n)
	}
}

func BenchmarkDateTime(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sink = DateTime("2024-06-15T10:20:30.123456+05:30")
	}
}

func BenchmarkEmail(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sink = Email("first.last+tag@mail.example.com")
	}
}
