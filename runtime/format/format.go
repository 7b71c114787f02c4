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

import "strings"

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

// num2 parses the two decimal digits at s[i:i+2]; the caller ensures they
// are in range.
func num2(s string, i int) (int, bool) {
	a, b := s[i], s[i+1]
	if !isDigit(a) || !isDigit(b) {
		return 0, false
	}
	return int(a-'0')*10 + int(b-'0'), true
}

// Date reports whether s is an RFC 3339 full-date (YYYY-MM-DD) naming a
// real day of the Gregorian calendar.
func Date(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	hi, ok1 := num2(s, 0)
	lo, ok2 := num2(s, 2)
	month, ok3 := num2(s, 5)
	day, ok4 := num2(s, 8)
	if !ok1 || !ok2 || !ok3 || !ok4 || month < 1 || month > 12 || day < 1 {
		return false
	}
	return day <= daysIn(hi*100+lo, month)
}

// daysIn returns the number of days of month (1-12) in year.
func daysIn(year, month int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// Time reports whether s is an RFC 3339 full-time: hh:mm:ss, optional
// fraction, and a required offset ("Z", "z" or ±hh:mm). A leap second (60)
// is valid only at 23:59 UTC after the offset is applied.
func Time(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := num2(s, 0)
	m, ok2 := num2(s, 3)
	sec, ok3 := num2(s, 6)
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	i := 8
	if s[i] == '.' {
		i++
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start || i == len(s) {
			return false
		}
	}
	offset := 0 // minutes east of UTC
	switch s[i] {
	case 'Z', 'z':
		if i+1 != len(s) {
			return false
		}
	case '+', '-':
		if len(s)-i != 6 || s[i+3] != ':' {
			return false
		}
		oh, ok1 := num2(s, i+1)
		om, ok2 := num2(s, i+4)
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return false
		}
		offset = oh*60 + om
		if s[i] == '-' {
			offset = -offset
		}
	default:
		return false
	}
	if sec == 60 {
		const day, lastMinute = 24 * 60, 23*60 + 59
		utc := ((h*60+m-offset)%day + day) % day
		return utc == lastMinute
	}
	return true
}

// DateTime reports whether s is an RFC 3339 date-time: a full-date, "T" or
// "t", and a full-time as accepted by Time.
func DateTime(s string) bool {
	return len(s) > 11 && (s[10] == 'T' || s[10] == 't') && Date(s[:10]) && Time(s[11:])
}

// Duration reports whether s is an ISO 8601 duration as given by the ABNF
// of RFC 3339 Appendix A, e.g. "P1Y2M3DT4H5M6S", "PT36H" or "P2W".
func Duration(s string) bool {
	if len(s) == 0 || s[0] != 'P' {
		return false
	}
	i, last := 1, -1
	for i < len(s) && s[i] != 'T' {
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i || j == len(s) {
			return false
		}
		if s[j] == 'W' {
			return i == 1 && j+1 == len(s)
		}
		k := strings.IndexByte("YMD", s[j])
		if k < 0 || last >= 0 && k != last+1 {
			return false
		}
		i, last = j+1, k
	}
	if i == len(s) {
		return last >= 0
	}
	i, last = i+1, -1 // past 'T'
	for i < len(s) {
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i || j == len(s) {
			return false
		}
		k := strings.IndexByte("HMS", s[j])
		if k < 0 || last >= 0 && k != last+1 {
			return false
		}
		i, last = j+1, k
	}
	return last >= 0
}

// UUID reports whether s is a UUID in the RFC 9562 string form
// xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx of hex digits in any case, of any
// version and variant.
func UUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHex(s[i]) {
				return false
			}
		}
	}
	return true
}

// IPv4 reports whether s is a dotted-quad IPv4 address: four decimal
// numbers 0-255 without leading zeros.
func IPv4(s string) bool {
	i := 0
	for part := 0; part < 4; part++ {
		if part > 0 {
			if i == len(s) || s[i] != '.' {
				return false
			}
			i++
		}
		start, v := i, 0
		for i < len(s) && i-start < 3 && isDigit(s[i]) {
			v = v*10 + int(s[i]-'0')
			i++
		}
		if i == start || v > 255 || i-start > 1 && s[start] == '0' {
			return false
		}
	}
	return i == len(s)
}

// IPv6 reports whether s is an IPv6 address in an RFC 4291 §2.2 text form:
// full, "::"-compressed, or with a trailing dotted-quad IPv4 part. Zone ids
// are not accepted.
func IPv6(s string) bool {
	if len(s) < 2 {
		return false
	}
	groups, ellipsis, i := 0, false, 0
	if s[0] == ':' {
		if s[1] != ':' {
			return false
		}
		ellipsis, i = true, 2
	}
	for i < len(s) {
		start := i
		for i < len(s) && isHex(s[i]) {
			i++
		}
		if i < len(s) && s[i] == '.' {
			// The last 32 bits as an IPv4 address, which must end s.
			if groups > 6 || !IPv4(s[start:]) {
				return false
			}
			groups += 2
			break
		}
		if i == start || i-start > 4 {
			return false
		}
		groups++
		if i == len(s) {
			break
		}
		if s[i] != ':' {
			return false
		}
		i++
		if i == len(s) {
			return false // a single trailing ':'
		}
		if s[i] == ':' {
			if ellipsis {
				return false
			}
			ellipsis = true
			i++
		}
	}
	if ellipsis {
		return groups <= 7
	}
	return groups == 8
}

// Hostname reports whether s is an RFC 1123 host name: dot-separated labels
// of 1-63 letters, digits and hyphens, not starting or ending with a hyphen,
// at most 253 characters, optionally followed by one trailing dot.
func Hostname(s string) bool {
	if n := len(s); n > 0 && s[n-1] == '.' {
		s = s[:n-1]
	}
	return isDomain(s)
}

// isDomain is Hostname without the trailing dot: RFC 1123 labels, and the
// Domain of RFC 5321 §4.1.2 that an email address ends with.
func isDomain(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' {
			if c := s[i]; !isAlpha(c) && !isDigit(c) && c != '-' {
				return false
			}
			continue
		}
		if n := i - start; n == 0 || n > 63 || s[start] == '-' || s[i-1] == '-' {
			return false
		}
		start = i + 1
	}
	return true
}

// Email reports whether s is an RFC 5321 Mailbox: a dot-atom or quoted
// local part, "@", and a host name or an IPv4 or IPv6 address literal.
func Email(s string) bool {
	if len(s) > 254 {
		return false
	}
	at := localPartEnd(s)
	if at <= 0 || at > 64 || at == len(s) || s[at] != '@' {
		return false
	}
	d := s[at+1:]
	if len(d) >= 2 && d[0] == '[' && d[len(d)-1] == ']' {
		lit := d[1 : len(d)-1]
		if len(lit) >= 5 && strings.EqualFold(lit[:5], "IPv6:") {
			return IPv6(lit[5:])
		}
		return IPv4(lit)
	}
	return isDomain(d)
}

// localPartEnd returns the length of the RFC 5321 Local-part at the start
// of s (a Dot-string or a Quoted-string), or -1 if s does not start with one.
func localPartEnd(s string) int {
	if len(s) == 0 {
		return -1
	}
	if s[0] == '"' {
		for i := 1; i < len(s); i++ {
			switch c := s[i]; {
			case c == '"':
				return i + 1
			case c == '\\':
				i++
				if i == len(s) || s[i] < ' ' || s[i] > '~' {
					return -1
				}
			case c < ' ' || c > '~':
				return -1
			}
		}
		return -1
	}
	i := 0
	for {
		start := i
		for i < len(s) && atext[s[i]] {
			i++
		}
		if i == start {
			return -1 // empty atom: leading, trailing or doubled dot
		}
		if i == len(s) || s[i] != '.' {
			return i
		}
		i++
	}
}

// atext marks the bytes that are RFC 5322 atext.
var atext = func() (t [256]bool) {
	for c := 0; c < 128; c++ {
		t[c] = isAlpha(byte(c)) || isDigit(byte(c))
	}
	for _, c := range []byte("!#$%&'*+-/=?^_`{|}~") {
		t[c] = true
	}
	return t
}()

// Character classes of RFC 3986, as bits in uriClass.
const (
	clsUnreserved = 1 << iota // ALPHA DIGIT - . _ ~
	clsSubDelim               // ! $ & ' ( ) * + , ; =
	clsColon                  // :
	clsAt                     // @
	clsSlash                  // /
	clsQuestion               // ?

	clsRegName  = clsUnreserved | clsSubDelim
	clsUserinfo = clsRegName | clsColon
	clsPchar    = clsUserinfo | clsAt
	clsPath     = clsPchar | clsSlash
	clsQuery    = clsPath | clsQuestion // query and fragment
)

// uriClass maps each byte to its RFC 3986 classes; bytes outside ASCII and
// those no component allows map to 0.
var uriClass = func() (t [256]uint8) {
	for c := 0; c < 128; c++ {
		if isAlpha(byte(c)) || isDigit(byte(c)) {
			t[c] = clsUnreserved
		}
	}
	for _, c := range []byte("-._~") {
		t[c] = clsUnreserved
	}
	for _, c := range []byte("!$&'()*+,;=") {
		t[c] = clsSubDelim
	}
	t[':'], t['@'], t['/'], t['?'] = clsColon, clsAt, clsSlash, clsQuestion
	return t
}()

// scanURI returns the index of the first byte of s at or after i that is
// neither in class nor a percent-encoding, and false if it stopped at a '%'
// not followed by two hex digits.
func scanURI(s string, i int, class uint8) (int, bool) {
	for i < len(s) {
		if s[i] == '%' {
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return i, false
			}
			i += 3
			continue
		}
		if uriClass[s[i]]&class == 0 {
			break
		}
		i++
	}
	return i, true
}

// URI reports whether s is an RFC 3986 URI with a scheme:
// scheme ":" hier-part ["?" query] ["#" fragment], every component made of
// the characters its grammar allows and well-formed percent-encodings.
func URI(s string) bool {
	if len(s) == 0 || !isAlpha(s[0]) {
		return false
	}
	i := 1
	for i < len(s) && (isAlpha(s[i]) || isDigit(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.') {
		i++
	}
	if i == len(s) || s[i] != ':' {
		return false
	}
	i++
	if strings.HasPrefix(s[i:], "//") {
		i += 2
		end := i
		for end < len(s) && s[end] != '/' && s[end] != '?' && s[end] != '#' {
			end++
		}
		if !isAuthority(s[i:end]) {
			return false
		}
		i = end
	}
	i, ok := scanURI(s, i, clsPath)
	if ok && i < len(s) && s[i] == '?' {
		i, ok = scanURI(s, i+1, clsQuery)
	}
	if ok && i < len(s) && s[i] == '#' {
		i, ok = scanURI(s, i+1, clsQuery)
	}
	return ok && i == len(s)
}

// isAuthority reports whether a is an RFC 3986 authority:
// [userinfo "@"] host [":" port].
func isAuthority(a string) bool {
	if at := strings.IndexByte(a, '@'); at >= 0 {
		if end, ok := scanURI(a, 0, clsUserinfo); !ok || end != at {
			return false
		}
		a = a[at+1:]
	}
	if len(a) > 0 && a[0] == '[' {
		end := strings.IndexByte(a, ']')
		if end < 0 || !isIPLiteral(a[1:end]) {
			return false
		}
		a = a[end+1:]
	} else {
		end, ok := scanURI(a, 0, clsRegName)
		if !ok {
			return false
		}
		a = a[end:]
	}
	if len(a) == 0 {
		return true
	}
	if a[0] != ':' {
		return false
	}
	for i := 1; i < len(a); i++ {
		if !isDigit(a[i]) {
			return false
		}
	}
	return true
}

// isIPLiteral reports whether s, the text between '[' and ']', is an IPv6
// address or an RFC 3986 IPvFuture: "v" 1*HEXDIG "." 1*(unreserved /
// sub-delims / ":").
func isIPLiteral(s string) bool {
	if len(s) == 0 || s[0] != 'v' && s[0] != 'V' {
		return IPv6(s)
	}
	i := 1
	for i < len(s) && isHex(s[i]) {
		i++
	}
	if i == 1 || i == len(s) || s[i] != '.' || i+1 == len(s) {
		return false
	}
	for i++; i < len(s); i++ {
		if uriClass[s[i]]&clsUserinfo == 0 {
			return false
		}
	}
	return true
}
