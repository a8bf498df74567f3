package mcptool

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/mcptool/cluster"
)

// SpentStates sets where the registry remembers the requestStates already
// answered, so that each is answered once (see [cluster.SpentStore]). The
// default (and SpentStates(nil)) keeps them in this process; replicas
// behind one load balancer must share one.
func SpentStates(s cluster.SpentStore) RegistryOption {
	return registryOption(func(c *registryConfig) { c.spent = s })
}

// localSpent is the in-process [cluster.SpentStore]: a map of ids to their expiry,
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
