package mcpredis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"

	"github.com/mcpgen/mcpgen/mcptool/cluster"
)

// Limiter keeps a registry's rate limits and concurrency caps in Redis, so
// that they hold across every replica that shares the Redis server. It
// implements cluster.Limiter.
//
// Rate limits use the GCRA of github.com/go-redis/redis_rate: one key per
// limited thing (a tool, a tool and session, a tool and principal), checked
// and updated atomically by one script on Redis's clock, so replicas with
// skewed clocks agree.
//
// Concurrency caps are leases: each running call holds a member of a sorted
// set whose score is the lease's expiry, renewed by a heartbeat every third
// of the lease time while the call runs, and removed when it ends. A
// replica that dies (SIGKILL, a lost network) stops renewing; its slots are
// counted as taken until their leases expire, at most [Options.LeaseTTL]
// later, and then freed by the next acquire on that key. A cap can thus be
// under-used for up to one lease time after a crash, never exceeded.
type Limiter struct {
	rdb    redis.UniversalClient
	rate   *redis_rate.Limiter
	prefix string
	ttl    time.Duration
	owner  string // this process, in lease members

	mu     sync.Mutex
	leases map[string]string // member → sorted-set key
	stop   chan struct{}
	done   chan struct{}
}

var _ cluster.Limiter = (*Limiter)(nil)

func newLimiter(rdb redis.UniversalClient, prefix string, ttl time.Duration) *Limiter {
	var b [8]byte
	_, _ = rand.Read(b[:])
	l := &Limiter{
		rdb:    rdb,
		rate:   redis_rate.NewLimiter(rdb),
		prefix: prefix,
		ttl:    ttl,
		owner:  hex.EncodeToString(b[:]),
		leases: map[string]string{},
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	go l.heartbeat()
	return l
}

// Allow takes one call from the rate limit key: perSecond calls per second
// in bursts of up to burst, shared by all replicas. When none is left it
// returns false and how long until one is.
func (l *Limiter) Allow(ctx context.Context, key string, perSecond float64, burst int) (bool, time.Duration, error) {
	if perSecond <= 0 || math.IsInf(perSecond, 0) || math.IsNaN(perSecond) {
		return false, 0, fmt.Errorf("mcpredis: rate %v for %s: want a positive number of calls per second", perSecond, key)
	}
	// redis_rate counts whole calls per period: one call per emission
	// interval, which is exact for any rate (20/m is one call per 3s).
	lim := redis_rate.Limit{Rate: 1, Period: time.Duration(float64(time.Second) / perSecond), Burst: max(1, burst)}
	res, err := l.rate.Allow(ctx, l.prefix+key, lim)
	if err != nil {
		return false, 0, fmt.Errorf("mcpredis: rate limit %s: %w", key, err)
	}
	if res.Allowed > 0 {
		return true, 0, nil
	}
	return false, res.RetryAfter, nil
}

// acquire takes a slot when fewer than n unexpired leases are held. It
// returns 1, or 0 and the milliseconds until the earliest lease expires.
var acquire = redis.NewScript(`
local t = redis.call("TIME")
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", now)
if redis.call("ZCARD", KEYS[1]) >= tonumber(ARGV[1]) then
  local first = redis.call("ZRANGE", KEYS[1], 0, 0, "WITHSCORES")
  return {0, tonumber(first[2]) - now}
end
redis.call("ZADD", KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call("PEXPIRE", KEYS[1], tonumber(ARGV[3]) * 2)
return {1, 0}
`)

// renew extends a lease on Redis's clock. XX: it never re-adds a lease that
// was released or expired meanwhile.
var renew = redis.NewScript(`
local t = redis.call("TIME")
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call("ZADD", KEYS[1], "XX", now + tonumber(ARGV[2]), ARGV[1])
redis.call("PEXPIRE", KEYS[1], tonumber(ARGV[2]) * 2)
return 1
`)

// Acquire takes one of the n slots of key across all replicas, or returns
// false when all are taken. The slot is a lease renewed while it is held;
// release gives it back (it may be called after ctx is done, and more than
// once).
func (l *Limiter) Acquire(ctx context.Context, key string, n int) (func(), bool, error) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	member := l.owner + ":" + hex.EncodeToString(b[:])
	zkey := l.prefix + "slots:" + key
	res, err := acquire.Run(ctx, l.rdb, []string{zkey}, n, member, l.ttl.Milliseconds()).Int64Slice()
	if err != nil {
		return nil, false, fmt.Errorf("mcpredis: concurrency cap %s: %w", key, err)
	}
	if res[0] == 0 {
		return nil, false, nil
	}
	l.mu.Lock()
	l.leases[member] = zkey
	l.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			delete(l.leases, member)
			l.mu.Unlock()
			// A fresh context: the call's may be done. If Redis is
			// unreachable the lease expires by itself.
			rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_ = l.rdb.ZRem(rctx, zkey, member).Err()
		})
	}, true, nil
}

// heartbeat renews the held leases every third of the lease time.
func (l *Limiter) heartbeat() {
	defer close(l.done)
	t := time.NewTicker(l.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		l.mu.Lock()
		held := make(map[string]string, len(l.leases))
		for m, k := range l.leases {
			held[m] = k
		}
		l.mu.Unlock()
		if len(held) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), l.ttl/3)
		_, _ = l.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			for m, k := range held {
				renew.Eval(ctx, p, []string{k}, m, l.ttl.Milliseconds())
			}
			return nil
		}) // on failure the next tick retries
		cancel()
	}
}

// close stops the heartbeat; leases still held expire by themselves.
func (l *Limiter) close() {
	close(l.stop)
	<-l.done
}
