package catalog

import (
	"testing"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// TestBounds: each bound of the schema table is labelled by its measure
// and direction, in the table's order; the bounds of contains, a bound
// that is not a number and uniqueItems false are not shown.
func TestBounds(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"numbers", `{"maximum":9,"exclusiveMinimum":0,"multipleOf":0.5,"minimum":1,"exclusiveMaximum":10}`,
			"≥ 1, more than 0, ≤ 9, less than 10, multiple of 0.5"},
		{"string", `{"maxLength":20,"minLength":2}`, "length ≥ 2, length ≤ 20"},
		{"array", `{"maxItems":3,"minItems":1,"uniqueItems":true,"minContains":2,"maxContains":4}`, "items ≥ 1, items ≤ 3, unique items"},
		{"object", `{"maxProperties":5,"minProperties":1}`, "members ≥ 1, members ≤ 5"},
		{"not numbers", `{"maxLength":"20","minItems":null,"uniqueItems":false}`, ""},
	} {
		s, err := jsonval.Parse([]byte(tc.schema))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := bounds(s); got != tc.want {
			t.Errorf("%s: bounds = %q, want %q", tc.name, got, tc.want)
		}
	}
}
