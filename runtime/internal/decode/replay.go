package decode

import (
	"github.com/toolgate/toolgate/runtime/internal/violation"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

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
	if c.R.Err() != nil || c.v.Len() == 0 {
		return false
	}
	var prefix []byte
	if ofName {
		prefix = violation.AppendOfName(prefix)
	}
	prefix = d.appendPath(prefix)
	if d.hidden > 0 {
		prefix = violation.AppendHidden(prefix)
	} else {
		prefix = violation.AppendName(prefix, name)
	}
	d.v.Adopt(&c.v, prefix, toolerr.MaxViolations)
	return true
}
