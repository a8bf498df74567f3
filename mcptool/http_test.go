package mcptool_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// rawSession speaks the 2025-11-25 streamable HTTP wire by hand, so tests
// control each request and connection.
type rawSession struct {
	t   *testing.T
	url string
	id  string
}

func rawPost(ctx context.Context, url, session string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	return http.DefaultClient.Do(req)
}

func openRawSession(t *testing.T, url string) *rawSession {
	t.Helper()
	resp, err := rawPost(context.Background(), url, "", []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	s := &rawSession{t: t, url: url, id: resp.Header.Get("Mcp-Session-Id")}
	require.NotEmpty(t, s.id)
	require.Equal(t, http.StatusAccepted, s.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return s
}

// post sends body on the session and returns the status, reading the
// response to its end.
func (s *rawSession) post(body string) int {
	s.t.Helper()
	resp, err := rawPost(context.Background(), s.url, s.id, []byte(body))
	require.NoError(s.t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}

func (s *rawSession) delete() int {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodDelete, s.url, nil)
	require.NoError(s.t, err)
	req.Header.Set("Mcp-Session-Id", s.id)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	_ = resp.Body.Close()
	return resp.StatusCode
}

// blockingTool registers "block", which waits for its context and reports
// when it started and when it was cancelled.
func blockingTool(t *testing.T) (reg *mcptool.Registry, started chan struct{}, cancelled chan time.Time) {
	reg = mcptool.NewRegistry()
	started, cancelled = make(chan struct{}, 16), make(chan time.Time, 16)
	require.NoError(t, mcptool.Add(reg, "block", func(ctx context.Context, _ struct{}) (string, error) {
		started <- struct{}{}
		select {
		case <-ctx.Done():
			cancelled <- time.Now()
			return "", ctx.Err()
		case <-time.After(20 * time.Second):
			return "ran to completion", nil
		}
	}, mcptool.Description("Wait until cancelled.")))
	return reg, started, cancelled
}

func waitFor[T any](t *testing.T, ch <-chan T, within time.Duration, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(within):
		t.Fatalf("%s: nothing within %v", what, within)
		var zero T
		return zero
	}
}

const blockCall = `{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"block","arguments":{}}}`

// TestHTTPCallCancelledOnDelete: deleting a 2025-era session cancels its
// calls in flight within 1 s.
func TestHTTPCallCancelledOnDelete(t *testing.T) {
	reg, started, cancelled := blockingTool(t)
	hs := httptest.NewServer(reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil).Handler(nil))
	defer hs.Close()
	s := openRawSession(t, hs.URL)
	go s.post(blockCall)
	waitFor(t, started, 5*time.Second, "tool start")

	deleted := time.Now()
	done := make(chan int, 1)
	go func() { done <- s.delete() }()
	at := waitFor(t, cancelled, 3*time.Second, "the call's ctx cancelled after DELETE")
	t.Logf("call cancelled %v after DELETE", at.Sub(deleted))
	assert.Less(t, at.Sub(deleted), time.Second)
	assert.Equal(t, http.StatusNoContent, waitFor(t, done, 3*time.Second, "DELETE answered"))
	assert.Equal(t, http.StatusNotFound, s.post(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
}

// TestHTTPCallCancelledOnDisconnect: a 2025-era call whose HTTP request ends
// early (the client dropped the connection) is cancelled within 1 s, and
// the session goes on serving.
func TestHTTPCallCancelledOnDisconnect(t *testing.T) {
	reg, started, cancelled := blockingTool(t)
	hs := httptest.NewServer(reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil).Handler(nil))
	defer hs.Close()
	s := openRawSession(t, hs.URL)

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		if resp, err := rawPost(ctx, s.url, s.id, []byte(blockCall)); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
	}()
	waitFor(t, started, 5*time.Second, "tool start")
	dropped := time.Now()
	cancel() // the client transport closes the connection
	at := waitFor(t, cancelled, 3*time.Second, "the call's ctx cancelled after the connection dropped")
	t.Logf("call cancelled %v after the connection dropped", at.Sub(dropped))
	assert.Less(t, at.Sub(dropped), time.Second)
	assert.Equal(t, http.StatusOK, s.post(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
}

// TestHTTPDisconnectCancelsOnlyItsCalls: when one of a session's requests
// ends early, only the call it carried is cancelled; the session's other
// call runs on until the session is deleted.
func TestHTTPDisconnectCancelsOnlyItsCalls(t *testing.T) {
	reg, started, cancelled := blockingTool(t)
	hs := httptest.NewServer(reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil).Handler(nil))
	defer hs.Close()
	s := openRawSession(t, hs.URL)
	ctx, drop := context.WithCancel(context.Background())
	defer drop()
	for i, ctx := range []context.Context{ctx, context.Background()} {
		go func() {
			call := strings.Replace(blockCall, `"c1"`, fmt.Sprintf(`"c%d"`, i), 1)
			if resp, err := rawPost(ctx, s.url, s.id, []byte(call)); err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
			}
		}()
		waitFor(t, started, 5*time.Second, "tool start")
	}
	drop()
	waitFor(t, cancelled, 3*time.Second, "the dropped request's call cancelled")
	select {
	case <-cancelled:
		t.Fatal("the call of the request still open was cancelled too")
	case <-time.After(300 * time.Millisecond):
	}
	assert.Equal(t, http.StatusNoContent, s.delete())
	waitFor(t, cancelled, 3*time.Second, "the other call cancelled when the session was deleted")
}

// TestHTTPEvictCancelsAndForgets: a session evicted past MaxSessions has
// its call in flight cancelled and is closed: go-sdk no longer holds it,
// and a request with its Mcp-Session-Id gets 404.
func TestHTTPEvictCancelsAndForgets(t *testing.T) {
	reg, started, cancelled := blockingTool(t)
	srv := reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{MaxSessions: 1}))
	defer hs.Close()
	old := openRawSession(t, hs.URL)
	answered := make(chan int, 1)
	go func() {
		resp, err := rawPost(context.Background(), old.url, old.id, []byte(blockCall))
		if err != nil {
			answered <- 0
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		answered <- resp.StatusCode
	}()
	waitFor(t, started, 5*time.Second, "tool start")

	opened := time.Now()
	s := openRawSession(t, hs.URL) // past MaxSessions: old, busy, is the only one to evict
	at := waitFor(t, cancelled, 3*time.Second, "the evicted session's call cancelled")
	t.Logf("call cancelled %v after the session that evicted it opened", at.Sub(opened))
	waitFor(t, answered, 3*time.Second, "the evicted session's call answered")
	held := func() bool {
		for ss := range srv.Sessions() {
			if ss.ID() == old.id {
				return true
			}
		}
		return false
	}
	assert.Eventually(t, func() bool { return !held() }, 3*time.Second, 10*time.Millisecond, "go-sdk still holds the evicted session")
	assert.Equal(t, http.StatusNotFound, old.post(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	assert.Equal(t, http.StatusOK, s.post(`{"jsonrpc":"2.0","id":2,"method":"ping"}`))
}

// TestHTTPSessionCap: with MaxSessions, opening more sessions evicts the
// ones idle longest (their clients get 404), recent ones keep working, and
// goroutines stay bounded however many clients never close.
func TestHTTPSessionCap(t *testing.T) {
	const limit, extra = 16, 48
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	hs := httptest.NewServer(mcptool.NewRegistry().Mount(srv).Handler(&mcptool.HTTPOptions{MaxSessions: limit}))
	defer hs.Close()
	countSessions := func() int {
		n := 0
		for range srv.Sessions() {
			n++
		}
		return n
	}
	settle := func() {
		deadline := time.Now().Add(5 * time.Second)
		for countSessions() > limit && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	var sessions []*rawSession
	for range limit {
		sessions = append(sessions, openRawSession(t, hs.URL))
	}
	settle()
	runtime.GC()
	atCap := runtime.NumGoroutine()
	// The first session is used now: the second is the idlest.
	require.Equal(t, http.StatusOK, sessions[0].post(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	for range extra {
		sessions = append(sessions, openRawSession(t, hs.URL))
	}
	settle()
	runtime.GC()
	beyond := runtime.NumGoroutine()
	t.Logf("sessions: %d after opening %d; goroutines %d at the cap, %d after %d more sessions", countSessions(), limit+extra, atCap, beyond, extra)
	assert.LessOrEqual(t, countSessions(), limit)
	assert.Less(t, beyond-atCap, extra/4, "goroutines grow with sessions beyond the cap")

	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	assert.Equal(t, http.StatusNotFound, sessions[1].post(ping), "the idlest session was evicted")
	for i, s := range sessions[len(sessions)-limit+1:] {
		assert.Equal(t, http.StatusOK, s.post(ping), "recent session %d", i)
	}
}

// TestHTTPSessionCapListeningClients: go-sdk clients hold a standalone GET
// stream open for their session's life. That stream is no activity: at the
// cap, opening a session evicts the one idle longest, not the new one.
func TestHTTPSessionCapListeningClients(t *testing.T) {
	const limit = 3
	reg := mcptool.NewRegistry(mcptool.NoDescription())
	require.NoError(t, reg.Add("hello", func(context.Context) (string, error) { return "hello", nil }))
	srv := reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{MaxSessions: limit}))
	defer hs.Close()
	ctx := context.Background()
	call := func(cs *mcp.ClientSession) error {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "hello"})
		return err
	}
	var clients []*mcp.ClientSession
	for i := range 2 * limit {
		c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		require.NoError(t, err, "client %d could not connect: the new session was evicted", i)
		defer cs.Close()
		require.NoError(t, call(cs), "client %d", i)
		clients = append(clients, cs)
	}
	for i, cs := range clients {
		if i < limit {
			// Eviction runs in the background.
			assert.Eventually(t, func() bool { return call(cs) != nil }, 5*time.Second, 10*time.Millisecond, "client %d kept its session", i)
		} else {
			assert.NoError(t, call(cs), "client %d lost its session", i)
		}
	}
}

// TestHTTPSessionCapBusy: at the cap with every other session running a
// call, a new client still gets in; the session idle longest is evicted and
// its call cancelled.
func TestHTTPSessionCapBusy(t *testing.T) {
	const limit = 2
	reg := mcptool.NewRegistry(mcptool.NoDescription())
	started := make(chan struct{}, limit)
	cancelled := make(chan struct{}, limit)
	require.NoError(t, reg.Add("hold", func(ctx context.Context) (string, error) {
		started <- struct{}{}
		<-ctx.Done()
		cancelled <- struct{}{}
		return "", ctx.Err()
	}))
	require.NoError(t, reg.Add("hello", func(context.Context) (string, error) { return "hello", nil }))
	srv := reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{MaxSessions: limit}))
	t.Cleanup(hs.Close) // after the clients close their streams
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // before the clients close: it ends the call still held
	connect := func() *mcp.ClientSession {
		c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		require.NoError(t, err)
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	for range limit {
		cs := connect()
		go func() { _, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "hold"}) }()
		waitFor(t, started, 5*time.Second, "call started")
	}
	late := connect() // every other session is busy
	_, err := late.CallTool(ctx, &mcp.CallToolParams{Name: "hello"})
	require.NoError(t, err, "the new session was evicted")
	waitFor(t, cancelled, 5*time.Second, "the evicted session's call cancelled")
}

// heapAllocs returns the bytes allocated on the heap so far.
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func bigCall(id, size int) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"size","arguments":{"s":"%s"}}}`, id, strings.Repeat("x", size)))
}

// TestHTTPBodyMemory measures the heap bytes allocated per request with a
// large argument, on Server.Handler and on go-sdk's own handler serving the
// same server, with no client in the process (the request is built once
// and served through httptest.ResponseRecorder). go-sdk decodes a body
// several times (16–28 body sizes); Server.Handler hands it the body as it
// came, and adds only its own reading of it: at most three body sizes more
// than go-sdk's handler. (What MaxBodyBytesInFlight counts a body at,
// decodeCost, is about its peak memory, not these allocations, most of
// them garbage at once: TestHTTPBodiesMemory measures the peak RSS under
// load.)
func TestHTTPBodyMemory(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, mcptool.Add(reg, "size", func(_ context.Context, in struct {
		S string `json:"s"`
	}) (int, error) {
		return len(in.S), nil
	}, mcptool.Description("Measure s.")))
	srv := reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	const size, rounds = 900 << 10, 8 // under the default maxArgBytes
	measure := func(h http.Handler, era string) float64 {
		body := bigCall(1, size)
		session := ""
		if era == "2025-11-25" {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, jsonRequest(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, ""))
			session = rec.Header().Get("Mcp-Session-Id")
			require.NotEmpty(t, session)
			h.ServeHTTP(httptest.NewRecorder(), jsonRequest(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, session))
		} else {
			body = []byte(strings.Replace(string(body), `"arguments"`, `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}},"arguments"`, 1))
		}
		serve := func() {
			req := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(body))
			req.Header = jsonRequest("", session).Header
			if era == "2026-07-28" {
				req.Header.Set("Mcp-Protocol-Version", era)
				req.Header.Set("Mcp-Method", "tools/call")
				req.Header.Set("Mcp-Name", "size")
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
			require.Contains(t, rec.Body.String(), fmt.Sprintf(`{"result":%d}`, size))
		}
		serve()
		runtime.GC()
		before := heapAllocs()
		for range rounds {
			serve()
		}
		return float64(heapAllocs()-before) / rounds / float64(len(body))
	}
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			ours := measure(srv.Handler(nil), era)
			sdk := measure(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.Server },
				&mcp.StreamableHTTPOptions{Stateless: era != "2025-11-25"}), era)
			t.Logf("%s: body sizes allocated per request: %.2f with Server.Handler, %.2f with go-sdk's handler", era, ours, sdk)
			assert.LessOrEqual(t, ours, sdk+3, "body sizes allocated per request beyond go-sdk's")
		})
	}
}

func jsonRequest(body, session string) *http.Request {
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	return req
}

// TestHTTPBodiesInFlight: bodies are held within MaxBodyBytesInFlight as
// they arrive; those that find no room in time get 503, and small calls are
// not held up.
func TestHTTPBodiesInFlight(t *testing.T) {
	const size = 256 << 10
	var inside, peak atomic.Int32
	release := make(chan struct{})
	var releaseOnce sync.Once
	reg := mcptool.NewRegistry()
	require.NoError(t, mcptool.Add(reg, "size", func(_ context.Context, in struct {
		S string `json:"s"`
	}) (int, error) {
		n := inside.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		if len(in.S) > 0 {
			<-release
		}
		inside.Add(-1)
		return len(in.S), nil
	}, mcptool.Description("Measure s.")))
	hs := httptest.NewServer(reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil).Handler(&mcptool.HTTPOptions{Logger: slog.New(slog.DiscardHandler), MaxBodyBytesInFlight: 2*size + 4096, BodyReadTimeout: 5 * time.Second}))
	defer hs.Close()
	defer releaseOnce.Do(func() { close(release) })
	s := openRawSession(t, hs.URL)

	const n = 6
	codes := make(chan int, n)
	for i := range n {
		go func() {
			resp, err := rawPost(context.Background(), s.url, s.id, bigCall(10+i, size))
			if err != nil {
				codes <- 0
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	deadline := time.Now().Add(5 * time.Second)
	for inside.Load() < 1 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	require.GreaterOrEqual(t, inside.Load(), int32(1), "no large body was served")
	// A small call passes.
	assert.Equal(t, http.StatusOK, s.post(`{"jsonrpc":"2.0","id":"small","method":"tools/call","params":{"name":"size","arguments":{"s":""}}}`))
	// The bodies that found no room give up with 503; at most two fit.
	refused := 0
	timeout := time.After(10 * time.Second)
	for refused+int(inside.Load()) < n {
		select {
		case c := <-codes:
			assert.Equal(t, http.StatusServiceUnavailable, c, "a queued request")
			refused++
		case <-time.After(10 * time.Millisecond):
		case <-timeout:
			t.Fatalf("%d refused and %d served: the others neither", refused, inside.Load())
		}
	}
	served := int(inside.Load())
	assert.LessOrEqual(t, served, 2)
	assert.LessOrEqual(t, peak.Load(), int32(3), "at most two large bodies and the small call")
	releaseOnce.Do(func() { close(release) })
	for range served {
		assert.Equal(t, http.StatusOK, waitFor(t, codes, 5*time.Second, "admitted request"))
	}
}

// TestHTTPBodyTrickle: a body trickled a byte at a time is cut off after
// BodyReadTimeout with 408, and its goroutine is released.
func TestHTTPBodyTrickle(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	hs := httptest.NewServer(mcptool.NewRegistry().Mount(srv).Handler(&mcptool.HTTPOptions{BodyReadTimeout: 300 * time.Millisecond}))
	defer hs.Close()
	runtime.GC()
	base := runtime.NumGoroutine()

	conn, err := net.Dial("tcp", hs.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n", hs.Listener.Addr())
	require.NoError(t, err)
	start := time.Now()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	})
	defer func() { close(stop); wg.Wait() }()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	elapsed := time.Since(start)
	t.Logf("trickled body cut off after %v with %d", elapsed, resp.StatusCode)
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode)
	assert.Less(t, elapsed, 2*time.Second)

	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > base+1 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), base+1, "the trickling request's goroutines are gone")
}
