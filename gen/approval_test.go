package gen_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

// TestApprovalMeta: x-toolgate approval, approvers and selfApproval are
// parsed and validated; a bad value is an invalid definition naming the
// member.
func TestApprovalMeta(t *testing.T) {
	tests := []struct {
		meta      string
		approval  string
		approvers []string
		self      bool
		err       string // substring of the error; "" for none
	}{
		{`{}`, "", nil, false, ""},
		{`{"approval": "required", "approvers": ["admin"]}`, "required", []string{"admin"}, false, ""},
		{`{"approval": "policy", "approvers": ["finance", "owner"], "selfApproval": true}`, "policy", []string{"finance", "owner"}, true, ""},
		{`{"approval": "always", "approvers": ["admin"]}`, "", nil, false, `x-toolgate.approval "always" is not "required" or "policy"`},
		{`{"approval": "Required", "approvers": ["admin"]}`, "", nil, false, `is not "required" or "policy"`},
		{`{"approval": true, "approvers": ["admin"]}`, "", nil, false, "x-toolgate.approval must be a non-empty string"},
		{`{"approval": "required"}`, "", nil, false, "needs x-toolgate.approvers"},
		{`{"approval": "required", "approvers": []}`, "", nil, false, "x-toolgate.approvers must be a non-empty array"},
		{`{"approval": "required", "approvers": [""]}`, "", nil, false, "x-toolgate.approvers must be a non-empty array"},
		{`{"approval": "required", "approvers": ["a", "a"]}`, "", nil, false, "distinct"},
		{`{"approval": "required", "approvers": "admin"}`, "", nil, false, "x-toolgate.approvers must be"},
		{`{"approval": "required", "approvers": ["admin"], "selfApproval": "yes"}`, "", nil, false, "x-toolgate.selfApproval must be a boolean"},
		{`{"approvers": ["admin"]}`, "", nil, false, "need x-toolgate.approval"},
		{`{"selfApproval": true}`, "", nil, false, "need x-toolgate.approval"},
		{`{"approved": true}`, "", nil, false, `unknown x-toolgate member "approved"`},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		path := filepath.Join(dir, "t.json")
		if err := os.WriteFile(path, []byte(`{"name": "t", "parameters": {"type": "object"}, "x-toolgate": `+tt.meta+`}`), 0o644); err != nil {
			t.Fatal(err)
		}
		tools, err := gen.Load(path)
		if tt.err != "" {
			var ge *gen.Error
			// A member's problem is at the member, a missing partner's at
			// x-toolgate.
			if !errors.As(err, &ge) || !strings.Contains(err.Error(), tt.err) || !strings.HasPrefix(ge.Pointer+"/", "/x-toolgate/") || ge.Line != 1 {
				t.Errorf("%s: %v, want a *gen.Error in /x-toolgate, at line 1, containing %q", tt.meta, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.meta, err)
			continue
		}
		m := tools[0].Meta
		if m.Approval != tt.approval || !slices.Equal(m.Approvers, tt.approvers) || m.SelfApproval != tt.self {
			t.Errorf("%s: meta %+v", tt.meta, m)
		}
	}
}
