package mcpoauth

import (
	"context"
	"errors"
	"sync"
	"time"
)

// localSpent is the in-process store of DPoP proofs' jti
// ([DPoPOptions].Spent's default): a map of ids to their expiry, swept of
// expired ids whenever it has doubled since the last sweep, and bounded:
// at maxLocalSpent unexpired ids it refuses to record more (the request
// gets 503, and the error is logged) rather than grow without end or
// forget an id that could then be replayed.
type localSpent struct {
	mu    sync.Mutex
	ids   map[string]time.Time
	swept int // the map's size after the last sweep
	limit int // maxLocalSpent when 0
}

// maxLocalSpent bounds the in-process store: the proofs of 17,000 requests
// a second, each remembered for the default one-minute window.
const maxLocalSpent = 1 << 20

var errSpentFull = errors.New("too many DPoP proofs within their window to remember another (the in-process store's bound); replicas under such load share a store such as adapters/redis's SpentStore")

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
	limit := s.limit
	if limit == 0 {
		limit = maxLocalSpent
	}
	if len(s.ids) >= limit || len(s.ids) > max(2*s.swept, 1024) {
		for k, exp := range s.ids {
			if !now.Before(exp) {
				delete(s.ids, k)
			}
		}
		s.swept = len(s.ids)
		if len(s.ids) >= limit {
			return false, errSpentFull
		}
	}
	s.ids[id] = expires
	return true, nil
}
