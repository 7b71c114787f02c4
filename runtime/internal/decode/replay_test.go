package decode

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonread"
	"github.com/toolgate/toolgate/runtime/toolerr"
)

// reportMaxLength3 is a report function as the generator writes one: it
// decodes a string that may hold at most 3 characters, or an object whose
// member n must be at least 1.
func reportMaxLength3(d *Decoder) {
	switch d.R.Peek() {
	case jsonread.String:
		if s := d.R.String(); len([]rune(string(s))) > 3 {
			d.MaxLength("/p/maxLength", 3, len([]rune(string(s))))
		}
	case jsonread.Object:
		d.R.ObjectStart()
		for {
			name, ok := d.R.NextMember()
			if !ok {
				break
			}
			d.PushName()
			if string(name) == "n" {
				raw := d.R.Number()
				if string(raw) == "0" {
					d.Minimum("/p/properties/n/minimum", "1", d.Text(raw))
				}
			} else {
				d.R.Skip()
			}
			d.Pop()
		}
	default:
		d.TypeMismatch("/p/type", "string")
	}
}

// reportNothing records no violation (a report that disagrees with its
// trial).
func reportNothing(d *Decoder) { d.R.Skip() }

// TestReportAtMemberPath: the violations a replay records are the
// innermost rule's, at the member's own path below the object's; a
// member name's (propertyNames) say so in the message; a sensitive object
// shows neither the name nor the value; a report that records nothing
// leaves the coarse violation of the keyword.
func TestReportAtMemberPath(t *testing.T) {
	long := strings.Repeat("é", eagerMaxName+5)
	tests := []struct {
		name       string
		sensitive  bool
		report     func(d *Decoder)
		want       []toolerr.Violation
		notShowing string
	}{
		{
			name: "a member's value",
			report: func(d *Decoder) {
				d.ReportPatternProperty("/patternProperties/^x-", "x-a", "^x-", []byte(`"long"`), reportMaxLength3)
			},
			want: []toolerr.Violation{{Keyword: "maxLength", InstancePath: "/meta/x-a", SchemaPath: "/p/maxLength", Message: "meta.x-a must be at most 3 characters long; received 4 characters"}},
		},
		{
			name: "deeper in a member's value",
			report: func(d *Decoder) {
				d.ReportPatternProperty("/patternProperties/^o-", "o-1", "^o-", []byte(`{"m":1,"n":0}`), reportMaxLength3)
			},
			want: []toolerr.Violation{{Keyword: "minimum", InstancePath: "/meta/o-1/n", SchemaPath: "/p/properties/n/minimum", Message: "meta.o-1.n must be at least 1; received 0"}},
		},
		{
			name: "a member name",
			report: func(d *Decoder) {
				d.ReportPropertyName("/propertyNames", "long", reportMaxLength3)
			},
			want: []toolerr.Violation{{Keyword: "maxLength", InstancePath: "/meta/long", SchemaPath: "/p/maxLength", Message: "member name meta.long must be at most 3 characters long; received 4 characters"}},
		},
		{
			name: "a hostile name, quoted",
			report: func(d *Decoder) {
				d.ReportPatternProperty("/patternProperties/^x-", "x-\u202e\n", "^x-", []byte(`"long"`), reportMaxLength3)
			},
			want: []toolerr.Violation{{Keyword: "maxLength", InstancePath: "/meta/x-\u202e\n", SchemaPath: "/p/maxLength", Message: `meta."x-\u202e\n" must be at most 3 characters long; received 4 characters`}},
		},
		{
			name: "a long name, cut",
			report: func(d *Decoder) {
				d.ReportPatternProperty("/patternProperties/^é", long, "^é", []byte(`1`), reportMaxLength3)
			},
			want: []toolerr.Violation{{Keyword: "type", InstancePath: "/meta/" + long[:2*eagerMaxName] + "…", SchemaPath: "/p/type", Message: "meta." + long[:2*eagerMaxName] + "… must be a string; received a number"}},
		},
		{
			name:      "inside a sensitive value",
			sensitive: true,
			report: func(d *Decoder) {
				d.ReportPatternProperty("/patternProperties/^x-", "x-secret", "^x-", []byte(`{"n":0}`), reportMaxLength3)
			},
			want:       []toolerr.Violation{{Keyword: "minimum", InstancePath: "/meta/*/n", SchemaPath: "/p/properties/n/minimum", Message: "meta.*.n must be at least 1"}},
			notShowing: "secret",
		},
		{
			name: "a report that records nothing",
			report: func(d *Decoder) {
				d.ReportPatternProperty("/patternProperties/^x-", "x-a", "^x-", []byte(`"long"`), reportNothing)
				d.ReportPropertyName("/propertyNames", "long", reportNothing)
			},
			want: []toolerr.Violation{
				{Keyword: "patternProperties", InstancePath: "/meta", SchemaPath: "/patternProperties/^x-", Message: `meta has a member, named as received, whose value fails the schema of patternProperties "^x-"; received x-a`},
				{Keyword: "propertyNames", InstancePath: "/meta", SchemaPath: "/propertyNames", Message: "meta has a member name that propertyNames does not allow; received long"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d Decoder
			d.Reset("t", []byte(`{"meta":{}}`))
			d.R.ObjectStart()
			d.R.NextMember()
			d.PushName()
			if tt.sensitive {
				d.BeginSensitive()
			}
			d.R.Skip()
			tt.report(&d)
			if tt.sensitive {
				d.EndSensitive()
			}
			d.Pop()
			for d.R.Err() == nil {
				if _, ok := d.R.NextMember(); !ok {
					break
				}
			}
			var e *toolerr.Error
			if err := d.Finish(); !errors.As(err, &e) {
				t.Fatalf("Finish = %v, want the violations", err)
			}
			got := e.Violations()
			if len(got) != len(tt.want) {
				t.Fatalf("violations %+v, want %+v", got, tt.want)
			}
			for i, v := range got {
				if v != tt.want[i] {
					t.Errorf("violation %d:\n %+v\nwant\n %+v", i, v, tt.want[i])
				}
				if tt.notShowing != "" && (strings.Contains(v.Message, tt.notShowing) || strings.Contains(v.InstancePath, tt.notShowing)) {
					t.Errorf("violation %+v shows %q", v, tt.notShowing)
				}
			}
		})
	}
}

// TestReportKeepsTheCap: a replay records no more violations than a
// decode may hold, and says the list is cut.
func TestReportKeepsTheCap(t *testing.T) {
	var d Decoder
	d.Reset("t", []byte(`{}`))
	d.R.ObjectStart()
	many := func(d *Decoder) {
		d.R.ArrayStart()
		for i := 0; d.R.NextItem(); i++ {
			d.PushIndex(i)
			d.TypeMismatch("/items/type", "string")
			d.Pop()
		}
	}
	items := "[" + strings.Repeat("1,", toolerr.MaxViolations+4) + "1]"
	d.ReportPatternProperty("/patternProperties/^x-", "x-a", "^x-", []byte(items), many)
	d.R.NextMember()
	var e *toolerr.Error
	if err := d.Finish(); !errors.As(err, &e) {
		t.Fatalf("Finish = %v, want the violations", err)
	}
	if n := len(e.Violations()); n != toolerr.MaxViolations || !e.Truncated {
		t.Errorf("%d violations, truncated %v; want %d, truncated", n, e.Truncated, toolerr.MaxViolations)
	}
}

// TestReportInTrial: in a trial, a refused member fails the trial, as any
// violation does, and nothing is replayed.
func TestReportInTrial(t *testing.T) {
	for _, report := range []func(d *Decoder){
		func(d *Decoder) {
			d.ReportPatternProperty("/patternProperties/^x-", "x-a", "^x-", []byte(`"long"`), reportMaxLength3)
		},
		func(d *Decoder) { d.ReportPropertyName("/propertyNames", "long", reportMaxLength3) },
	} {
		var d Decoder
		d.Trial([]byte(`{"x-a":"long"}`))
		d.R.Skip()
		report(&d)
		if d.Valid() {
			t.Error("the trial holds although a member is refused")
		}
	}
}
