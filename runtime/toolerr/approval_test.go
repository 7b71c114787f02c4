package toolerr

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestApprovalCodes: approval_required has a category of its own; the
// refusals of the approval steps fall in the existing ones.
func TestApprovalCodes(t *testing.T) {
	want := map[Code]Category{
		ApprovalRequired: Approval, ApprovalForbidden: Permission,
		ApprovalUnknown: StateConflict, ApprovalPending: StateConflict, ApprovalDecided: StateConflict,
		ApprovalRejected: StateConflict, ApprovalExpired: StateConflict, ApprovalAlreadyResumed: StateConflict,
		ApprovalStale: StateConflict, ApprovalTampered: System, ApprovalUnavailable: System, ApprovalQuota: System,
	}
	for c, cat := range want {
		if got := c.Category(); got != cat {
			t.Errorf("%s: category %s, want %s", c, got, cat)
		}
	}
}

// TestApprovalJSONBounded: the pending call's description is written, and
// cut like the other strings when a tool file's version is huge.
func TestApprovalJSONBounded(t *testing.T) {
	e := &Error{Code: ApprovalRequired, Tool: "t", Reason: strings.Repeat("r", 20000), Approval: &PendingApproval{
		PendingID: "P1", Version: strings.Repeat("v", 50000), ArgsDigest: "sha256:ab", ExpiresAt: "2026-03-02T11:00:00Z"}}
	data, err := json.Marshal(e)
	if err != nil || len(data) > MaxJSONBytes {
		t.Fatalf("%d bytes, %v", len(data), err)
	}
	var w struct {
		Approval PendingApproval
	}
	if err := json.Unmarshal(data, &w); err != nil || w.Approval.PendingID != "P1" || !strings.HasSuffix(w.Approval.Version, "…") || w.Approval.ExpiresAt != "2026-03-02T11:00:00Z" {
		t.Errorf("approval %+v, %v", w.Approval, err)
	}
}
