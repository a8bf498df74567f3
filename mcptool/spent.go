package mcptool

import (
	"context"
	"errors"
	"sync"
	"time"
)

// SpentStore remembers the requestStates that have been answered, so that
// each is answered once: a 2026-07-28 client that sends a requestState a
// second time (a replay of a confirmed call, say) is asked again, and the
// tool does not run on the old answers. The default keeps them in process;
// replicas behind one load balancer must share one (adapters/redis has
// one), or a replay sent to another replica would count.
type SpentStore interface {
	// Spend records id as spent until expires (when its requestState
	// expires, after which no replica accepts it anyway). It returns false
	// when id was already spent. An error fails the call with an internal
	// error (logged, never shown): an answer is never trusted unchecked.
	Spend(ctx context.Context, id string, expires time.Time) (first bool, err error)
}

// SpentStates sets where the registry remembers the requestStates already
// answered. The default (and SpentStates(nil)) keeps them in this process.
func SpentStates(s SpentStore) RegistryOption {
	return registryOption(func(c *registryConfig) { c.spent = s })
}

// localSpent is the in-process [SpentStore]: a map of ids to their expiry,
// swept of expired ids whenever it has doubled since the last sweep, and
// bounded: at maxLocalSpent unexpired ids it refuses to record more (the
// call fails with an internal error, logged) rather than grow without end
// or forget an id that could then be replayed.
type localSpent struct {
	mu    sync.Mutex
	ids   map[string]time.Time
	swept int // the map's size after the last sweep
	limit int // maxLocalSpent when 0
}

// maxLocalSpent bounds the in-process spent store: about 100 MiB of ids, the
// answers of 580 requestStates a second for their 30 minutes.
const maxLocalSpent = 1 << 20

// errSpentFull is the in-process store's refusal at its bound.
var errSpentFull = errors.New("mcptool: too many requestStates answered in their lifetime to remember another (the in-process SpentStore's bound); replicas under such load share a SpentStore such as adapters/redis's")

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
