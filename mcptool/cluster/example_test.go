package cluster_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/cluster"
)

// quota is a Limiter that gives each rate-limited key burst calls and no
// more, and counts its slots: the shape of one on shared storage, where
// each method is one round trip.
type quota struct {
	mu    sync.Mutex
	spent map[string]int
	slots map[string]int
}

var _ cluster.Limiter = (*quota)(nil)

func (q *quota) Allow(_ context.Context, key string, _ float64, burst int) (bool, time.Duration, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.spent[key] >= burst {
		return false, time.Minute, nil
	}
	q.spent[key]++
	return true, 0, nil
}

func (q *quota) Acquire(_ context.Context, key string, n int) (func(), bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.slots[key] >= n {
		return nil, false, nil
	}
	q.slots[key]++
	return func() { q.mu.Lock(); q.slots[key]--; q.mu.Unlock() }, true, nil
}

// A registry keeps its tools' rate limits in the Limiter given with
// mcptool.Limits: here a quota of two calls, whose third call is refused
// with an isError result the model can act on.
func ExampleLimiter() {
	q := &quota{spent: map[string]int{}, slots: map[string]int{}}
	reg := mcptool.NewRegistry(mcptool.Limits(q))
	err := reg.Add("greet", func(ctx context.Context, in struct {
		Name string `json:"name"`
	}) (string, error) {
		return "hello, " + in.Name, nil
	}, mcptool.Description("Greets."), mcptool.RateLimit(1, 2))
	if err != nil {
		panic(err)
	}
	for range 3 {
		res, err := reg.Call(context.Background(), "greet", json.RawMessage(`{"name":"ada"}`))
		if err != nil {
			panic(err)
		}
		fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	}
	fmt.Println(q.spent)
	// Output:
	// false hello, ada
	// false hello, ada
	// true rate limit exceeded for tool greet: retry in 1m0s
	// map[tool/greet:2]
}

// spent is an in-memory SpentStore; replicas would share one on storage
// they all reach (adapters/redis: one key per id, SET NX with the expiry).
type spent struct {
	mu  sync.Mutex
	ids map[string]time.Time
}

func (s *spent) Spend(_ context.Context, id string, expires time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if exp, ok := s.ids[id]; ok && time.Now().Before(exp) {
		return false, nil
	}
	s.ids[id] = expires
	return true, nil
}

// A SpentStore answers each requestState id once until it expires: the
// second Spend of an id is false, so a replayed answer is not trusted.
// mcptool.SpentStates gives it to a registry.
func ExampleSpentStore() {
	var s cluster.SpentStore = &spent{ids: map[string]time.Time{}}
	_ = mcptool.NewRegistry(mcptool.SpentStates(s))

	ctx := context.Background()
	expires := time.Now().Add(30 * time.Minute)
	first, _ := s.Spend(ctx, "state-1", expires)
	again, _ := s.Spend(ctx, "state-1", expires)
	other, _ := s.Spend(ctx, "state-2", expires)
	fmt.Println(first, again, other)
	// Output:
	// true false true
}

// LocalSpent is the in-process SpentStore: an id is spent once within its
// lifetime, and a full store refuses rather than forget.
func ExampleLocalSpent() {
	ctx := context.Background()
	s := cluster.LocalSpent(1)
	later := time.Now().Add(time.Minute)
	first, _ := s.Spend(ctx, "state-1", later)
	again, _ := s.Spend(ctx, "state-1", later)
	_, err := s.Spend(ctx, "state-2", later)
	fmt.Println(first, again, errors.Is(err, cluster.ErrSpentFull))
	// Output: true false true
}
