package format

import "strings"

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
