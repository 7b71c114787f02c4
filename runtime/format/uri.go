package format

import "strings"

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
