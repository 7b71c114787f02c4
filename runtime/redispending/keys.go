package redispending

import (
	"crypto/sha256"
	"encoding/base64"
	"strconv"
)

// MaxRawLen is the longest tenant, tool, requester or pending ID written
// into a key as it is; a longer one is replaced by its SHA-256.
const MaxRawLen = 64

// part encodes one key part: "=" and the value, or "#" and the base64 of
// its SHA-256 when it is longer than MaxRawLen.
func part(v string) string {
	if len(v) <= MaxRawLen {
		return "=" + v
	}
	sum := sha256.Sum256([]byte(v))
	return "#" + base64.RawURLEncoding.EncodeToString(sum[:])
}

// recordKey is the hash of one pending call: its state "s", its record
// "d", its tenant's open key "o", its tool's index key "x" and the token
// of its last compare-and-swap "w".
func (s *Store) recordKey(id string) string { return s.prefix + "c:" + part(id) }

// tenantKeys are the keys of a tenant: the hash of its open calls, its
// quota counters and the index of its open calls.
func (s *Store) tenantKeys(tenant string) (open, quota, index string) {
	p := part(tenant)
	return s.prefix + "o:" + p, s.prefix + "q:" + p, s.prefix + "i:" + p
}

// toolIndexKey is the index of a tenant's open calls of one tool.
func (s *Store) toolIndexKey(tenant, tool string) string {
	p := part(tenant)
	return s.prefix + "t:" + strconv.Itoa(len(p)) + ":" + p + part(tool)
}

// requesterField ends the quota counters' fields of a requester.
func requesterField(principal string) string { return ":" + part(principal) }
