package format

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
