package decode

import (
	"slices"
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonread"
)

// trialObject decodes an object as a branch whose members are all
// optional and not nullable: a null is absent (with NullAsAbsent), and
// objects are read the same way at any depth.
func trialObject(d *Decoder) {
	d.R.ObjectStart()
	for {
		if _, ok := d.R.NextMember(); !ok {
			return
		}
		d.PushName()
		switch {
		case d.AbsentNull():
		case d.R.Peek() == jsonread.Object:
			trialObject(d)
		default:
			d.R.Skip()
		}
		d.Pop()
	}
}

// TestKeptWithoutAbsentMembers: a value kept as its bytes loses exactly
// the members whose null a branch that holds took as absent, with their
// commas, at any depth; nothing changes without NullAsAbsent, for a
// branch that fails, or in a trial.
func TestKeptWithoutAbsentMembers(t *testing.T) {
	tests := []struct {
		name         string
		value        string
		nullAsAbsent bool
		trials       int  // how many holding branches take the nulls
		fail         bool // the branch fails after reading
		want         string
	}{
		{"last member", `{"id":"a","note":null}`, true, 1, false, `{"id":"a"}`},
		{"first member", `{"note":null,"id":"a"}`, true, 1, false, `{"id":"a"}`},
		{"the only member", `{"note":null}`, true, 1, false, `{}`},
		{"two, with spaces", `{ "a" : null , "id":"a" , "b":null }`, true, 1, false, `{ "id":"a"  }`},
		{"deeper", `{"id":"a","sub":{"x":1,"y":null}}`, true, 1, false, `{"id":"a","sub":{"x":1}}`},
		{"two branches take the same member", `{"id":"a","note":null}`, true, 2, false, `{"id":"a"}`},
		{"without NullAsAbsent", `{"id":"a","note":null}`, false, 1, false, `{"id":"a","note":null}`},
		{"a branch that fails", `{"id":"a","note":null}`, true, 1, true, `{"id":"a","note":null}`},
		{"no null", `{"id":"a"}`, true, 1, false, `{"id":"a"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := []byte(`{"pad":[1,2,3],"t":` + tt.value + `}`)
			var p Decoder
			p.Reset("t", input)
			p.NullAsAbsent = tt.nullAsAbsent
			p.R.ObjectStart()
			p.R.NextMember()
			p.R.Skip()
			p.R.NextMember()
			p.PushName()
			start := p.R.Offset()
			p.R.Skip()
			raw := p.R.Capture(start)
			for range tt.trials {
				var dec Decoder
				dec.TrialOf(&p, raw)
				trialObject(&dec)
				if tt.fail {
					dec.MinProperties("/minProperties", 9, 2)
				}
				p.Remember("t", raw, &dec)
			}
			if got := string(p.Kept(raw)); got != tt.want {
				t.Errorf("Kept = %s, want %s", got, tt.want)
			}
			if len(p.absent) != 0 {
				t.Errorf("%d members left noted after Kept", len(p.absent))
			}
			if string(raw) != tt.value {
				t.Errorf("Kept changed the input: %s", raw)
			}
		})
	}
}

// TestKeptInTrialAndOutside: in a trial the bytes are the input's own and
// the members noted stay for the decoder that keeps the value; bytes that
// are not a view of the input (a member name, as propertyNames tries it)
// note nothing.
func TestKeptInTrialAndOutside(t *testing.T) {
	var p Decoder
	p.Reset("t", []byte(`{"a":null}`))
	p.NullAsAbsent = true
	raw := p.R.Data()
	var dec Decoder
	dec.TrialOf(&p, raw)
	trialObject(&dec)
	if kept := dec.Kept(raw); &kept[0] != &raw[0] || len(dec.absent) != 1 {
		t.Errorf("in a trial, Kept = %s (a copy: %v), %d noted; want the bytes themselves, 1 noted", kept, &kept[0] != &raw[0], len(dec.absent))
	}
	name := NameJSON("a")
	var other Decoder
	other.TrialOf(&p, name)
	if at := other.offsetOf(name); at != -1 {
		t.Errorf("bytes outside the input start at %d, want -1", at)
	}
}

// TestRememberedVerdictKeepsAbsent: a nested trial's verdict that the
// decode remembers (trials.go) hands its caller the members the branch
// took as absent, as running the trial does, so that the value kept
// loses them even when the trial is not run again.
func TestRememberedVerdictKeepsAbsent(t *testing.T) {
	input := []byte(`{"sub":{"id":"a","note":null}}`)
	var p Decoder
	p.Reset("t", input)
	p.NullAsAbsent = true
	// outer tries {"sub": inner}, trying inner with try.
	outer := func(try func(d *Decoder, inner []byte) bool) bool {
		var d Decoder
		d.TrialOf(&p, input)
		d.R.ObjectStart()
		d.R.NextMember()
		d.PushName()
		start := d.R.Offset()
		d.R.Skip()
		if !try(&d, d.R.Capture(start)) {
			return false
		}
		d.Pop()
		d.R.NextMember()
		return p.Remember("outer", input, &d)
	}

	ran := outer(func(d *Decoder, inner []byte) bool {
		var nested Decoder
		nested.TrialOf(d, inner)
		trialObject(&nested)
		return d.Remember("inner", inner, &nested)
	})
	if !ran {
		t.Fatal("the trials fail")
	}
	if got := string(p.Kept(input)); got != `{"sub":{"id":"a"}}` {
		t.Fatalf("Kept after running the trials = %s", got)
	}

	remembered := outer(func(d *Decoder, inner []byte) bool {
		ok, known := d.Tried("inner", inner)
		if !known {
			t.Error("the inner verdict is not remembered")
		}
		return ok
	})
	if !remembered {
		t.Fatal("the trials fail on the remembered verdict")
	}
	if got := string(p.Kept(input)); got != `{"sub":{"id":"a"}}` {
		t.Errorf("Kept after a remembered verdict = %s, want the absent member cut", got)
	}
}

// TestTakeAbsentOnce: the members that both holding branches of an anyOf
// hand up are kept once, so a recursive union whose branches both hold at
// every level keeps one span per absent member, not two to the depth.
func TestTakeAbsentOnce(t *testing.T) {
	leaf := []span{{from: 40, to: 49}, {from: 10, to: 19}}
	var level []span
	level = append(level, leaf...)
	for range 40 {
		var up Decoder
		up.takeAbsent(level) // the first branch that holds
		up.takeAbsent(level) // the second one, with the same members
		level = up.absent
	}
	if want := []span{{10, 19}, {40, 49}}; !slices.Equal(level, want) {
		t.Errorf("after 40 levels of two holding branches: %v, want %v", level, want)
	}
}
