package mcpredis_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
	"github.com/mcpgen/mcpgen/mcptool"
)

// replica is a registry wired to the cluster state, with a rate-limited
// tool and a capped one.
func replica(t *testing.T, c *mcpredis.Cluster, gate <-chan struct{}, entered chan<- struct{}) *mcptool.Registry {
	t.Helper()
	reg := mcptool.NewRegistry(c.RegistryOptions()...)
	if err := reg.Add("limited", func(context.Context) (string, error) { return "ok", nil }, mcptool.RateLimit(20.0/60, 20)); err != nil {
		t.Fatal(err)
	}
	if err := reg.Add("capped", func(ctx context.Context) (string, error) {
		if entered != nil {
			entered <- struct{}{}
		}
		select {
		case <-gate:
		case <-ctx.Done():
		}
		return "ok", nil
	}, mcptool.MaxConcurrency(2)); err != nil {
		t.Fatal(err)
	}
	return reg
}

// Two replicas' registries share a tool's rate limit: 60 calls spread over
// both are allowed 20 times, and the refusals say when to retry.
func TestRegistriesShareRateLimit(t *testing.T) {
	srv := startRedis(t)
	regs := []*mcptool.Registry{replica(t, open(t, srv, nil), nil, nil), replica(t, open(t, srv, nil), nil, nil)}
	allowed := 0
	for i := range 60 {
		res, err := regs[i%2].Call(context.Background(), "limited", nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError {
			allowed++
		} else if msg := resultText(res); !strings.Contains(msg, "retry in") {
			t.Fatalf("refusal %q does not say when to retry", msg)
		}
	}
	if allowed < 20 || allowed > 21 {
		t.Fatalf("allowed %d of 60 calls across two replicas; want 20 (±1)", allowed)
	}
}

// Two replicas' registries share a tool's concurrency cap of 2.
func TestRegistriesShareConcurrencyCap(t *testing.T) {
	srv := startRedis(t)
	gate, entered := make(chan struct{}), make(chan struct{}, 2)
	a, b := replica(t, open(t, srv, nil), gate, entered), replica(t, open(t, srv, nil), gate, entered)
	var wg sync.WaitGroup
	for _, reg := range []*mcptool.Registry{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if res, err := reg.Call(context.Background(), "capped", nil); err != nil || res.IsError {
				t.Errorf("a call within the cap: %v %s", err, resultText(res))
			}
		}()
	}
	// Once both calls are inside the tool, holding the two slots, a third
	// call is refused on either replica. (The probes have a deadline so that
	// a broken cap shows as a failure, not a hang.)
	for range 2 {
		select {
		case <-entered:
		case <-time.After(10 * time.Second):
			t.Fatal("the two calls within the cap did not start")
		}
	}
	for _, reg := range []*mcptool.Registry{a, b} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		res, err := reg.Call(ctx, "capped", nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || !strings.Contains(resultText(res), "already running 2 calls") {
			t.Fatalf("a third call over the cap of 2 held on two replicas was not refused: %s", resultText(res))
		}
	}
	close(gate)
	wg.Wait()
	if res, _ := b.Call(context.Background(), "capped", nil); res.IsError {
		t.Fatalf("after the calls ended the cap was still taken: %s", resultText(res))
	}
}

// With Redis down a limited tool fails with an internal error, fast;
// when Redis is back it works again.
func TestRegistryWithRedisDown(t *testing.T) {
	srv := startRedis(t)
	reg := replica(t, open(t, srv, nil), nil, nil)
	srv.stop()
	start := time.Now()
	res, err := reg.Call(context.Background(), "limited", nil)
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "internal error") {
		t.Fatalf("with Redis down: %v %s", err, resultText(res))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("failing took %v", d)
	}
	srv.start(t)
	if res, err := reg.Call(context.Background(), "limited", nil); err != nil || res.IsError {
		t.Fatalf("after Redis restarted: %v %s", err, resultText(res))
	}
}
