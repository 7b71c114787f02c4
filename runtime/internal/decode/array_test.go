package decode

import "testing"

// TestScalarArrays: an array read with one call checks its type, its
// bounds and every item with the item's rule, at the item's path, and
// keeps the items up to maxItems.
func TestScalarArrays(t *testing.T) {
	bounded := NewArray("/properties/a", MinItems(2), MaxItems(3))
	item := NewInt("/properties/a/items", Minimum("0"))
	ints := func(a *Array) func(d *Decoder) (any, bool) {
		return func(d *Decoder) (any, bool) { return ReadInts(d, a, item) }
	}
	type color string
	colors := NewString("/properties/a/items", Enum("red", "blue"))
	runReads(t, []readCase{
		{"ints", `{"a":[1,2,3]}`, ints(bounded), []int64{1, 2, 3}, true, ""},
		{"empty, unbounded", `{"a":[]}`, ints(NewArray("/properties/a")), []int64(nil), true, ""},
		{"not an array", `{"a":{}}`, ints(bounded), []int64(nil), false, "type /properties/a/type: a must be an array; received an object"},
		{"too few", `{"a":[1]}`, ints(bounded), []int64{1}, true, "minItems /properties/a/minItems: a must have at least 2 items; received 1"},
		{"too many, kept up to maxItems", `{"a":[1,2,3,4,5]}`, ints(bounded), []int64{1, 2, 3}, true, "maxItems /properties/a/maxItems: a must have at most 3 items; received 5"},
		{"item refused", `{"a":[1,-1]}`, ints(bounded), []int64{1, -1}, true, "minimum /properties/a/items/minimum: a[1] must be at least 0; received -1"},
		{"item of another type", `{"a":[1,"x"]}`, ints(bounded), []int64{1}, true, "type /properties/a/items/type: a[1] must be an integer; received a string"},
		{"enums", `{"a":["red","blue"]}`, func(d *Decoder) (any, bool) { return ReadEnums[color](d, bounded, colors) }, []color{"red", "blue"}, true, ""},
		{"strings", `{"a":["x"]}`, func(d *Decoder) (any, bool) {
			return ReadStrings(d, NewArray("/properties/a"), NewString("/properties/a/items"))
		}, []string{"x"}, true, ""},
		{"numbers", `{"a":[1.5]}`, func(d *Decoder) (any, bool) {
			return ReadNumbers(d, NewArray("/properties/a"), NewNumber("/properties/a/items"))
		}, []float64{1.5}, true, ""},
		{"bools", `{"a":[true,1]}`, func(d *Decoder) (any, bool) {
			return ReadBools(d, NewArray("/properties/a"), "/properties/a/items/type")
		}, []bool{true}, true, "type /properties/a/items/type: a[1] must be a boolean; received a number"},
	})
}
