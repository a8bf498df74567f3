package mcpredis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// TaskStore keeps tasks in Redis, shared by every replica: any replica
// answers tasks/get, tasks/update and tasks/cancel, and the replica running
// a task hears of a cancel or an answer through Redis pub/sub. It
// implements taskstore.Store.
//
// Each task is a hash of its version and its JSON, expiring at its
// ExpiresAt. Update is a compare-and-set on the version in one Lua script,
// which also publishes the task's ID; each store holds one pattern
// subscription and hands the news to its local watchers. Worker leases are
// fields of the record (mcptool writes and checks them), so a task whose
// replica died reads failed once its lease has run out.
//
// While Redis is unreachable the methods fail. An update published while
// this store's subscription was down (Redis restarted, the connection
// dropped) is not delivered as such: when the subscription is back, every
// watcher is woken once, so it reads the task again and misses no change.
type TaskStore struct {
	rdb    redis.UniversalClient
	prefix string // of task keys; the channel of a task is prefix + id

	ps      *redis.PubSub
	mu      sync.Mutex
	watches map[string]map[chan struct{}]struct{}
	done    chan struct{}
}

func newTaskStore(ctx context.Context, rdb redis.UniversalClient, prefix string) (*TaskStore, error) {
	s := &TaskStore{rdb: rdb, prefix: prefix + "task:", watches: map[string]map[chan struct{}]struct{}{}, done: make(chan struct{})}
	s.ps = rdb.PSubscribe(ctx, s.prefix+"*")
	// Wait for the subscription: a watcher registered after New returns
	// then sees every later update.
	if _, err := s.ps.Receive(ctx); err != nil {
		_ = s.ps.Close()
		return nil, fmt.Errorf("mcpredis: subscribe to task updates: %w", err)
	}
	go s.dispatch()
	return s, nil
}

func (s *TaskStore) key(id string) string { return s.prefix + "{" + id + "}" }

// dispatch hands each published update to the task's local watchers. The
// subscription's confirmation comes again whenever go-redis re-subscribes
// after a lost connection: then every watcher is woken, since updates made
// in between were published to nobody.
func (s *TaskStore) dispatch() {
	defer close(s.done)
	for m := range s.ps.ChannelWithSubscriptions() {
		s.mu.Lock()
		switch m := m.(type) {
		case *redis.Message:
			wake(s.watches[strings.TrimPrefix(m.Channel, s.prefix)])
		case *redis.Subscription:
			for _, set := range s.watches {
				wake(set)
			}
		}
		s.mu.Unlock()
	}
}

func wake(set map[chan struct{}]struct{}) {
	for ch := range set {
		select {
		case ch <- struct{}{}:
		default: // one pending receive stands for several updates
		}
	}
}

var createTask = redis.NewScript(`
if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end
redis.call("HSET", KEYS[1], "v", 1, "t", ARGV[1])
if tonumber(ARGV[2]) > 0 then redis.call("PEXPIREAT", KEYS[1], ARGV[2]) end
return 1
`)

// Create implements taskstore.Store.
func (s *TaskStore) Create(ctx context.Context, t taskstore.Task) error {
	t.Version = 1
	b, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("mcpredis: task %s: %w", t.ID, err)
	}
	n, err := createTask.Run(ctx, s.rdb, []string{s.key(t.ID)}, b, expireAt(t)).Int()
	if err != nil {
		return fmt.Errorf("mcpredis: create task: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("%w: %s", taskstore.ErrExists, t.ID)
	}
	if t.Owner != "" {
		// The owner's index lives in its own slot, so this is a second step:
		// a process that dies in between leaves a task tasks/list omits.
		err := indexTask.Run(ctx, s.rdb, []string{s.ownerKey(t.Owner)}, t.ID, expireAt(t), time.Now().UnixMilli()).Err()
		if err != nil {
			return fmt.Errorf("mcpredis: index task: %w", err)
		}
	}
	return nil
}

func (s *TaskStore) ownerKey(owner string) string { return s.prefix + "owner:{" + owner + "}" }

// indexTask adds a task ID to its owner's sorted set (all scores 0, so in
// ID order) and keeps the set until its last task expires.
var indexTask = redis.NewScript(`
redis.call("ZADD", KEYS[1], 0, ARGV[1])
local exp = tonumber(ARGV[2])
if exp == 0 then
  redis.call("PERSIST", KEYS[1])
else
  local ttl = redis.call("PTTL", KEYS[1])
  if redis.call("ZCARD", KEYS[1]) == 1 or (ttl > 0 and tonumber(ARGV[3]) + ttl < exp) then
    redis.call("PEXPIREAT", KEYS[1], exp)
  end
end
return 1
`)

// List implements taskstore.Lister: a page of the owner's index, each task
// read; IDs whose task has expired are dropped from the index on the way.
func (s *TaskStore) List(ctx context.Context, owner, after string, limit int) ([]taskstore.Task, error) {
	if limit < 0 {
		limit = math.MaxInt32
	}
	key := s.ownerKey(owner)
	start := "-"
	if after != "" {
		start = "(" + after
	}
	var out []taskstore.Task
	for len(out) < limit {
		want := limit - len(out)
		ids, err := s.rdb.ZRangeArgs(ctx, redis.ZRangeArgs{Key: key, Start: start, Stop: "+", ByLex: true, Count: int64(want)}).Result()
		if err != nil {
			return nil, fmt.Errorf("mcpredis: list tasks: %w", err)
		}
		if len(ids) == 0 {
			break
		}
		pipe := s.rdb.Pipeline()
		gets := make([]*redis.StringCmd, len(ids))
		for i, id := range ids {
			gets[i] = pipe.HGet(ctx, s.key(id), "t")
		}
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return nil, fmt.Errorf("mcpredis: list tasks: %w", err)
		}
		var gone []any
		for i, g := range gets {
			b, err := g.Bytes()
			if errors.Is(err, redis.Nil) {
				gone = append(gone, ids[i])
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("mcpredis: list tasks: %w", err)
			}
			var t taskstore.Task
			if err := json.Unmarshal(b, &t); err != nil {
				return nil, fmt.Errorf("mcpredis: task %s: %w", ids[i], err)
			}
			out = append(out, t)
		}
		if len(gone) > 0 {
			_ = s.rdb.ZRem(ctx, key, gone...).Err()
		}
		if len(ids) < want {
			break
		}
		start = "(" + ids[len(ids)-1]
	}
	return out, nil
}

func expireAt(t taskstore.Task) int64 {
	if t.ExpiresAt.IsZero() {
		return 0
	}
	return max(1, t.ExpiresAt.UnixMilli())
}

// Get implements taskstore.Store.
func (s *TaskStore) Get(ctx context.Context, id string) (taskstore.Task, error) {
	b, err := s.rdb.HGet(ctx, s.key(id), "t").Bytes()
	if errors.Is(err, redis.Nil) {
		return taskstore.Task{}, taskstore.ErrNotFound
	}
	if err != nil {
		return taskstore.Task{}, fmt.Errorf("mcpredis: get task: %w", err)
	}
	var t taskstore.Task
	if err := json.Unmarshal(b, &t); err != nil {
		return taskstore.Task{}, fmt.Errorf("mcpredis: task %s: %w", id, err)
	}
	return t, nil
}

// updateTask: -1 not found, 0 version conflict, 1 stored (and published).
var updateTask = redis.NewScript(`
local v = redis.call("HGET", KEYS[1], "v")
if not v then return -1 end
if v ~= ARGV[1] then return 0 end
redis.call("HSET", KEYS[1], "v", tonumber(ARGV[1]) + 1, "t", ARGV[2])
if tonumber(ARGV[3]) > 0 then
  redis.call("PEXPIREAT", KEYS[1], ARGV[3])
else
  redis.call("PERSIST", KEYS[1])
end
redis.call("PUBLISH", ARGV[4], "")
return 1
`)

// Update implements taskstore.Store.
func (s *TaskStore) Update(ctx context.Context, t taskstore.Task) (taskstore.Task, error) {
	old := t.Version
	t.Version++
	b, err := json.Marshal(t)
	if err != nil {
		return taskstore.Task{}, fmt.Errorf("mcpredis: task %s: %w", t.ID, err)
	}
	n, err := updateTask.Run(ctx, s.rdb, []string{s.key(t.ID)}, old, b, expireAt(t), s.prefix+t.ID).Int()
	switch {
	case err != nil:
		return taskstore.Task{}, fmt.Errorf("mcpredis: update task: %w", err)
	case n < 0:
		return taskstore.Task{}, taskstore.ErrNotFound
	case n == 0:
		return taskstore.Task{}, taskstore.ErrConflict
	}
	// The caller's maps are not kept: give back a copy of what was stored.
	var out taskstore.Task
	if err := json.Unmarshal(b, &out); err != nil {
		return taskstore.Task{}, fmt.Errorf("mcpredis: task %s: %w", t.ID, err)
	}
	return out, nil
}

// Watch implements taskstore.Store.
func (s *TaskStore) Watch(ctx context.Context, id string) (<-chan struct{}, error) {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	set := s.watches[id]
	if set == nil {
		set = map[chan struct{}]struct{}{}
		s.watches[id] = set
	}
	set[ch] = struct{}{}
	s.mu.Unlock()
	go func() {
		<-ctx.Done()
		s.mu.Lock()
		// ch is in the current set: a set leaves the map only when empty.
		if cur := s.watches[id]; cur != nil {
			delete(cur, ch)
			if len(cur) == 0 {
				delete(s.watches, id)
			}
		}
		close(ch)
		s.mu.Unlock()
	}()
	return ch, nil
}

func (s *TaskStore) close() {
	_ = s.ps.Close()
	<-s.done
}

var (
	_ taskstore.Store  = (*TaskStore)(nil)
	_ taskstore.Lister = (*TaskStore)(nil)
)
