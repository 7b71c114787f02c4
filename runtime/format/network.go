package format

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
