package redispending

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/toolgate/toolgate/runtime/gate"
)

// entry is what a tenant's open hash holds of one open call (see
// lua/common.lua).
type entry struct {
	ExpiresAt int64  `json:"e"`
	Size      int    `json:"z"`
	Requester string `json:"r"`
	Cursor    string `json:"m"`
	ToolIndex string `json:"x"`
	Record    string `json:"k"`
}

// entryOf returns the entry of pc, as JSON.
func (s *Store) entryOf(pc gate.PendingCall) (string, error) {
	b, err := json.Marshal(entry{
		ExpiresAt: pc.ExpiresAt.UnixMilli(), Size: gate.PendingSize(pc), Requester: requesterField(pc.Principal),
		Cursor: gate.PendingCursor(pc), ToolIndex: s.toolIndexKey(pc.Tenant, pc.Tool), Record: s.recordKey(pc.PendingID),
	})
	return string(b), err
}

// encode returns pc's record.
func encode(pc gate.PendingCall) (string, error) {
	b, err := json.Marshal(pc)
	return string(b), err
}

// decode reads a record this store wrote, for the call id in state state
// ("" when the state is not known apart from the record): one JSON object
// of PendingCall's members only, naming id and a known state.
func decode(id, state string, record any) (gate.PendingCall, error) {
	text, ok := record.(string)
	if !ok {
		return gate.PendingCall{}, fmt.Errorf("%w: a record of type %T", errGarbage, record)
	}
	d := json.NewDecoder(bytes.NewReader([]byte(text)))
	d.DisallowUnknownFields()
	var pc gate.PendingCall
	if err := d.Decode(&pc); err != nil {
		return gate.PendingCall{}, fmt.Errorf("%w: a record that does not decode: %w", errGarbage, err)
	}
	if _, err := d.Token(); err != io.EOF {
		return gate.PendingCall{}, fmt.Errorf("%w: a record with trailing data", errGarbage)
	}
	switch {
	case id != "" && pc.PendingID != id:
		return gate.PendingCall{}, fmt.Errorf("%w: the record of another call", errGarbage)
	case state != "" && string(pc.State) != state:
		return gate.PendingCall{}, fmt.Errorf("%w: a record whose state is not the call's", errGarbage)
	case !known(pc.State):
		return gate.PendingCall{}, fmt.Errorf("%w: a record in an unknown state", errGarbage)
	case pc.ExpiresAt.IsZero() || pc.CreatedAt.IsZero():
		return gate.PendingCall{}, fmt.Errorf("%w: a record without its times", errGarbage)
	}
	return pc, nil
}

// known reports whether st is a state of the gate.
func known(st gate.PendingState) bool {
	switch st {
	case gate.StatePending, gate.StateApproved, gate.StateRejected, gate.StateExpired, gate.StateResumed:
		return true
	}
	return false
}
