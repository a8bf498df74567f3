package mcpredis

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/mcptool/cluster"
)

// SpentStore remembers, for every replica, the requestStates that have been
// answered: one key per state, set with SET NX and expiring with the state,
// so a state replayed to any replica is answered once. It implements
// cluster.SpentStore.
type SpentStore struct {
	rdb    redis.UniversalClient
	prefix string
}

var _ cluster.SpentStore = (*SpentStore)(nil)

// Spend implements cluster.SpentStore.
func (s *SpentStore) Spend(ctx context.Context, id string, expires time.Time) (bool, error) {
	ttl := max(time.Until(expires), time.Second)
	first, err := s.rdb.SetNX(ctx, s.prefix+id, 1, ttl).Result()
	if err != nil {
		return false, fmt.Errorf("mcpredis: spend requestState: %w", err)
	}
	return first, nil
}
