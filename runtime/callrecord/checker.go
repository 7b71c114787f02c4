package callrecord

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Checker decides JSON values against one tool's effective schema with
// santhosh-tekuri/jsonschema, formats asserted: the validator the generated
// contract tests hold the decoders to, and the one `toolgate test --calls`
// replays records with. The recorder checks every masked value with it
// before a record is written. It is safe for concurrent use.
type Checker struct {
	url      string
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	at       map[string]*jsonschema.Schema // by schema pointer, compiled on first use
}

// Decision is how a Checker decides a value: valid, or the violations at
// the leaves of its error (the keyword that failed and the instance path),
// sorted and distinct.
type Decision struct {
	Valid      bool
	Violations []Violation
}

// Equal reports whether two decisions are the same.
func (d Decision) Equal(o Decision) bool {
	return d.Valid == o.Valid && slices.Equal(d.Violations, o.Violations)
}

// Keywords are the distinct keywords of d's violations, sorted.
func (d Decision) Keywords() []string {
	var out []string
	for _, v := range d.Violations {
		out = append(out, v.Keyword)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// errNotJudged is a value the validator cannot judge (see judgeable).
var errNotJudged = errors.New("callrecord: the validator cannot judge a number this long")

// NewChecker compiles the effective schema of the tool named tool;
// assertFormat false makes formats annotations.
func NewChecker(tool, schema string, assertFormat bool) (*Checker, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = assertFormat
	u := "toolgate-record:///" + url.PathEscape(tool) + ".json"
	if err := c.AddResource(u, strings.NewReader(schema)); err != nil {
		return nil, fmt.Errorf("callrecord: tool %s: %w", tool, err)
	}
	ch := &Checker{url: u, compiler: c, at: map[string]*jsonschema.Schema{}}
	if _, err := ch.schemaAt(""); err != nil {
		return nil, fmt.Errorf("callrecord: tool %s: %w", tool, err)
	}
	return ch, nil
}

func (c *Checker) schemaAt(ptr string) (*jsonschema.Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.at[ptr]; ok {
		return s, nil
	}
	s, err := c.compiler.Compile(c.url + (&url.URL{Fragment: ptr}).String())
	if err != nil {
		return nil, err
	}
	c.at[ptr] = s
	return s, nil
}

// Decide decides v against the whole schema. err is a value the validator
// cannot judge.
func (c *Checker) Decide(v *jsonval.Value) (Decision, error) {
	return c.decideAt("", v)
}

func (c *Checker) decideAt(ptr string, v *jsonval.Value) (d Decision, err error) {
	if !judgeable(v) {
		return Decision{}, errNotJudged
	}
	s, err := c.schemaAt(ptr)
	if err != nil {
		return Decision{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(v.Marshal()))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return Decision{}, err
	}
	defer func() {
		if p := recover(); p != nil {
			d, err = Decision{}, fmt.Errorf("callrecord: the validator panicked: %v", p)
		}
	}()
	verr := s.Validate(doc)
	if verr == nil {
		return Decision{Valid: true}, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return Decision{}, verr
	}
	var leaves func(e *jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := e.KeywordLocation
			d.Violations = append(d.Violations, Violation{Keyword: loc[strings.LastIndex(loc, "/")+1:], InstancePath: e.InstanceLocation})
		}
		for _, c := range e.Causes {
			leaves(c)
		}
	}
	leaves(ve)
	slices.SortFunc(d.Violations, func(a, b Violation) int {
		return strings.Compare(a.InstancePath+"\x00"+a.Keyword, b.InstancePath+"\x00"+b.Keyword)
	})
	d.Violations = slices.Compact(d.Violations)
	return d, nil
}

// The validator reads every number with big.Rat.SetString, which panics
// beyond an exponent of about a million and is slow well below it (see
// runtime/contract): a value is judged only when each of its numbers is at
// most maxNumberLen characters long with an exponent of at most
// maxExponent in magnitude.
const (
	maxNumberLen = 1000
	maxExponent  = "10000" // decimal digits, compared as text
)

// judgeable reports whether every number in v is one the validator reads
// quickly and exactly.
func judgeable(v *jsonval.Value) bool {
	switch v.Kind {
	case jsonval.Number:
		if len(v.Str) > maxNumberLen {
			return false
		}
		if i := strings.IndexAny(v.Str, "eE"); i >= 0 {
			exp := strings.TrimLeft(v.Str[i+1:], "+-")
			exp = strings.TrimLeft(exp, "0")
			return len(exp) < len(maxExponent) || len(exp) == len(maxExponent) && exp <= maxExponent
		}
	case jsonval.Array:
		return !slices.ContainsFunc(v.Items, func(it *jsonval.Value) bool { return !judgeable(it) })
	case jsonval.Object:
		return !slices.ContainsFunc(v.Members, func(m jsonval.Member) bool { return !judgeable(m.Value) })
	}
	return true
}
