package jsonval

import "testing"

// TestAppendKeyIsEqual: two values have the same key exactly when Equal
// reports them equal.
func TestAppendKeyIsEqual(t *testing.T) {
	docs := []string{
		`1`, `1.0`, `10e-1`, `-0`, `0`, `2`, `"1"`, `"A"`, `"\u0041"`, `true`, `false`, `null`,
		`[]`, `{}`, `[1,2]`, `[2,1]`, `[1.0,2]`, `{"a":1,"b":2}`, `{"b":2.0,"a":1}`, `{"a":"b"}`, `{"b":"a"}`,
		`{"a":[{"x":null}]}`, `{"a":[{"x":false}]}`, `["a,b"]`, `["a","b"]`, `{"a,":1}`, `{"a":",1"}`,
		`1e99999999999999999999`, `10e99999999999999999998`,
	}
	vals := make([]*Value, len(docs))
	for i, d := range docs {
		v, err := Parse([]byte(d))
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		vals[i] = v
	}
	for i := range vals {
		for j := range vals {
			ki, kj := string(AppendKey(nil, vals[i])), string(AppendKey(nil, vals[j]))
			if (ki == kj) != Equal(vals[i], vals[j]) {
				t.Errorf("%s and %s: keys %q, %q; Equal %v", docs[i], docs[j], ki, kj, Equal(vals[i], vals[j]))
			}
		}
	}
}
