package mcptool_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// listen sends subscriptions/listen with notifications (the filter) and
// returns the stream's messages in order on a channel that is closed when
// the stream ends; cancel ctx to close it from the client side.
func (w *wire) listen(ctx context.Context, notifications map[string]any) <-chan map[string]any {
	w.t.Helper()
	params := map[string]any{
		"notifications": notifications,
		"_meta": map[string]any{
			mcp.MetaKeyProtocolVersion:    "2026-07-28",
			mcp.MetaKeyClientCapabilities: w.caps,
			mcp.MetaKeyClientInfo:         map[string]any{"name": "wire", "version": "1"},
		},
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "sub-1", "method": "subscriptions/listen", "params": params})
	require.NoError(w.t, err)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	require.NoError(w.t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	for i := 0; i+1 < len(w.header); i += 2 {
		req.Header.Set(w.header[i], w.header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(w.t, err)
	out := make(chan map[string]any, 64)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				line = d
			} else if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") || line == "" {
				continue
			}
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil {
				select {
				case out <- m:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

// next returns the stream's next message, failing after 10 s.
func next(t *testing.T, stream <-chan map[string]any) map[string]any {
	t.Helper()
	select {
	case m, ok := <-stream:
		require.True(t, ok, "the stream ended")
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no message on the stream within 10s")
		return nil
	}
}

func params(m map[string]any) map[string]any {
	p, _ := m["params"].(map[string]any)
	return p
}

func subscriptionID(m map[string]any) any {
	var meta map[string]any
	if p := params(m); p != nil {
		meta, _ = p["_meta"].(map[string]any)
	} else if r, ok := m["result"].(map[string]any); ok {
		meta, _ = r["_meta"].(map[string]any)
	}
	return meta[mcp.MetaKeySubscriptionID]
}

// A client listening for its task hears every change, working to
// completed with the result inlined, each notification on its
// subscription; then the stream ends gracefully. No goroutine outlives it.
func TestTaskListen(t *testing.T) {
	before := goleak.IgnoreCurrent()
	reg, release := taskRegistry(t)
	srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{Stateless: true}))
	w := &wire{t: t, url: hs.URL, caps: map[string]any{"extensions": map[string]any{mcptool.TasksExtension: map[string]any{}}}}

	id := w.callTool("steps", map[string]any{"steps": 2})["taskId"].(string)
	stream := w.listen(t.Context(), map[string]any{"taskIds": []string{id, id, "unknown"}})

	ack := next(t, stream)
	assert.Equal(t, "notifications/subscriptions/acknowledged", ack["method"])
	assert.Equal(t, "sub-1", subscriptionID(ack))
	assert.Equal(t, []any{id}, params(ack)["notifications"].(map[string]any)["taskIds"], "only the known task, once")

	var seen []string
	var last map[string]any
	for {
		m := next(t, stream)
		if m["method"] == nil { // the graceful end: the listen's response
			assert.Equal(t, "sub-1", m["id"])
			assert.Equal(t, "sub-1", subscriptionID(m))
			assert.Equal(t, "complete", m["result"].(map[string]any)["resultType"])
			break
		}
		require.Equal(t, "notifications/tasks", m["method"])
		assert.Equal(t, "sub-1", subscriptionID(m))
		p := params(m)
		assert.Equal(t, id, p["taskId"])
		assert.NotContains(t, p, "resultType", "a DetailedTask, not a result")
		state := p["status"].(string)
		if msg, ok := p["statusMessage"].(string); ok {
			state += ": " + msg
		}
		if len(seen) > 0 {
			assert.NotEqual(t, seen[len(seen)-1], state, "a notification only on a change")
		}
		seen = append(seen, state)
		last = p
		if p["status"] == "working" {
			select {
			case release <- struct{}{}:
			default:
			}
		}
	}
	t.Logf("heard %q", seen)
	require.NotEmpty(t, seen)
	assert.True(t, strings.HasPrefix(seen[0], "working"), "first %v", seen)
	assert.Equal(t, "completed", last["status"], "heard %v", seen)
	assert.Equal(t, "done in 2 steps", resultText(last["result"].(map[string]any)))
	_, open := <-stream
	assert.False(t, open, "the stream ends after its response")

	hs.Close()
	http.DefaultClient.CloseIdleConnections()
	goleak.VerifyNone(t, before, goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"))
}

// A client that closes its listen ends it on the server: no goroutine
// outlives it, and the task runs on.
func TestTaskListenClientGone(t *testing.T) {
	before := goleak.IgnoreCurrent()
	reg, release := taskRegistry(t)
	srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{Stateless: true}))
	w := &wire{t: t, url: hs.URL, caps: map[string]any{"extensions": map[string]any{mcptool.TasksExtension: map[string]any{}}}}
	id := w.callTool("steps", map[string]any{"steps": 1})["taskId"].(string)

	ctx, cancel := context.WithCancel(t.Context())
	stream := w.listen(ctx, map[string]any{"taskIds": []string{id}})
	next(t, stream) // ack
	assert.Equal(t, "working", params(next(t, stream))["status"])
	cancel()
	for range stream {
	}
	close(release)
	assert.Equal(t, "completed", w.until(id, "completed")["status"])
	hs.Close()
	http.DefaultClient.CloseIdleConnections()
	goleak.VerifyNone(t, before, goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"))
}

// Only the caller's own tasks are agreed to: another user's task ID is left
// out of the acknowledgement and never notified.
func TestTaskListenOwner(t *testing.T) {
	reg, release := taskRegistry(t)
	defer close(release)
	alice, bob := twoUsers(t, reg)
	id := alice.callTool("steps", map[string]any{"steps": 1})["taskId"].(string)

	stream := bob.listen(t.Context(), map[string]any{"taskIds": []string{id}})
	ack := next(t, stream)
	assert.Equal(t, []any{}, params(ack)["notifications"].(map[string]any)["taskIds"])
	end := next(t, stream)
	assert.Nil(t, end["method"], "nothing agreed: the listen ends at once, got %v", end)
	assert.Contains(t, end, "result")

	stream = alice.listen(t.Context(), map[string]any{"taskIds": []string{id}})
	ack = next(t, stream)
	assert.Equal(t, []any{id}, params(ack)["notifications"].(map[string]any)["taskIds"])
	assert.Equal(t, "working", params(next(t, stream))["status"])
}

// A listen for tasks from a client that does not declare the extension gets
// the spec's -32021; a malformed or oversized taskIds gets -32602.
func TestTaskListenRefused(t *testing.T) {
	reg, release := taskRegistry(t)
	close(release)
	errorOf := func(stream <-chan map[string]any) map[string]any {
		m := next(t, stream)
		e, _ := m["error"].(map[string]any)
		require.NotNil(t, e, "want an error, got %v", m)
		return e
	}
	plain := newWire(t, reg, false)
	e := errorOf(plain.listen(t.Context(), map[string]any{"taskIds": []string{"x"}}))
	assert.EqualValues(t, -32021, e["code"])
	assert.Contains(t, e["data"], "requiredCapabilities")

	w := newWire(t, reg, true)
	e = errorOf(w.listen(t.Context(), map[string]any{"taskIds": "x"}))
	assert.EqualValues(t, jsonrpc.CodeInvalidParams, e["code"])
	many := make([]string, 101)
	for i := range many {
		many[i] = "t"
	}
	e = errorOf(w.listen(t.Context(), map[string]any{"taskIds": many}))
	assert.EqualValues(t, jsonrpc.CodeInvalidParams, e["code"])
}

// A task whose worker died is failed by the listening replica once its
// lease runs out, and the listener hears it: nothing updates the store, so
// only the lease tells.
func TestTaskListenDeadWorker(t *testing.T) {
	store := taskstore.NewMemory()
	reg, release := taskRegistry(t, mcptool.Tasks(mcptool.TaskSettings{Store: store}))
	close(release)
	w := newWire(t, reg, true)
	now := time.Now()
	require.NoError(t, store.Create(context.Background(), taskstore.Task{
		ID: "orphan", Tool: "steps", Status: taskstore.Working, CreatedAt: now, UpdatedAt: now,
		Worker: "gone", LeaseUntil: now.Add(300 * time.Millisecond),
	}))
	stream := w.listen(t.Context(), map[string]any{"taskIds": []string{"orphan"}})
	next(t, stream) // ack
	assert.Equal(t, "working", params(next(t, stream))["status"])
	failed := params(next(t, stream))
	assert.Equal(t, "failed", failed["status"])
	assert.NotEmpty(t, failed["error"])
	assert.GreaterOrEqual(t, time.Since(now), 300*time.Millisecond, "not before the lease ran out")
}

// A listener hears input_required with the input requests inlined, answers
// them with tasks/update, and hears the task resume and complete.
func TestTaskListenInput(t *testing.T) {
	reg, _ := taskRegistry(t)
	w := newWire(t, reg, true)
	id := w.callTool("ask", nil)["taskId"].(string)
	stream := w.listen(t.Context(), map[string]any{"taskIds": []string{id}})
	next(t, stream) // ack
	p := params(next(t, stream))
	for p["status"] == "working" {
		p = params(next(t, stream))
	}
	require.Equal(t, "input_required", p["status"])
	reqs, _ := p["inputRequests"].(map[string]any)
	require.Contains(t, reqs, "color")
	w.ok("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		"color": map[string]any{"action": "accept", "content": map[string]any{"color": "teal"}}}})
	var statuses []string
	for {
		m := next(t, stream)
		if m["method"] == nil {
			break
		}
		p = params(m)
		statuses = append(statuses, p["status"].(string))
	}
	assert.Equal(t, "completed", p["status"], "heard %v", statuses)
	assert.Equal(t, "accept: teal", resultText(p["result"].(map[string]any)))
}

// stdioMeta is the 2026-07-28 _meta of a request over stdio from a client
// that declares the tasks extension.
func stdioMeta() map[string]any {
	return map[string]any{
		mcp.MetaKeyProtocolVersion:    "2026-07-28",
		mcp.MetaKeyClientCapabilities: map[string]any{"extensions": map[string]any{mcptool.TasksExtension: map[string]any{}}},
		mcp.MetaKeyClientInfo:         map[string]any{"name": "stdio", "version": "1"},
	}
}

func (p *stdioPeer) sendJSON(v any) {
	p.t.Helper()
	b, err := json.Marshal(v)
	require.NoError(p.t, err)
	p.send(string(b))
}

// Over StdioTransport a listen naming taskIds works as over HTTP: the
// acknowledgement, a notification per change, the listen's response last.
// When the client closes its input, a listen still waiting is answered at
// once and the server exits, though the task is still working.
func TestTaskListenStdio(t *testing.T) {
	reg, release := taskRegistry(t)
	defer close(release)
	p := runStdio(t, reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil))

	start := func(id string) string {
		p.sendJSON(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{
			"name": "steps", "arguments": map[string]any{"steps": 1}, "_meta": stdioMeta()}})
		m := p.recv()
		require.Equal(t, id, m["id"], "%v", m)
		taskID, _ := m["result"].(map[string]any)["taskId"].(string)
		require.NotEmpty(t, taskID, "%v", m)
		return taskID
	}
	listen := func(id string, taskIDs ...string) {
		p.sendJSON(map[string]any{"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": map[string]any{
			"notifications": map[string]any{"taskIds": append(taskIDs, "unknown")}, "_meta": stdioMeta()}})
	}

	task := start("c1")
	listen("sub-1", task)
	ack := p.recv()
	assert.Equal(t, "notifications/subscriptions/acknowledged", ack["method"])
	assert.Equal(t, "sub-1", subscriptionID(ack))
	assert.Equal(t, []any{task}, params(ack)["notifications"].(map[string]any)["taskIds"])
	first := p.recv()
	assert.Equal(t, "notifications/tasks", first["method"])
	assert.Equal(t, "working", params(first)["status"])
	release <- struct{}{}
	var end map[string]any
	for end == nil {
		m := p.recv()
		if m["method"] == nil {
			end = m
			break
		}
		require.Equal(t, "notifications/tasks", m["method"])
		assert.Equal(t, "sub-1", subscriptionID(m))
		if params(m)["status"] == "completed" {
			assert.Equal(t, "done in 1 steps", resultText(params(m)["result"].(map[string]any)))
		}
	}
	assert.Equal(t, "sub-1", end["id"])
	assert.Equal(t, "sub-1", subscriptionID(end))

	// A listen on a task that keeps working, then end of input.
	task = start("c2")
	listen("sub-2", task)
	assert.Equal(t, "notifications/subscriptions/acknowledged", p.recv()["method"])
	assert.Equal(t, "working", params(p.recv())["status"])
	require.NoError(t, p.in.Close())
	m := p.recv()
	assert.Equal(t, "sub-2", m["id"], "the listen is answered at end of input")
	assert.Contains(t, m, "result")
	require.NoError(t, p.wait())
}
