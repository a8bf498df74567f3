package mcpredis

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

var _ taskstore.Restarter = (*TaskStore)(nil)

// ErrVolatile is returned by [Open] when the Redis server would lose the
// tasks on a restart: its append-only file is off. A task handle promises
// that the task is stored; set [Options.AllowVolatileTasks] to start anyway.
var ErrVolatile = errors.New("mcpredis: Redis does not persist tasks across a restart (appendonly is off)")

// checkPersistence reports whether tasks written to rdb survive a restart
// of the Redis server: the append-only file must be on (appendonly yes).
// Snapshots alone (save) lose every task created or changed since the
// last one when Redis stops without saving. With allow, a Redis that does
// not persist (or whose persistence cannot be read) is only logged.
func checkPersistence(ctx context.Context, rdb redis.UniversalClient, allow bool, log *slog.Logger) error {
	lost, err := volatility(ctx, rdb)
	switch {
	case err == nil && lost == "":
		return nil
	case allow && err != nil:
		log.WarnContext(ctx, "mcpredis: cannot tell whether Redis persists tasks; a Redis restart may lose every task (AllowVolatileTasks is set)", "err", err)
		return nil
	case allow:
		log.WarnContext(ctx, "mcpredis: Redis does not persist tasks; a Redis restart loses "+lost+" (AllowVolatileTasks is set)")
		return nil
	case err != nil:
		return fmt.Errorf("mcpredis: cannot tell whether Redis persists tasks (set Options.AllowVolatileTasks to start anyway): %w", err)
	}
	return fmt.Errorf("%w: a restart loses %s; run Redis with appendonly yes (appendfsync everysec), or set Options.AllowVolatileTasks", ErrVolatile, lost)
}

// volatility says what a restart of Redis loses ("" when AOF is on), from
// INFO persistence (which managed services allow where they rename CONFIG)
// and, for the detail, CONFIG GET save.
func volatility(ctx context.Context, rdb redis.UniversalClient) (lost string, err error) {
	info, err := rdb.Info(ctx, "persistence").Result()
	if err != nil {
		return "", err
	}
	aof := ""
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "aof_enabled:"); ok {
			aof = v
		}
	}
	switch aof {
	case "1":
		return "", nil
	case "":
		return "", errors.New("INFO persistence has no aof_enabled")
	}
	save, err := rdb.ConfigGet(ctx, "save").Result()
	if err == nil && strings.TrimSpace(save["save"]) != "" {
		return fmt.Sprintf("every task created or changed since the last snapshot (save %q)", save["save"]), nil
	}
	return "every task", nil
}

// StartedAt implements taskstore.Restarter: when the Redis server last
// started, from INFO server's uptime_in_seconds, to the second.
func (s *TaskStore) StartedAt(ctx context.Context) (time.Time, error) {
	info, err := s.rdb.Info(ctx, "server").Result()
	if err != nil {
		return time.Time{}, fmt.Errorf("mcpredis: INFO server: %w", err)
	}
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "uptime_in_seconds:"); ok {
			secs, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return time.Time{}, fmt.Errorf("mcpredis: uptime_in_seconds %q: %w", v, err)
			}
			return time.Now().Add(-time.Duration(secs+1) * time.Second), nil
		}
	}
	return time.Time{}, errors.New("mcpredis: INFO server has no uptime_in_seconds")
}
