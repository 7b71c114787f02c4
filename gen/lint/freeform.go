package lint

import (
	"github.com/toolgate/toolgate/runtime/jsonval"
	"github.com/toolgate/toolgate/runtime/schema"
)

// RuleObjectFreeForm flags an object below the root that declares no
// members: toolgate takes it as a free-form map (any members, their values
// handed to the executor as raw JSON), since closing it could only mean
// "accept {}".
const RuleObjectFreeForm = "object-free-form"

func init() {
	Rules = append(Rules, Rule{RuleObjectFreeForm, Warning, "An object that declares no members is a free-form map (any members, values kept raw): declare its properties, or write additionalProperties to close it or type its values."})
}

// freeForm reports whether the object s at ptr is a free-form map, and
// flags it.
func (c *checker) freeForm(s *jsonval.Value, ptr string) bool {
	if ptr == c.ti.base || !schema.DeclaresNoMembers(s) {
		return false
	}
	c.add(RuleObjectFreeForm, ptr, "the object declares no members, so the gate takes any members and hands their values over raw; declare its properties, or write additionalProperties to close it or type its values")
	return true
}
