package tgimpl

import "unicode/utf8"

// Replays. A member that patternProperties or propertyNames refuses is
// found by a trial, which reports nothing (see Trial). Its violations are
// then recorded by decoding the member's bytes once more, with a Decoder
// of its own that reports, and adopting what it records at the member's
// own path: the innermost broken rule, where santhosh-tekuri/jsonschema
// reports it too (metadata.x-a must be at least 1, not "metadata has a
// member whose value fails patternProperties"). Only a refused member is
// read again, once.

// ReportPatternProperty records the violations of value, the value of the
// member name, which matches pattern, a pattern of the patternProperties
// at sp, and whose trial failed: report decodes it as that pattern's
// schema does. Should report record nothing, the member is recorded as
// PatternProperty does.
func (d *Decoder) ReportPatternProperty(sp, name, pattern string, value []byte, report func(*Decoder)) {
	if !d.replay(name, value, false, report) {
		d.PatternProperty(sp, name, pattern)
	}
}

// ReportPropertyName records the violations of the member name, which
// the propertyNames at sp refuses: report decodes the name, as a JSON
// string, as propertyNames does. They are recorded at the member's path,
// as santhosh-tekuri/jsonschema reports them, and their messages say that
// the name is what breaks the rule ("member name labels.toolong must be at
// most 3 characters long"). Should report record nothing, the name is
// recorded as PropertyName does.
func (d *Decoder) ReportPropertyName(sp, name string, report func(*Decoder)) {
	if !d.replay(name, NameJSON(name), true, report) {
		d.PropertyName(sp, name)
	}
}

// replay decodes raw with report on a reporting Decoder of its own and
// records its violations in d at the path of member name (the member
// name itself when ofName is set), and reports whether there was one. A
// trial, which records nothing, replays nothing: the caller's violation
// ends it (see begin).
func (d *Decoder) replay(name string, raw []byte, ofName bool, report func(*Decoder)) bool {
	if d.trial {
		return false
	}
	if !d.recording() {
		return true
	}
	var c Decoder
	c.Reset(d.tool, raw)
	c.NullAsAbsent = d.NullAsAbsent
	// A sensitive value stays so: no value shown, no undeclared name.
	c.hidden = d.hidden
	report(&c)
	c.R.Finish()
	if c.R.Err() != nil || c.nRecords() == 0 {
		return false
	}
	var prefix []byte
	if ofName {
		prefix = append(prefix, segOfName)
	}
	prefix = d.appendPath(prefix)
	if d.hidden > 0 {
		prefix = append(prefix, segHidden)
	} else {
		prefix = appendNameSegment(prefix, name)
	}
	text := c.arenaText()
	records := c.inline[:c.nInline]
	if c.many != nil {
		records = c.many
	}
	for i := range records {
		r := &records[i]
		if !d.recording() {
			break
		}
		at := d.textLen()
		b := append(d.tail(), prefix...)
		b = append(b, r.path(text)...)
		pathLen := d.took(b)
		shown := d.took(append(d.tail(), r.shown(text)...))
		n := d.newRecord()
		*n = *r
		n.at, n.lens = uint32(at), uint32(r.kind()+1)<<(2*lenBits)|uint32(shown)<<lenBits|uint32(pathLen)
	}
	d.truncated = d.truncated || c.truncated
	return true
}

// appendNameSegment appends the path segment of a member name (decoded,
// as appendPath copies one from the input), cut at maxName runes.
func appendNameSegment(b []byte, name string) []byte {
	cut := false
	if utf8.RuneCountInString(name) > maxName {
		i := 0
		for n := 0; n < maxName; n++ {
			_, size := utf8.DecodeRuneInString(name[i:])
			i += size
		}
		name, cut = name[:i], true
	}
	if len(name) < int(segShort) && !cut {
		return append(append(b, segShort|byte(len(name))), name...)
	}
	tag := segName
	if cut {
		tag = segCutName
	}
	return append(append(b, tag, byte(len(name)), byte(len(name)>>8)), name...)
}
