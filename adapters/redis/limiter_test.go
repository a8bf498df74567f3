package mcpredis_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
)

// Two replicas share one rate limit of 20 a minute: 60 calls spread over
// both are allowed 20 times, and the refusals say when to retry.
func TestRateLimitIsClusterWide(t *testing.T) {
	srv := startRedis(t)
	a, b := open(t, srv, nil), open(t, srv, nil)
	ctx := context.Background()
	var allowed atomic.Int32
	var wg sync.WaitGroup
	for i := range 60 {
		l := a.Limiter()
		if i%2 == 1 {
			l = b.Limiter()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, retry, err := l.Allow(ctx, "tool/t", 20.0/60, 20)
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				allowed.Add(1)
				return
			}
			// One call every 3 s: the next comes within 3 s.
			if retry <= 0 || retry > 3*time.Second {
				t.Errorf("retryAfter = %v, want in (0, 3s]", retry)
			}
		}()
	}
	wg.Wait()
	if n := allowed.Load(); n < 20 || n > 21 {
		t.Fatalf("allowed %d of 60 calls, want 20 (±1)", n)
	}
}

// Keys are separate: a session's limit does not use another's.
func TestRateLimitKeys(t *testing.T) {
	srv := startRedis(t)
	l := open(t, srv, nil).Limiter()
	ctx := context.Background()
	for _, key := range []string{"tool/t/session/a", "tool/t/session/b"} {
		for i := range 3 {
			ok, _, err := l.Allow(ctx, key, 1, 2)
			if err != nil {
				t.Fatal(err)
			}
			if want := i < 2; ok != want {
				t.Fatalf("%s call %d: ok = %v, want %v", key, i, ok, want)
			}
		}
	}
	if _, _, err := l.Allow(ctx, "k", 0, 1); err == nil {
		t.Fatal("a zero rate was accepted")
	}
}

// A cap of 2 holds across two replicas; a released slot is free again.
func TestConcurrencyCapIsClusterWide(t *testing.T) {
	srv := startRedis(t)
	a, b := open(t, srv, nil).Limiter(), open(t, srv, nil).Limiter()
	ctx := context.Background()
	r1, ok, err := a.Acquire(ctx, "tool/c", 2)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	r2, ok, err := b.Acquire(ctx, "tool/c", 2)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if _, ok, _ := a.Acquire(ctx, "tool/c", 2); ok {
		t.Fatal("a third slot of 2 was granted")
	}
	if _, ok, _ := b.Acquire(ctx, "tool/other", 2); !ok {
		t.Fatal("another tool's cap was taken by this one")
	}
	r1()
	r1() // twice is harmless
	r3, ok, _ := b.Acquire(ctx, "tool/c", 2)
	if !ok {
		t.Fatal("the released slot was not free again")
	}
	r2()
	r3()
}

// A slot held by a replica that died is freed when its lease expires; a
// slot held by a live replica is kept past the lease time by its heartbeat.
func TestConcurrencyLeases(t *testing.T) {
	srv := startRedis(t)
	ctx := context.Background()
	const ttl = 600 * time.Millisecond
	live := open(t, srv, &mcpredis.Options{LeaseTTL: ttl})
	other := open(t, srv, &mcpredis.Options{LeaseTTL: ttl})
	dead, err := mcpredis.Open(ctx, srv.URL(), &mcpredis.Options{LeaseTTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := dead.Limiter().Acquire(ctx, "tool/d", 1); !ok {
		t.Fatal("first acquire refused")
	}
	if _, ok, _ := live.Limiter().Acquire(ctx, "tool/l", 1); !ok {
		t.Fatal("first acquire refused")
	}
	dead.Close() // stops renewing without releasing: as if killed
	if _, ok, _ := other.Limiter().Acquire(ctx, "tool/d", 1); ok {
		t.Fatal("the dead replica's slot was free before its lease expired")
	}
	time.Sleep(3 * ttl)
	if _, ok, _ := other.Limiter().Acquire(ctx, "tool/d", 1); !ok {
		t.Fatal("the dead replica's slot was still taken after its lease expired")
	}
	if _, ok, _ := other.Limiter().Acquire(ctx, "tool/l", 1); ok {
		t.Fatal("a live replica's slot was lost after the lease time: the heartbeat did not renew it")
	}
}

// With Redis gone, calls fail fast with an error; once it is back they
// work again with the same Cluster.
func TestRedisRestart(t *testing.T) {
	srv := startRedis(t)
	c := open(t, srv, nil)
	ctx := context.Background()
	if _, _, err := c.Limiter().Allow(ctx, "tool/r", 100, 100); err != nil {
		t.Fatal(err)
	}
	srv.stop()
	start := time.Now()
	if _, _, err := c.Limiter().Allow(ctx, "tool/r", 100, 100); err == nil {
		t.Fatal("no error with Redis down")
	}
	if _, _, err := c.Limiter().Acquire(ctx, "tool/r", 1); err == nil {
		t.Fatal("no error with Redis down")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("failing took %v; want fast failure", d)
	}
	srv.start(t)
	if _, _, err := c.Limiter().Allow(ctx, "tool/r", 100, 100); err != nil {
		t.Fatalf("after Redis restarted: %v", err)
	}
}
