package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/gen"
)

// annotation is one GitHub Actions workflow command that annotates a file:
//
//	::error file=F,line=L,col=C,title=T::message
//
// level is error, warning or notice; a line or column of 0 and an empty
// file or title are left out. Every field is escaped by ghEscape, so that
// no file name, title or message can end the command early or start
// another one, after gen.Printable has escaped what could hide or reorder
// text in a log.
func annotation(level, file string, line, col int, title, msg string) string {
	var props []string
	if file != "" {
		props = append(props, "file="+ghEscape(gen.Printable(file), true))
	}
	if line > 0 {
		props = append(props, "line="+strconv.Itoa(line))
		if col > 0 {
			props = append(props, "col="+strconv.Itoa(col))
		}
	}
	if title != "" {
		props = append(props, "title="+ghEscape(gen.Printable(title), true))
	}
	cmd := "::" + level
	if len(props) > 0 {
		cmd += " " + strings.Join(props, ",")
	}
	return fmt.Sprintf("%s::%s", cmd, ghEscape(gen.Printable(msg), false))
}

// ghEscape escapes s as GitHub's runner unescapes a workflow command's
// message (% CR LF) or, when property is set, a property's value (also :
// and ,).
func ghEscape(s string, property bool) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '%':
			b.WriteString("%25")
		case r == '\r':
			b.WriteString("%0D")
		case r == '\n':
			b.WriteString("%0A")
		case property && r == ':':
			b.WriteString("%3A")
		case property && r == ',':
			b.WriteString("%2C")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
