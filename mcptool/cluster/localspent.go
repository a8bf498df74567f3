package cluster

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrSpentFull is the refusal of a [LocalSpent] store that holds as many
// unexpired ids as its bound.
var ErrSpentFull = errors.New("cluster: the in-process SpentStore holds as many unexpired ids as its bound; replicas under such load share a store such as adapters/redis's")

// LocalSpent returns a [SpentStore] that keeps its ids in this process:
// right for one replica, and the default of mcptool's requestStates and
// adapters/oauth's DPoP proofs. It holds at most limit unexpired ids (1<<20,
// about 100 MiB, when limit <= 0); at its bound it refuses with
// [ErrSpentFull] — the caller fails closed — rather than grow without end
// or forget an id that could then be replayed. Expired ids are swept
// whenever the store has doubled since the last sweep.
func LocalSpent(limit int) SpentStore {
	if limit <= 0 {
		limit = 1 << 20
	}
	return &localSpent{limit: limit}
}

type localSpent struct {
	mu    sync.Mutex
	ids   map[string]time.Time
	swept int // the map's size after the last sweep
	limit int
}

func (s *localSpent) Spend(_ context.Context, id string, expires time.Time) (bool, error) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]time.Time{}
	}
	if exp, ok := s.ids[id]; ok && now.Before(exp) {
		return false, nil
	}
	if len(s.ids) >= s.limit || len(s.ids) > max(2*s.swept, 1024) {
		for k, exp := range s.ids {
			if !now.Before(exp) {
				delete(s.ids, k)
			}
		}
		s.swept = len(s.ids)
		if len(s.ids) >= s.limit {
			return false, ErrSpentFull
		}
	}
	s.ids[id] = expires
	return true, nil
}
