package mcpgogate

import (
	"container/list"
	"crypto/rand"
	"errors"
	"strings"
	"sync"
)

// sessions is a streamable HTTP session ID manager that keeps at most max
// live sessions: a new one past it ends the one validated least recently.
// IDs are random (crypto/rand); an ended or unknown ID is invalid (404).
type sessions struct {
	mu   sync.Mutex
	max  int
	byID map[string]*list.Element // → element whose Value is the ID
	lru  *list.List               // front: used most recently
}

const sessionPrefix = "tg-"

var errUnknownSession = errors.New("mcpgogate: unknown session")

func newSessions(max int) *sessions {
	return &sessions{max: max, byID: map[string]*list.Element{}, lru: list.New()}
}

// Generate starts a session, ending the least recently used one when the
// bound is reached.
func (s *sessions) Generate() string {
	id := sessionPrefix + rand.Text()
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.lru.Len() >= s.max {
		oldest := s.lru.Back()
		delete(s.byID, oldest.Value.(string))
		s.lru.Remove(oldest)
	}
	s.byID[id] = s.lru.PushFront(id)
	return id
}

// Validate accepts a live session, marking it used.
func (s *sessions) Validate(id string) (isTerminated bool, err error) {
	if !strings.HasPrefix(id, sessionPrefix) {
		return false, errUnknownSession
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return false, errUnknownSession
	}
	s.lru.MoveToFront(e)
	return false, nil
}

// Terminate ends a session (DELETE); an unknown one is an error.
func (s *sessions) Terminate(id string) (isNotAllowed bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		return false, errUnknownSession
	}
	delete(s.byID, id)
	s.lru.Remove(e)
	return false, nil
}
