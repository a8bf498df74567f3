package cluster_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// load runs n 2026-07-28 clients calling tool in a loop until stop is
// closed; each call is bounded by perCall. It returns a function that
// waits for them and reports the calls made and failed, by whether they
// started before or after since() became non-zero.
type loadResult struct {
	calls, failedBefore, failedAfter atomic.Int64
	maxLatency                       atomic.Int64
	firstErr                         atomic.Value
}

func runLoad(t *testing.T, c *cluster, n int, tool string, args map[string]any, perCall time.Duration, after *atomic.Bool, stop <-chan struct{}) (*loadResult, func()) {
	r := &loadResult{}
	var wg sync.WaitGroup
	for range n {
		cs := c.connect(t, "", nil, nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				counted := after.Load()
				ctx, cancel := context.WithTimeout(context.Background(), perCall)
				start := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
				cancel()
				if d := time.Since(start); d.Nanoseconds() > r.maxLatency.Load() {
					r.maxLatency.Store(d.Nanoseconds())
				}
				r.calls.Add(1)
				if err != nil || res.IsError {
					if counted {
						r.failedAfter.Add(1)
						r.firstErr.CompareAndSwap(nil, errOr(err, text(res)))
					} else {
						r.failedBefore.Add(1)
					}
				}
				time.Sleep(5 * time.Millisecond) // bounded load: ~200 calls/s per client at most
			}
		}()
	}
	return r, wg.Wait
}

// e. SIGKILL one replica under load. Once HAProxy's health checks (every
// 500 ms, down after 2 failures) have taken it out, no stateless call
// fails; a 2025-era session that lived on it gets 404 (an error on the
// client), and the client initializes again on another replica.
func TestReplicaKilledUnderLoad(t *testing.T) {
	c := startCluster(t, "conformance")
	sb := &servedBy{}
	old := c.connect(t, "2025-11-25", sb, nil)
	if res, err := old.CallTool(context.Background(), &mcp.CallToolParams{Name: "test_simple_text"}); err != nil || res.IsError {
		t.Fatalf("2025-era call: %v", err)
	}
	victim := map[string]int{"r1": 0, "r2": 1, "r3": 2}[sb.lastServer()]

	var after atomic.Bool
	stop := make(chan struct{})
	r, wait := runLoad(t, c, 8, "test_simple_text", nil, 10*time.Second, &after, stop)
	time.Sleep(500 * time.Millisecond)
	c.kill(victim)
	time.Sleep(2 * time.Second) // two failed checks 500 ms apart, and margin
	after.Store(true)
	time.Sleep(2 * time.Second)
	close(stop)
	wait()
	t.Logf("calls: %d; failed while the replica was being detected: %d; after: %d", r.calls.Load(), r.failedBefore.Load(), r.failedAfter.Load())
	if n := r.failedAfter.Load(); n > 0 {
		t.Fatalf("%d stateless calls failed after HAProxy marked the killed replica down; first: %v", n, r.firstErr.Load())
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := old.CallTool(ctx, &mcp.CallToolParams{Name: "test_simple_text"})
	// Another replica answers 404 for the unknown session. The client learns
	// it from this call (go-sdk's ErrSessionMissing), or first from its
	// standalone SSE stream, which closes the client (ErrConnectionClosed).
	if !errors.Is(err, mcp.ErrSessionMissing) && !errors.Is(err, mcp.ErrConnectionClosed) {
		t.Fatalf("a session of the killed replica: err = %v, want ErrSessionMissing or ErrConnectionClosed", err)
	}
	// Either way, what the load balancer answers for the session is 404.
	body := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.url(), body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Mcp-Session-Id", old.ID())
	resp, err := c.httpClient(nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a request in the killed replica's session got %s, want 404", resp.Status)
	}
	fresh := c.connect(t, "2025-11-25", sb, nil)
	if res, err := fresh.CallTool(ctx, &mcp.CallToolParams{Name: "test_simple_text"}); err != nil || res.IsError {
		t.Fatalf("a new session after the replica died: %v", err)
	}
}

// f. Redis restarted under load: calls that need Redis (a rate-limited
// tool, a 2025-era session's stream) fail fast with a clear error, none
// hangs or crashes a replica; once Redis is back, everything works without
// restarting a replica.
func TestRedisRestartedUnderLoad(t *testing.T) {
	c := startCluster(t, "demo", "-github-url", "http://127.0.0.1:1")
	var after atomic.Bool
	stop := make(chan struct{})
	r, wait := runLoad(t, c, 4, "calculate_sum", map[string]any{"a": 1, "b": 2}, 10*time.Second, &after, stop)
	limited := c.connect(t, "", nil, nil)
	issue := &mcp.CallToolParams{Name: "github_create_issue", Arguments: map[string]any{"repo": "octocat/hello-world", "title": "t"}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	time.Sleep(300 * time.Millisecond)
	c.stopRedis()

	// The rate-limited tool cannot check its limit: an isError result
	// (an internal error with a reference; the replica logs the cause).
	start := time.Now()
	res, err := limited.CallTool(ctx, issue)
	if err != nil || !res.IsError || !strings.Contains(text(res), "internal error") {
		t.Errorf("a rate-limited call with Redis down: %v %q; want an isError internal error", err, text(res))
	}
	// A 2025-era session needs Redis for its stream events.
	func() {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx,
			&mcp.StreamableClientTransport{Endpoint: c.url(), HTTPClient: c.httpClient(nil)}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err == nil {
			_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "calculate_sum", Arguments: map[string]any{"a": 1, "b": 2}})
			_ = cs.Close()
		}
	}()
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("calls that need Redis took %v with Redis down: they should fail fast", d)
	}
	time.Sleep(time.Second)
	c.startRedis()
	time.Sleep(500 * time.Millisecond)
	after.Store(true)
	time.Sleep(time.Second)
	close(stop)
	wait()
	t.Logf("calls: %d, failed during the outage: %d, after: %d, slowest: %v", r.calls.Load(), r.failedBefore.Load(), r.failedAfter.Load(), time.Duration(r.maxLatency.Load()))
	if n := r.failedAfter.Load(); n > 0 {
		t.Fatalf("%d calls failed after Redis was back; first: %v", n, r.firstErr.Load())
	}
	if d := time.Duration(r.maxLatency.Load()); d > 5*time.Second {
		t.Fatalf("a call took %v while Redis restarted: calls must fail fast, not hang", d)
	}
	for i, p := range c.replicas {
		if p == nil || p.ProcessState != nil {
			t.Fatalf("replica %d exited", i+1)
		}
	}
	// The rate-limited tool works again on every replica, and so do new
	// 2025-era sessions.
	for range 3 {
		res, err := limited.CallTool(ctx, issue)
		if err != nil || strings.Contains(text(res), "internal error") || strings.Contains(text(res), "rate limit") {
			t.Fatalf("a rate-limited call after Redis came back: %v %q", err, text(res))
		}
	}
	sb := &servedBy{}
	for range 6 {
		cs := c.connect(t, "2025-11-25", sb, nil)
		if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "calculate_sum", Arguments: map[string]any{"a": 1, "b": 2}}); err != nil || res.IsError {
			t.Fatalf("2025-era call after Redis came back: %v", err)
		}
	}
	if n := len(sb.counts()); n != 3 {
		t.Fatalf("new sessions reached %v: want all three replicas", sb.counts())
	}
}
