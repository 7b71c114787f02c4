package gen

import "github.com/toolgate/toolgate/runtime/jsonval"

// CompilesClean is compilesClean, for the differential tests.
var CompilesClean = compilesClean

// MetaCompile compiles s as a tool's schema is checked without the fast
// path, and returns santhosh-tekuri/jsonschema's error.
func MetaCompile(s *jsonval.Value, draft7 bool) error {
	_, err := compileAt("toolgate:///metacheck.json", s, draft7)
	return err
}

// BranchNames is branchNames on the JSON array items.
func BranchNames(kw, items string) (names, notes []string) {
	v, err := jsonval.Parse([]byte(items))
	if err != nil {
		panic(err)
	}
	return branchNames(kw, v.Items)
}
