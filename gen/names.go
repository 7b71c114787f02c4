package gen

import (
	"go/token"
	"strings"
	"unicode"
)

// initialisms are written in capitals in Go names, as Go style wants.
var initialisms = map[string]string{
	"id": "ID", "ids": "IDs", "url": "URL", "uri": "URI", "http": "HTTP", "https": "HTTPS",
	"json": "JSON", "api": "API", "uuid": "UUID", "ip": "IP", "sku": "SKU", "html": "HTML",
	"sql": "SQL", "ttl": "TTL", "utc": "UTC", "tls": "TLS", "ssh": "SSH", "cpu": "CPU",
	"eta": "ETA", "mcp": "MCP", "xml": "XML", "css": "CSS", "dns": "DNS", "tcp": "TCP", "udp": "UDP",
}

// goIdent turns a tool or member name into an exported Go identifier:
// split on anything that is not a letter or digit and at lower-to-upper case
// changes, capitalise each part, write initialisms in capitals.
// "refund_order" → "RefundOrder", "orderId" → "OrderID", "Content-Type" →
// "ContentType". A name that starts with a digit gets an "N" in front, one
// that starts with a letter without case an "X"; a name with no letters or
// digits is "Empty".
func goIdent(name string) string {
	var parts []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])):
			flush()
			cur = append(cur, r)
		case unicode.IsUpper(r) && i > 0 && i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsLower(rs[i+1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	var b strings.Builder
	for _, p := range parts {
		if up, ok := initialisms[strings.ToLower(p)]; ok {
			b.WriteString(up)
			continue
		}
		r := []rune(p)
		b.WriteRune(unicode.ToUpper(r[0]))
		b.WriteString(string(r[1:]))
	}
	s := b.String()
	switch {
	case s == "":
		return "Empty"
	case !unicode.IsLetter([]rune(s)[0]):
		return "N" + s
	case !unicode.IsUpper([]rune(s)[0]):
		return "X" + s // a letter without case (名前) cannot export a name
	}
	return s
}

// isGoIdentifier reports whether s is an exported Go identifier.
func isGoIdentifier(s string) bool {
	return token.IsIdentifier(s) && token.IsExported(s)
}

// namespace hands out package-level Go names and reports collisions,
// naming both sources.
type namespace struct {
	owner map[string]string
}

func newNamespace() *namespace { return &namespace{owner: map[string]string{}} }

// claim reserves name for what; it returns the earlier owner on collision.
func (ns *namespace) claim(name, what string) (string, bool) {
	if prev, ok := ns.owner[name]; ok {
		return prev, false
	}
	ns.owner[name] = what
	return "", true
}

// goName is the Go name of the tool: its x-toolgate goName or the name
// derived from its tool name.
func (t *Tool) goName() string {
	if t.Meta.GoName != "" {
		return t.Meta.GoName
	}
	return goIdent(t.Name)
}
