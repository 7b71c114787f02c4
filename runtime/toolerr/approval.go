package toolerr

// The codes of approvals (see package gate): a call that waits for a
// person, and the refusals of the steps that decide and resume it.
const (
	// ApprovalRequired: the call was checked (decoded, validated,
	// authorized) and is stored as a pending approval instead of running.
	// It is not an error to repair: the model should tell the user that the
	// action awaits approval, and not send the call again. Category
	// Approval; the Error carries an Approval.
	ApprovalRequired Code = "approval_required"
	// ApprovalForbidden: the principal may not decide the pending call (it
	// lacks an approver role, or is the requester, or is not identified).
	ApprovalForbidden Code = "approval_forbidden"
	// ApprovalUnknown: no pending call has that ID where the principal can
	// see it (another tenant's looks exactly like a missing one).
	ApprovalUnknown Code = "approval_unknown"
	// ApprovalPending: the pending call is not approved yet, so it cannot
	// be resumed.
	ApprovalPending Code = "approval_pending"
	// ApprovalDecided: the pending call was approved already; it cannot be
	// approved or rejected again.
	ApprovalDecided Code = "approval_decided"
	// ApprovalRejected: the pending call was rejected.
	ApprovalRejected Code = "approval_rejected"
	// ApprovalExpired: the pending call's approval expired before it was
	// decided or resumed.
	ApprovalExpired Code = "approval_expired"
	// ApprovalAlreadyResumed: the approved call was resumed already; it
	// does not run again.
	ApprovalAlreadyResumed Code = "approval_already_resumed"
	// ApprovalStale: the tool's schema version changed since the call was
	// requested (or the tool is no longer bound): it needs a new request
	// and a new approval.
	ApprovalStale Code = "approval_stale"
	// ApprovalTampered: the stored argument bytes no longer match their
	// digest. Category System.
	ApprovalTampered Code = "approval_tampered"
	// ApprovalUnavailable: the pending store could not store, read or
	// update the pending call (it is full, failed or panicked). Category
	// System.
	ApprovalUnavailable Code = "approval_unavailable"
	// ApprovalQuota: the call was checked but not stored to await
	// approval, because its tenant or its requester holds as many pending
	// calls (or bytes of them) as its quota allows; the reason says which.
	// Other tenants are not affected. Category System.
	ApprovalQuota Code = "approval_quota"
)

// Approval is the category of ApprovalRequired alone: a person has to act.
const Approval Category = "approval"

// PendingApproval is what the model is told about a call that awaits
// approval: enough for the user to find it, nothing that approves it.
type PendingApproval struct {
	// PendingID names the pending call for the approvers.
	PendingID string `json:"pendingId"`
	// Version is the tool's schema version the call was checked against.
	Version string `json:"version"`
	// ArgsDigest is "sha256:" and the hex SHA-256 of the exact argument
	// bytes the approval is for.
	ArgsDigest string `json:"argsDigest"`
	// ExpiresAt is when the approval lapses, in RFC 3339.
	ExpiresAt string `json:"expiresAt"`
}

// approvalCategory returns the category of an approval code, and false for
// any other code.
func approvalCategory(c Code) (Category, bool) {
	switch c {
	case ApprovalRequired:
		return Approval, true
	case ApprovalForbidden:
		return Permission, true
	case ApprovalUnknown, ApprovalPending, ApprovalDecided, ApprovalRejected, ApprovalExpired, ApprovalAlreadyResumed, ApprovalStale:
		return StateConflict, true
	}
	return "", false
}
