package mcptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpgen/mcpgen/mcptool"
)

type ccEcho struct {
	ID      string `json:"id" validate:"required"`
	Session int    `json:"session"`
	Seq     int    `json:"seq"`
	Pad     string `json:"pad,omitempty"`
}

type ccTimeoutArgs struct {
	_ struct{} `mcp:"timeout=20ms"`
	N int      `json:"n,omitempty"`
}

type ccBlockArgs struct {
	N int `json:"n,omitempty"`
}

// ccSession is one client session of the stress test, with what closes it.
type ccSession struct {
	name  string
	cs    *mcp.ClientSession
	close func()
}

// TestConcurrentCallsWhileToolsChange drives thousands of concurrent calls
// from four client sessions (in memory and over HTTP, both protocol eras)
// while other goroutines add and remove tools, one called tool is removed and
// re-added, calls hit timeout policies and clients cancel calls. Every echo
// response must answer its own request, exactly once; when everything is
// closed, no goroutine may be left behind.
func TestConcurrentCallsWhileToolsChange(t *testing.T) {
	// Goroutines that other tests of the package left running (their servers
	// are closed by t.Cleanup, some tools of theirs wait on timers) are not
	// this test's: snapshot them so only goroutines started here count. No
	// IgnoreTopFunction is needed: goleak already skips the testing and
	// runtime goroutines, go-sdk keeps no long-lived goroutine once its
	// sessions are closed, and this test closes its own HTTP server and the
	// idle connections of its own client transport.
	before := goleak.IgnoreCurrent()

	const (
		sessions      = 4
		callsPer      = 500
		workersPer    = 25
		timeoutsPer   = 10
		cancelsPer    = 10
		flakyCallsPer = 40
	)
	reg := mcptool.NewRegistry(quiet())
	require.NoError(t, reg.Add("echo", func(_ context.Context, in ccEcho) (ccEcho, error) { return in, nil }, mcptool.Description("Echo.")))

	// Timeouts: one tool honours its context, one ignores it for a while
	// (its goroutine must still end once it returns).
	var politeDone, stubbornDone atomic.Int64
	require.NoError(t, reg.Add("polite_timeout", func(ctx context.Context, _ ccTimeoutArgs) (string, error) {
		<-ctx.Done()
		politeDone.Add(1)
		return "", ctx.Err()
	}, mcptool.Description("Times out, politely.")))
	require.NoError(t, reg.Add("stubborn_timeout", func(context.Context, ccTimeoutArgs) (string, error) {
		time.Sleep(500 * time.Millisecond) // ignores ctx, long past the 20ms timeout even on a loaded machine
		stubbornDone.Add(1)
		return "late", nil
	}, mcptool.Description("Times out, stubbornly.")))

	// Cancels: the tool waits until its call is cancelled (or the test ends,
	// so a lost cancellation shows as a count mismatch, not a hang).
	stop := make(chan struct{})
	var blockStarted, blockCancelled atomic.Int64
	var blockMu sync.Mutex
	blockPending := map[int]bool{} // n → started and not yet cancelled
	require.NoError(t, reg.Add("block", func(ctx context.Context, in ccBlockArgs) (string, error) {
		blockStarted.Add(1)
		blockMu.Lock()
		blockPending[in.N] = true
		blockMu.Unlock()
		select {
		case <-ctx.Done():
			blockMu.Lock()
			delete(blockPending, in.N)
			blockMu.Unlock()
			blockCancelled.Add(1)
			return "", ctx.Err()
		case <-stop:
			return "not cancelled", nil
		}
	}, mcptool.Description("Blocks until cancelled.")))

	addFlaky := func() error {
		return reg.Add("flaky", func(_ context.Context, in ccEcho) (ccEcho, error) { return in, nil }, mcptool.Description("Comes and goes."))
	}
	require.NoError(t, addFlaky())

	srv := reg.Server(&mcp.Implementation{Name: "stress", Version: "1"}, nil)
	hs := httptest.NewServer(srv.Handler(nil))
	httpTransport := &http.Transport{}
	httpClient := &http.Client{Transport: httpTransport}

	ctx := context.Background()
	var listChanged atomic.Int64
	copts := &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { listChanged.Add(1) }}
	var all []*ccSession
	for i, spec := range []struct {
		kind    transportKind
		version string
	}{{inMemory, ""}, {inMemory, "2025-11-25"}, {overHTTP, ""}, {overHTTP, "2025-11-25"}} {
		client := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("client-%d", i), Version: "1"}, copts)
		s := &ccSession{name: spec.kind.String() + "/" + eraName(spec.version)}
		var transport mcp.Transport
		var ss *mcp.ServerSession
		if spec.kind == inMemory {
			st, ct := mcp.NewInMemoryTransports()
			var err error
			ss, err = srv.Connect(ctx, st, nil)
			require.NoError(t, err)
			transport = ct
		} else {
			transport = &mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: httpClient}
		}
		cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: spec.version})
		require.NoError(t, err)
		s.cs = cs
		s.close = func() {
			assert.NoError(t, cs.Close(), s.name)
			if ss != nil {
				_ = ss.Close()
				_ = ss.Wait()
			}
		}
		all = append(all, s)
	}
	require.Len(t, all, sessions)

	// Churn: unrelated tools come and go, and "flaky" is removed and
	// re-added, until the calls are done.
	callsDone := make(chan struct{})
	var churn sync.WaitGroup
	var churnRounds atomic.Int64
	for w := range 2 {
		churn.Add(1)
		go func() {
			defer churn.Done()
			for i := 0; ; i++ {
				select {
				case <-callsDone:
					return
				default:
				}
				name := fmt.Sprintf("extra_%d_%d", w, i%16)
				err := reg.Add(name, func() (string, error) { return name, nil }, mcptool.Description("Extra."))
				if err != nil && mcptool.CodeOf(err) != mcptool.CodeDuplicate {
					t.Errorf("Add(%s): %v", name, err)
				}
				if i%2 == 1 {
					reg.Remove(name, fmt.Sprintf("extra_%d_%d", w, (i+7)%16))
				}
				churnRounds.Add(1)
				time.Sleep(200 * time.Microsecond)
			}
		}()
	}
	churn.Add(1)
	go func() {
		defer churn.Done()
		for {
			select {
			case <-callsDone:
				if _, ok := reg.Tool("flaky"); !ok {
					assert.NoError(t, addFlaky())
				}
				return
			default:
			}
			reg.Remove("flaky")
			time.Sleep(300 * time.Microsecond)
			if err := addFlaky(); err != nil {
				t.Errorf("re-add flaky: %v", err)
			}
			time.Sleep(300 * time.Microsecond)
		}
	}()

	// Callers.
	var mu sync.Mutex
	answered := map[string]int{} // request ID → responses that carried it
	var flakyOK, flakyGone, timeouts, cancels atomic.Int64
	var callers sync.WaitGroup
	for si, s := range all {
		for w := range workersPer {
			callers.Add(1)
			go func() {
				defer callers.Done()
				for k := range callsPer / workersPer {
					seq := w*(callsPer/workersPer) + k
					in := ccEcho{ID: fmt.Sprintf("s%d-w%d-k%d", si, w, k), Session: si, Seq: seq, Pad: strings.Repeat("x", seq%37)}
					res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: in})
					if !assert.NoError(t, err, "%s echo %s", s.name, in.ID) {
						continue
					}
					var out ccEcho
					if !assert.False(t, res.IsError, "%s: %v", s.name, res.Content) ||
						!assert.NoError(t, json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out)) {
						continue
					}
					assert.Equal(t, in, out, "%s: the response answers its own request", s.name)
					mu.Lock()
					answered[out.ID]++
					mu.Unlock()
				}
			}()
		}
		// The removed-and-re-added tool: either it answers its own request,
		// or the call fails with -32602 unknown tool. Nothing else.
		callers.Add(1)
		go func() {
			defer callers.Done()
			for k := range flakyCallsPer {
				in := ccEcho{ID: fmt.Sprintf("flaky-s%d-%d", si, k), Session: si, Seq: k}
				res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "flaky", Arguments: in})
				if err != nil {
					var je *jsonrpc.Error
					if assert.True(t, errors.As(err, &je), "%s flaky: %v", s.name, err) {
						assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
						assert.Contains(t, je.Message, `unknown tool "flaky"`)
					}
					flakyGone.Add(1)
					continue
				}
				var out ccEcho
				if assert.False(t, res.IsError, "%s: %v", s.name, res.Content) &&
					assert.NoError(t, json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out)) {
					assert.Equal(t, in, out)
					flakyOK.Add(1)
				}
			}
		}()
		// Timeouts, polite and stubborn.
		callers.Add(1)
		go func() {
			defer callers.Done()
			for k := range timeoutsPer {
				name := "polite_timeout"
				if k%2 == 1 {
					name = "stubborn_timeout"
				}
				res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"n": k}})
				if assert.NoError(t, err, "%s %s", s.name, name) {
					assert.True(t, res.IsError)
					assert.Equal(t, "tool "+name+" timed out after 20ms", res.Content[0].(*mcp.TextContent).Text)
					timeouts.Add(1)
				}
			}
		}()
		// Cancels: the client gives up on a blocked call.
		callers.Add(1)
		go func() {
			defer callers.Done()
			for k := range cancelsPer {
				cctx, cancel := context.WithTimeout(ctx, time.Duration(15+k%4*10)*time.Millisecond)
				_, err := s.cs.CallTool(cctx, &mcp.CallToolParams{Name: "block", Arguments: map[string]any{"n": si*1000 + k + 1}})
				cancel()
				if assert.Error(t, err, "%s: a cancelled call fails", s.name) {
					assert.True(t, errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled), "%s: %v", s.name, err)
				}
				cancels.Add(1)
			}
		}()
		// Listing while the tool set changes.
		callers.Add(1)
		go func() {
			defer callers.Done()
			for range 20 {
				lt, err := s.cs.ListTools(ctx, nil)
				if !assert.NoError(t, err, s.name) {
					continue
				}
				names := map[string]bool{}
				for _, tl := range lt.Tools {
					assert.False(t, names[tl.Name], "%s: %s listed twice", s.name, tl.Name)
					names[tl.Name] = true
				}
				assert.True(t, names["echo"], s.name)
			}
		}()
	}
	callers.Wait()
	close(callsDone)
	churn.Wait()

	// No lost and no duplicated responses.
	require.Len(t, answered, sessions*callsPer)
	for id, n := range answered {
		if n != 1 {
			t.Errorf("request %s was answered %d times", id, n)
		}
	}
	assert.Equal(t, int64(sessions*flakyCallsPer), flakyOK.Load()+flakyGone.Load())
	assert.Equal(t, int64(sessions*timeoutsPer), timeouts.Load())
	assert.Equal(t, int64(sessions*cancelsPer), cancels.Load())
	t.Logf("churn rounds %d, list_changed notifications %d, flaky ok %d / gone %d, block calls started %d",
		churnRounds.Load(), listChanged.Load(), flakyOK.Load(), flakyGone.Load(), blockStarted.Load())

	// Every blocked call that reached its tool saw its cancellation: in
	// memory (notifications/cancelled on the same stream) and on 2026-07-28
	// HTTP (the POST is the request). On a 2025-era HTTP session the
	// notification travels in a POST of its own that can overtake the call's
	// POST; the server then ignores it (cancellation is best-effort in the
	// specification) and the tool runs on. go-sdk v1.8.0 does not cancel it
	// when the session closes either (ServerSession.Close waits for running
	// handlers; see TestSessionCloseCancelsRunningTools), so such a tool
	// ends only when it returns: here, when stop is closed.
	assert.NotZero(t, blockStarted.Load(), "some cancelled calls reached their tool")
	const bestEffort = 3 // all[3] is HTTP 2025-11-25
	require.Equal(t, "http/2025-11-25", all[bestEffort].name)
	pendingOf := func(strict bool) []int {
		var out []int
		for _, n := range ccKeys(&blockMu, blockPending) {
			if (n/1000 != bestEffort) == strict {
				out = append(out, n)
			}
		}
		return out
	}
	require.Eventually(t, func() bool { return len(pendingOf(true)) == 0 }, 5*time.Second, 10*time.Millisecond,
		"blocked calls that never saw their cancellation (session*1000+k+1): %v", pendingOf(true))
	assert.Equal(t, int64(sessions*timeoutsPer/2), politeDone.Load(), "polite tools saw their deadline")
	if lost := pendingOf(false); len(lost) > 0 {
		t.Logf("best-effort cancellations lost on %s (session*1000+k+1): %v", all[bestEffort].name, lost)
	}

	// The server still serves: after all that, every session works.
	for _, s := range all {
		res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: ccEcho{ID: "last"}})
		require.NoError(t, err, s.name)
		assert.False(t, res.IsError)
	}

	// Close everything, then look for leaks.
	close(stop)
	for _, s := range all {
		s.close()
	}
	hs.Close()
	httpTransport.CloseIdleConnections()
	require.Eventually(t, func() bool { return stubbornDone.Load() == int64(sessions*timeoutsPer/2) }, 5*time.Second, 10*time.Millisecond)
	goleak.VerifyNone(t, before)
}

// TestSessionCloseCancelsRunningTools: when a session ends from the server's
// side (ServerSession.Close, or the HTTP DELETE of a 2025-era session), the
// tools still running for it should see their context cancelled: nobody
// will read their result.
func TestSessionCloseCancelsRunningTools(t *testing.T) {
	t.Skip("go-sdk v1.8.0 (upstream, not mcpgen): jsonrpc2.Connection.Close waits for in-flight handlers without cancelling them, " +
		"so ServerSession.Close and the DELETE of a 2025-era HTTP session block until every running tool returns on its own; " +
		"only a read error (the peer vanished) cancels them. mcpgen tools without a Timeout policy can run unbounded.")
	reg := mcptool.NewRegistry(quiet())
	started := make(chan struct{})
	cancelled := make(chan struct{})
	release := make(chan struct{})
	require.NoError(t, reg.Add("block", func(ctx context.Context) (string, error) {
		close(started)
		select {
		case <-ctx.Done():
			close(cancelled)
		case <-release:
		}
		return "", nil
	}))
	srv := reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	defer func() {
		close(release)
		_ = cs.Close()
	}()
	go func() { _, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "block"}) }()
	<-started
	go func() { _ = ss.Close() }()
	select {
	case <-cancelled:
	case <-time.After(3 * time.Second):
		t.Fatal("closing the session did not cancel the running tool")
	}
}

// TestNoLeakAfterDirectTimeoutsAndCancels: Registry.Call alone (no server)
// leaves no goroutine behind after timeouts and cancelled contexts.
func TestNoLeakAfterDirectTimeoutsAndCancels(t *testing.T) {
	before := goleak.IgnoreCurrent()
	reg := mcptool.NewRegistry(quiet())
	var stubbornDone atomic.Int64
	require.NoError(t, reg.Add("polite", func(ctx context.Context, _ ccTimeoutArgs) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}))
	require.NoError(t, reg.Add("stubborn", func(context.Context, ccTimeoutArgs) (string, error) {
		defer stubbornDone.Add(1)
		time.Sleep(500 * time.Millisecond) // long past the 20ms timeout even on a loaded machine
		return "late", nil
	}))
	require.NoError(t, reg.Add("cancellable", func(ctx context.Context) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}, mcptool.Timeout(time.Minute)))
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch i % 4 {
			case 0:
				res, err := reg.Call(context.Background(), "polite", nil)
				if assert.NoError(t, err) {
					assert.Equal(t, "tool polite timed out after 20ms", textOf(res))
				}
			case 1:
				res, err := reg.Call(context.Background(), "stubborn", nil)
				if assert.NoError(t, err) {
					assert.Equal(t, "tool stubborn timed out after 20ms", textOf(res))
				}
			default:
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(time.Duration(i%7)*time.Millisecond, cancel)
				res, err := reg.Call(ctx, "cancellable", nil)
				cancel()
				if assert.NoError(t, err) {
					assert.True(t, res.IsError)
					assert.Equal(t, "the call was cancelled", textOf(res))
				}
			}
		}()
	}
	wg.Wait()
	require.Eventually(t, func() bool { return stubbornDone.Load() == 50 }, 5*time.Second, 5*time.Millisecond)
	goleak.VerifyNone(t, before)
}

func ccKeys(mu *sync.Mutex, m map[int]bool) []int {
	mu.Lock()
	defer mu.Unlock()
	var out []int
	for k := range m {
		out = append(out, k)
	}
	return out
}
