package cluster_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// a. 64 concurrent 2026-07-28 clients make 200 calls each through HAProxy:
// no call fails, and every replica serves some.
func TestLoadRoundRobin(t *testing.T) {
	c := startCluster(t, "conformance")
	const clients, calls = 64, 200
	sb := &servedBy{}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var failed atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	for range clients {
		cs := c.connect(t, "", sb, nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "test_simple_text"})
				if err != nil || res.IsError {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, errOr(err, text(res)))
				}
			}
		}()
	}
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Fatalf("%d of %d calls failed; first: %v", n, clients*calls, firstErr.Load())
	}
	counts := sb.counts()
	t.Logf("requests per replica: %v", counts)
	for _, r := range []string{"r1", "r2", "r3"} {
		if counts[r] < clients*calls/10 {
			t.Errorf("replica %s served %d requests; round robin should give each about a third", r, counts[r])
		}
	}
}

func errOr(err error, s string) any {
	if err != nil {
		return err.Error()
	}
	return "isError: " + s
}

// c. A 2026-07-28 input round trip whose second leg lands on another
// replica completes: the requestState sealed by one replica opens on
// another (they share MCPGEN_STATE_KEY), and is spent on all of them.
func TestInputRoundTripAcrossReplicas(t *testing.T) {
	c := startCluster(t, "conformance")
	sb := &servedBy{}
	cs := c.connect(t, "", sb, &mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true}, // two visible legs
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
	})
	ctx := context.Background()
	const tool = "test_input_required_result_request_state"
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool})
	if err != nil || !first.NeedsInput() {
		t.Fatalf("first leg: %v, %v", err, first)
	}
	firstBy := sb.lastServer()
	var key string
	for k := range first.InputRequests {
		key = k
	}
	final, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Name:           tool,
		InputResponses: mcp.InputResponseMap{key: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}},
		RequestState:   first.RequestState,
	})
	secondBy := sb.lastServer()
	if err != nil || final.IsError {
		t.Fatalf("second leg (on %s; first on %s): %v %q", secondBy, firstBy, err, text(final))
	}
	if firstBy == secondBy || firstBy == "" {
		t.Fatalf("both legs were served by %q: the test proves nothing", firstBy)
	}
	if !strings.Contains(text(final), "state-ok") {
		t.Fatalf("second leg: %q, want state-ok", text(final))
	}
	// The answered request replayed, on whichever replicas it lands: the
	// state was spent cluster-wide, so every replica asks again.
	for range 3 {
		again, err := cs.CallTool(ctx, &mcp.CallToolParams{
			Name:           tool,
			InputResponses: mcp.InputResponseMap{key: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"ok": true}}},
			RequestState:   first.RequestState,
		})
		if err != nil || !again.NeedsInput() {
			t.Fatalf("a replay on %s was answered: %v %q", sb.lastServer(), err, text(again))
		}
	}
}

// g. A 2025-era call whose SSE stream the server closes mid-call (SEP-1699)
// completes: the client resumes the stream with Last-Event-ID, HAProxy's
// stick table sends it to the session's replica, and the replica replays
// the missed events from the Redis event store.
func TestStreamResumedThroughRedis(t *testing.T) {
	c := startCluster(t, "conformance")
	sb := &servedBy{}
	cs := c.connect(t, "2025-11-25", sb, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "test_reconnection"})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %q", err, text(res))
	}
	if n := len(sb.counts()); n != 1 {
		t.Fatalf("the session's requests reached %d replicas: %v; the stick table should keep them on one", n, sb.counts())
	}
	// The events are in Redis, under the session's ID.
	out, err := redisCLI(c, "--scan", "--pattern", "mcpgen:ev:{"+cs.ID()+"}:*")
	if err != nil || !strings.Contains(out, ":data") {
		t.Fatalf("no stream events of session %s in Redis: %v %q", cs.ID(), err, out)
	}
}
