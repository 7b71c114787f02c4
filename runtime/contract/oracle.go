package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// The oracle, santhosh-tekuri/jsonschema v5.3.1, reads every number it
// checks with big.Rat.SetString. That gives up beyond a decimal exponent of
// about a million (1e1000001), and the oracle then dereferences the nil
// result and panics; below that its time grows with the exponent (about
// 100 ms for 1e1000000). A document is judged only when each of its numbers
// is at most maxOracleNumberLen characters long with an exponent of at most
// maxOracleExponent in magnitude: numbers the oracle reads exactly and
// quickly. toolgate's decoders handle any exponent in linear time (package
// jsonnum); the fuzz targets check them on such numbers by the round trip
// and the gate, not against the oracle.
const (
	maxOracleExponent  = 10000
	maxOracleNumberLen = 1000
)

// Why a document is not judged by the oracle. Each is a counter key.
const (
	skipNotDecoded = "encoding/json cannot decode it"
	skipLongNumber = "a number longer than 1000 characters"
	skipHugeExp    = "a number whose exponent exceeds ±10000"
	skipPanic      = "the oracle panicked"
)

// oracle is santhosh-tekuri/jsonschema compiled on one schema, eff.
type oracle struct {
	schema *jsonschema.Schema
	eff    *jsonval.Value
}

func newOracle(name, schema string) (oracle, error) {
	eff, err := jsonval.Parse([]byte(schema))
	if err != nil {
		return oracle{}, fmt.Errorf("%s: invalid schema: %w", name, err)
	}
	s, err := compileSchema(name, schema)
	return oracle{s, eff}, err
}

// judge returns the oracle's verdict on data, which the strict reader has
// accepted, or why the oracle cannot judge it (skip non-empty). A panic of
// the oracle is recovered and reported as skipPanic, with its value in
// detail.
func (o oracle) judge(data []byte) (valid bool, skip, detail string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return false, skipNotDecoded, err.Error()
	}
	if reason := unjudgeable(v); reason != "" {
		return false, reason, ""
	}
	defer func() {
		if r := recover(); r != nil {
			valid, skip, detail = false, skipPanic, fmt.Sprint(r)
		}
	}()
	return o.schema.Validate(v) == nil, "", ""
}

// unjudgeable returns why a decoded document holds a number outside the
// oracle's limits, or "".
func unjudgeable(v any) string {
	switch v := v.(type) {
	case json.Number:
		return numberOutsideOracle(string(v))
	case []any:
		for _, it := range v {
			if r := unjudgeable(it); r != "" {
				return r
			}
		}
	case map[string]any:
		for _, it := range v {
			if r := unjudgeable(it); r != "" {
				return r
			}
		}
	}
	return ""
}

// numberOutsideOracle checks the text of a valid JSON number against the
// oracle's limits.
func numberOutsideOracle(s string) string {
	if len(s) > maxOracleNumberLen {
		return skipLongNumber
	}
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return ""
	}
	exp := strings.TrimLeft(strings.TrimLeft(s[i+1:], "+-"), "0")
	// More than five digits is beyond the limit; ParseInt sees at most five.
	if n, err := strconv.ParseInt(exp, 10, 64); len(exp) > 5 || (err == nil && n > maxOracleExponent) {
		return skipHugeExp
	}
	return ""
}

// agree reports whether the decoder's verdict on data (decodeErr, nil when
// it accepts) agrees with the oracle's (valid) on the effective schema eff.
// It is the one place where the fuzz targets and the contract test's
// boundary matrix compare the two, so that every deliberate, documented
// difference — the decoder stricter than JSON Schema — is written here,
// narrowly, and nowhere else. There is one: see RepresentationOnly.
func agree(eff *jsonval.Value, data []byte, decodeErr error, valid bool) bool {
	if (decodeErr == nil) == valid {
		return true
	}
	return valid && RepresentationOnly(eff, data, decodeErr)
}
