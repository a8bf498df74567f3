package mcpredis_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
	"github.com/mcpgen/mcpgen/mcptool"
)

// confirmReplica serves a registry on c with a tool that asks for
// confirmation, to a 2026-07-28 client that answers input requests itself.
func confirmReplica(t *testing.T, c *mcpredis.Cluster, runs *atomic.Int32) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	reg := mcptool.NewRegistry(c.RegistryOptions()...)
	if err := reg.Add("delete_file", func(context.Context) (string, error) {
		runs.Add(1)
		return "deleted", nil
	}, mcptool.Description("Deletes a file."), mcptool.Confirm()); err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// A confirmation answered on one replica and replayed on another is asked
// again there, and the tool does not run twice.
func TestSpentStateAcrossReplicas(t *testing.T) {
	srv := startRedis(t)
	var runsA, runsB atomic.Int32
	a := confirmReplica(t, open(t, srv, nil), &runsA)
	b := confirmReplica(t, open(t, srv, nil), &runsB)
	ctx := context.Background()
	first, err := a.CallTool(ctx, &mcp.CallToolParams{Name: "delete_file"})
	if err != nil || !first.NeedsInput() {
		t.Fatalf("first call: %v %+v", err, first)
	}
	yes := mcp.InputResponseMap{"mcpgen.confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}}
	answered := &mcp.CallToolParams{Name: "delete_file", RequestState: first.RequestState, InputResponses: yes}
	res, err := a.CallTool(ctx, answered)
	if err != nil || res.NeedsInput() || resultText(res) != "deleted" {
		t.Fatalf("answered: %v %+v", err, res)
	}
	for _, replica := range []*mcp.ClientSession{b, a} {
		res, err = replica.CallTool(ctx, answered)
		if err != nil {
			t.Fatal(err)
		}
		if !res.NeedsInput() {
			t.Fatalf("a replayed confirmation was not asked again: %+v", res)
		}
	}
	if runsA.Load() != 1 || runsB.Load() != 0 {
		t.Fatalf("runs: a %d, b %d; want 1 and 0", runsA.Load(), runsB.Load())
	}
}

// The spent mark expires with the state, in Redis.
func TestSpentStoreExpires(t *testing.T) {
	srv := startRedis(t)
	c := open(t, srv, &mcpredis.Options{Prefix: "spent-test:"})
	ctx := context.Background()
	s := c.SpentStore()
	for i, want := range []bool{true, false} {
		first, err := s.Spend(ctx, "state-1", time.Now().Add(time.Minute))
		if err != nil || first != want {
			t.Fatalf("spend %d: %v, %v; want %v", i, first, err, want)
		}
	}
	ttl, err := c.Client().TTL(ctx, "spent-test:spent:state-1").Result()
	if err != nil || ttl <= 0 || ttl > time.Minute {
		t.Fatalf("TTL %v, %v: want within a minute", ttl, err)
	}
}
