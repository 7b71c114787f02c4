package format

import "strings"

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
