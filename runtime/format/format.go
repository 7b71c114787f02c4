// Package format implements the JSON Schema "format" assertions that
// toolgate's generated decoders enforce on string values.
//
// Each checker is a plain func(string) bool: hand-written, single pass, no
// regular expressions, no allocation, ASCII only (a byte outside ASCII is
// never valid in any of these formats). A checker sees only strings: JSON
// Schema applies "format" to strings and ignores every other type, and the
// generated code follows that rule before it calls a checker. Generated code
// calls the functions directly (format.DateTime(s)); Lookup, Names and
// Description serve the generator and error messages.
//
// The exact rule of each format:
//
//   - "date" (Date): RFC 3339 §5.6 full-date, YYYY-MM-DD, exactly four year
//     digits, month 01-12, day 01 to the length of that month in the
//     proleptic Gregorian calendar (February 29 only in leap years: divisible
//     by 4 and not by 100, or by 400).
//   - "time" (Time): RFC 3339 §5.6 full-time, hh:mm:ss[.frac] followed by a
//     time-offset that is required: "Z", "z" or ±hh:mm. Hour 00-23, minute
//     00-59, second 00-60, offset hour 00-23 and minute 00-59, at least one
//     digit after a '.', any number of them. Second 60 (a leap second) is
//     valid only when the time converted to UTC by its offset is 23:59, as
//     the JSON Schema Test Suite expects; "-00:00" (RFC 3339 §4.3, unknown
//     local offset) is accepted. Hour 24 is never valid.
//   - "date-time" (DateTime): RFC 3339 §5.6 date-time, full-date, "T" or "t"
//     (the §5.6 note allows lower case; a space is not accepted), full-time
//     with the rules above.
//   - "duration" (Duration): the ISO 8601 duration grammar of RFC 3339
//     Appendix A. "P" then either nW alone, or date elements nY nM nD that
//     are a contiguous run in that order (P1Y2M, P2M3D; not P1Y3D), optionally
//     followed by "T" and time elements nH nM nS, likewise contiguous (PT1H2M,
//     PT2M3S; not PT1H3S). At least one element overall, at least one after
//     "T", each element 1*DIGIT (leading zeros and any number of digits are
//     fine; no fraction, sign or exponent). The designators are upper case
//     only, as ISO 8601 writes them.
//   - "email" (Email): RFC 5321 §4.1.2 Mailbox, Local-part "@" Domain. The
//     local part is a Dot-string (atoms of RFC 5322 atext joined by single
//     dots: no leading, trailing or consecutive dot) or a Quoted-string
//     (printable ASCII and space, '"' and '\' only as a quoted-pair; the
//     empty "" is grammatical and accepted), at most 64 octets (§4.5.3.1.1).
//     The domain is a hostname as below but without a trailing dot, or an
//     address literal: "[" IPv4 "]" or "[IPv6:" IPv6 "]" with the rules of
//     IPv4 and IPv6 below (the "IPv6:" tag is case-insensitive, as ABNF
//     strings are; General-address-literal is not accepted). The whole
//     address is at most 254 octets. Display names, comments, folding white
//     space and lists of addresses are not mailboxes.
//   - "hostname" (Hostname): RFC 1123 §2.1 host name: dot-separated labels of
//     1-63 characters from [A-Za-z0-9-], not starting or ending with '-'
//     (a leading digit is fine), at most 253 characters in all. One trailing
//     dot (the fully qualified form, RFC 1034 §3.1) is accepted and not
//     counted; "." alone and empty labels are not. Labels with the "xn--"
//     prefix are checked as LDH labels only: the Punycode is not decoded and
//     IDNA 2008 rules (RFC 5891) are not applied.
//   - "ipv4" (IPv4): the dotted-quad of RFC 2673 §3.2 restricted as RFC 3986
//     dec-octet: four decimal numbers 0-255 joined by '.', no leading zeros
//     (so "010.0.0.1" is rejected rather than read as octal), no sign, space,
//     prefix length or port.
//   - "ipv6" (IPv6): RFC 4291 §2.2 text forms: eight groups of 1-4 hex
//     digits (any case) joined by ':'; or fewer with exactly one "::" standing
//     for at least one zero group; the last 32 bits may be written as an
//     IPv4 address (rules above). No zone id ("%eth0"), prefix length, brackets
//     or surrounding space.
//   - "uri" (URI): RFC 3986 §3 URI, which requires a scheme:
//     scheme ":" hier-part ["?" query] ["#" fragment]. The scheme is
//     ALPHA *(ALPHA / DIGIT / "+" / "-" / "."); each component may contain only
//     the characters its ABNF allows, and every '%' starts a percent-encoding
//     with two hex digits. An authority is [userinfo "@"] host [":" *DIGIT];
//     host is an IP-literal in brackets (IPv6 as above, or IPvFuture
//     "v" 1*HEXDIG "." ...) or a reg-name (so "999.999.999.999" is a valid
//     reg-name). The authority, port and path may be empty. Non-ASCII text
//     must be percent-encoded (that is "iri", not supported here).
//   - "uuid" (UUID): RFC 9562 §4 string form, 8-4-4-4-12 hex digits in any
//     case joined by '-'. Any version and variant is accepted, the nil and
//     max UUIDs included; no braces or "urn:uuid:" prefix.
//
// These rules pass every test of the JSON Schema Test Suite files for these
// formats (optional/format in draft 2020-12 and draft 7) that toolgate
// keeps in ../shared/corpora/jsts; suite_test.go runs them.
package format

// entry is one supported format: its JSON Schema name, its checker and the
// phrase that error messages use for it.
type entry struct {
	name  string
	check func(string) bool
	desc  string
}

// formats is sorted by name; TestTable keeps it that way.
var formats = [...]entry{
	{"date", Date, "date (RFC 3339 full-date, YYYY-MM-DD)"},
	{"date-time", DateTime, "date-time (RFC 3339, e.g. 2006-01-02T15:04:05Z)"},
	{"duration", Duration, "duration (ISO 8601, e.g. P3DT4H30M)"},
	{"email", Email, "email address"},
	{"hostname", Hostname, "hostname (RFC 1123)"},
	{"ipv4", IPv4, "IPv4 address (dotted quad)"},
	{"ipv6", IPv6, "IPv6 address"},
	{"time", Time, "time (RFC 3339 full-time with offset, e.g. 15:04:05Z)"},
	{"uri", URI, "absolute URI (RFC 3986)"},
	{"uuid", UUID, "UUID"},
}

// Lookup returns the checker for the JSON Schema format name, and false if
// the format is not supported. Names are matched exactly.
func Lookup(name string) (func(string) bool, bool) {
	for i := range formats {
		if formats[i].name == name {
			return formats[i].check, true
		}
	}
	return nil, false
}

// Names returns the supported format names in sorted order. The slice is new
// on every call.
func Names() []string {
	names := make([]string, len(formats))
	for i := range formats {
		names[i] = formats[i].name
	}
	return names
}

// Description returns a short phrase naming the format for error messages,
// e.g. "date (RFC 3339 full-date, YYYY-MM-DD)" or "UUID", and "" if the
// format is not supported.
func Description(name string) string {
	for i := range formats {
		if formats[i].name == name {
			return formats[i].desc
		}
	}
	return ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
