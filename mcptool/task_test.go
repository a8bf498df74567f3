package mcptool_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// wire is a raw 2026-07-28 JSON-RPC client: the tasks methods have no
// go-sdk client API.
type wire struct {
	t      *testing.T
	url    string
	caps   map[string]any
	header []string // sent with every request: name, value, ...
	id     atomic.Int64
}

type rpcError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

func newWire(t *testing.T, reg *mcptool.Registry, withTasks bool) *wire {
	t.Helper()
	srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{Stateless: true}))
	t.Cleanup(hs.Close)
	caps := map[string]any{"elicitation": map[string]any{}}
	if withTasks {
		caps["extensions"] = map[string]any{mcptool.TasksExtension: map[string]any{}}
	}
	return &wire{t: t, url: hs.URL, caps: caps}
}

// call sends one request and returns its result as a map, or its error.
func (w *wire) call(method string, params map[string]any, header ...string) (map[string]any, *rpcError) {
	w.t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{
		mcp.MetaKeyProtocolVersion:    "2026-07-28",
		mcp.MetaKeyClientCapabilities: w.caps,
		mcp.MetaKeyClientInfo:         map[string]any{"name": "wire", "version": "1"},
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": w.id.Add(1), "method": method, "params": params})
	require.NoError(w.t, err)
	req, err := http.NewRequest(http.MethodPost, w.url, bytes.NewReader(body))
	require.NoError(w.t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name, ok := params["name"].(string); ok && method == "tools/call" {
		req.Header.Set("Mcp-Name", name)
	}
	if id, ok := params["taskId"].(string); ok && id != "" && len(id) < 1000 {
		req.Header.Set("Mcp-Name", id)
	}
	header = append(append([]string(nil), w.header...), header...)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(w.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(w.t, err)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var last []byte
		sc := bufio.NewScanner(bytes.NewReader(raw))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.Contains(d, `"id"`) {
				last = []byte(d)
			}
		}
		raw = last
	}
	var msg struct {
		Result map[string]any `json:"result"`
		Error  *rpcError      `json:"error"`
	}
	require.NoError(w.t, json.Unmarshal(raw, &msg), "response %s", raw)
	return msg.Result, msg.Error
}

func (w *wire) ok(method string, params map[string]any) map[string]any {
	w.t.Helper()
	res, err := w.call(method, params)
	require.Nil(w.t, err, "%s: %v", method, err)
	return res
}

func (w *wire) callTool(name string, args map[string]any) map[string]any {
	w.t.Helper()
	return w.ok("tools/call", map[string]any{"name": name, "arguments": args})
}

func (w *wire) get(id string) map[string]any {
	w.t.Helper()
	return w.ok("tasks/get", map[string]any{"taskId": id})
}

// until polls tasks/get until status is one of want.
func (w *wire) until(id string, want ...string) map[string]any {
	w.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := w.get(id)
		for _, s := range want {
			if got["status"] == s {
				return got
			}
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("task %s: status %v after 10s, want %v", id, got["status"], want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func resultText(res map[string]any) string {
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		return ""
	}
	m, _ := content[0].(map[string]any)
	s, _ := m["text"].(string)
	return s
}

type stepsArgs struct {
	Steps int `json:"steps"`
}

// taskRegistry has one tool of each outcome, as tasks created at once
// (Wait -1) unless opts set another Wait.
func taskRegistry(t *testing.T, opts ...mcptool.RegistryOption) (*mcptool.Registry, chan struct{}) {
	t.Helper()
	reg := mcptool.NewRegistry(append([]mcptool.RegistryOption{mcptool.Logger(slog.New(slog.DiscardHandler)),
		mcptool.Tasks(mcptool.TaskSettings{Wait: -1})}, opts...)...)
	release := make(chan struct{})
	require.NoError(t, reg.Add("steps", func(ctx context.Context, in stepsArgs) (string, error) {
		for i := 1; i <= in.Steps; i++ {
			mcptool.Progress(ctx, float64(i), float64(in.Steps), fmt.Sprintf("step %d of %d", i, in.Steps))
			select {
			case <-release:
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}
		return fmt.Sprintf("done in %d steps", in.Steps), nil
	}, mcptool.Description("Steps."), mcptool.Task()))
	require.NoError(t, reg.Add("toolerr", func(context.Context) error { return mcptool.Errorf("the disk is full") },
		mcptool.Description("Fails."), mcptool.Task()))
	require.NoError(t, reg.Add("rpcerr", func(context.Context) error {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "backend down"}
	}, mcptool.Description("Protocol error."), mcptool.Task()))
	require.NoError(t, reg.Add("ask", func(ctx context.Context) (string, error) {
		res, err := mcptool.Elicit(ctx, "color", &mcp.ElicitParams{Message: "Color?", RequestedSchema: json.RawMessage(
			`{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}`)})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s: %v", res.Action, res.Content["color"]), nil
	}, mcptool.Description("Asks."), mcptool.Task()))
	require.NoError(t, reg.Add("must", func(context.Context) (string, error) { return "ran", nil },
		mcptool.Description("Only a task."), mcptool.TaskRequired()))
	require.NoError(t, reg.Add("plain", func(context.Context) (string, error) { return "plain", nil },
		mcptool.Description("Never a task.")))
	return reg, release
}

func TestTaskLifecycle(t *testing.T) {
	reg, release := taskRegistry(t)
	w := newWire(t, reg, true)

	created := w.callTool("steps", map[string]any{"steps": 2})
	assert.Equal(t, "task", created["resultType"])
	id, _ := created["taskId"].(string)
	require.NotEmpty(t, id)
	assert.Equal(t, "working", created["status"])
	assert.EqualValues(t, time.Hour.Milliseconds(), created["ttlMs"])
	assert.EqualValues(t, 500, created["pollIntervalMs"])
	for _, k := range []string{"result", "error", "inputRequests", "requestState"} {
		assert.NotContains(t, created, k)
	}

	// Progress is the status message.
	deadline := time.Now().Add(5 * time.Second)
	for w.get(id)["statusMessage"] != "step 1 of 2" && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	got := w.get(id)
	assert.Equal(t, "complete", got["resultType"])
	assert.Equal(t, "working", got["status"])
	assert.Equal(t, "step 1 of 2", got["statusMessage"])
	assert.NotContains(t, got, "result")
	release <- struct{}{}
	release <- struct{}{}
	done := w.until(id, "completed")
	res, _ := done["result"].(map[string]any)
	assert.Equal(t, "done in 2 steps", resultText(res))
	assert.NotContains(t, done, "error")

	// A tool error completes with isError; a protocol error fails.
	id = w.callTool("toolerr", nil)["taskId"].(string)
	done = w.until(id, "completed", "failed")
	assert.Equal(t, "completed", done["status"])
	res, _ = done["result"].(map[string]any)
	assert.Equal(t, true, res["isError"])
	assert.Equal(t, "the disk is full", resultText(res))

	id = w.callTool("rpcerr", nil)["taskId"].(string)
	done = w.until(id, "completed", "failed")
	assert.Equal(t, "failed", done["status"])
	e, _ := done["error"].(map[string]any)
	assert.EqualValues(t, jsonrpc.CodeInternalError, e["code"])
	assert.Equal(t, "backend down", e["message"])
	assert.NotContains(t, done, "result")

	// A tool that is not a task answers as always.
	plain := w.callTool("plain", nil)
	assert.Equal(t, "complete", plain["resultType"])
	assert.Equal(t, "plain", resultText(plain))
}

func TestTaskWithoutExtension(t *testing.T) {
	reg, release := taskRegistry(t)
	close(release)
	w := newWire(t, reg, false)
	// Optional: a normal call.
	res := w.callTool("steps", map[string]any{"steps": 1})
	assert.Equal(t, "complete", res["resultType"])
	assert.Equal(t, "done in 1 steps", resultText(res))
	// Required: -32021 naming the extension.
	_, err := w.call("tools/call", map[string]any{"name": "must", "arguments": map[string]any{}})
	require.NotNil(t, err)
	assert.EqualValues(t, -32021, err.Code)
	// As the spec names it, and where mcp-go's client looks for the name.
	assert.JSONEq(t, `{"requiredCapabilities":{"extensions":{"`+mcptool.TasksExtension+`":{}}},"capability":"`+mcptool.TasksExtension+`"}`, string(err.Data))
	// The tasks methods need the extension too.
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		_, err := w.call(m, map[string]any{"taskId": "x", "inputResponses": map[string]any{}})
		require.NotNil(t, err, m)
		assert.EqualValues(t, -32021, err.Code, m)
	}
}

func TestTaskCancel(t *testing.T) {
	reg, release := taskRegistry(t)
	w := newWire(t, reg, true)

	// While working: ctx is cancelled, the task reads cancelled.
	id := w.callTool("steps", map[string]any{"steps": 5})["taskId"].(string)
	ack := w.ok("tasks/cancel", map[string]any{"taskId": id})
	assert.Equal(t, map[string]any{"resultType": "complete"}, withoutMeta(ack))
	assert.Equal(t, "cancelled", w.until(id, "cancelled", "completed", "failed")["status"])

	// While input_required.
	id = w.callTool("ask", nil)["taskId"].(string)
	w.until(id, "input_required")
	w.ok("tasks/cancel", map[string]any{"taskId": id})
	done := w.until(id, "cancelled", "completed", "failed")
	assert.Equal(t, "cancelled", done["status"])
	assert.NotContains(t, done, "inputRequests")

	// After a terminal status: the same ack, the status stays.
	id = w.callTool("steps", map[string]any{"steps": 1})["taskId"].(string)
	release <- struct{}{}
	w.until(id, "completed")
	ack = w.ok("tasks/cancel", map[string]any{"taskId": id})
	assert.Equal(t, map[string]any{"resultType": "complete"}, withoutMeta(ack))
	assert.Equal(t, "completed", w.get(id)["status"])
}

func withoutMeta(m map[string]any) map[string]any {
	delete(m, "_meta")
	return m
}

func TestTaskInput(t *testing.T) {
	reg, _ := taskRegistry(t)
	w := newWire(t, reg, true)
	id := w.callTool("ask", nil)["taskId"].(string)
	got := w.until(id, "input_required")
	reqs, _ := got["inputRequests"].(map[string]any)
	require.Len(t, reqs, 1)
	first := reqs["color"].(map[string]any)
	assert.Equal(t, "elicitation/create", first["method"])

	// Unknown keys are ignored; an answer that does not fit the schema is
	// asked again under a new key.
	w.ok("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{"nope": map[string]any{"action": "accept"}}})
	assert.Equal(t, "input_required", w.get(id)["status"])
	w.ok("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		"color": map[string]any{"action": "accept", "content": map[string]any{"colour": 7}}}})
	var again map[string]any
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		again = w.get(id)
		if r, _ := again["inputRequests"].(map[string]any); again["status"] == "input_required" && r["color"] == nil && len(r) == 1 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	reqs, _ = again["inputRequests"].(map[string]any)
	require.Len(t, reqs, 1, "re-asked under a fresh key: %v", again)
	var key string
	for k := range reqs {
		key = k
	}
	assert.NotEqual(t, "color", key)
	w.ok("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		key: map[string]any{"action": "accept", "content": map[string]any{"color": "teal"}}}})
	done := w.until(id, "completed")
	assert.Equal(t, "accept: teal", resultText(done["result"].(map[string]any)))
	// A replayed answer after the end changes nothing.
	w.ok("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		key: map[string]any{"action": "accept", "content": map[string]any{"color": "red"}}}})
	assert.Equal(t, "accept: teal", resultText(w.get(id)["result"].(map[string]any)))
}

func TestTaskHostile(t *testing.T) {
	reg, release := taskRegistry(t)
	w := newWire(t, reg, true)
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		for _, id := range []string{"", "nope", strings.Repeat("A", 10000)} {
			_, err := w.call(m, map[string]any{"taskId": id, "inputResponses": map[string]any{}})
			require.NotNil(t, err, "%s %q", m, id)
			assert.EqualValues(t, jsonrpc.CodeInvalidParams, err.Code, m)
		}
	}
	// The removed 2025 methods are unknown.
	for _, m := range []string{"tasks/result", "tasks/list"} {
		_, err := w.call(m, map[string]any{"taskId": "x"})
		require.NotNil(t, err, m)
		assert.EqualValues(t, jsonrpc.CodeMethodNotFound, err.Code, m)
	}
	// Mcp-Name must name the task.
	id := w.callTool("steps", map[string]any{"steps": 1})["taskId"].(string)
	_, err := w.call("tasks/get", map[string]any{"taskId": id}, "Mcp-Name", "someone-else")
	require.NotNil(t, err)
	assert.EqualValues(t, -32020, err.Code)
	res, err := w.call("tasks/get", map[string]any{"taskId": id}, "Mcp-Name", id)
	require.Nil(t, err)
	assert.Equal(t, id, res["taskId"])
	release <- struct{}{}
	w.until(id, "completed")
}

func TestTaskTTLExpiry(t *testing.T) {
	reg, release := taskRegistry(t, mcptool.Tasks(mcptool.TaskSettings{TTL: 300 * time.Millisecond, PollInterval: 50 * time.Millisecond}))
	close(release)
	w := newWire(t, reg, true)
	created := w.callTool("steps", map[string]any{"steps": 1})
	assert.EqualValues(t, 300, created["ttlMs"])
	assert.EqualValues(t, 50, created["pollIntervalMs"])
	id := created["taskId"].(string)
	w.until(id, "completed")
	time.Sleep(350 * time.Millisecond)
	_, err := w.call("tasks/get", map[string]any{"taskId": id})
	require.NotNil(t, err)
	assert.EqualValues(t, jsonrpc.CodeInvalidParams, err.Code)
}

// A task whose worker stopped renewing its lease (its process died) reads
// failed, and a cancel settles it at once.
func TestTaskDeadWorker(t *testing.T) {
	store := taskstore.NewMemory()
	reg, _ := taskRegistry(t, mcptool.Tasks(mcptool.TaskSettings{Store: store}))
	w := newWire(t, reg, true)
	past := time.Now().Add(-time.Minute)
	for _, id := range []string{"dead1", "dead2"} {
		require.NoError(t, store.Create(context.Background(), taskstore.Task{
			ID: id, Tool: "steps", Status: taskstore.Working, CreatedAt: past, UpdatedAt: past,
			Worker: "gone", LeaseUntil: past.Add(30 * time.Second),
		}))
	}
	got := w.get("dead1")
	assert.Equal(t, "failed", got["status"])
	assert.NotEmpty(t, got["error"])
	w.ok("tasks/cancel", map[string]any{"taskId": "dead2"})
	assert.Equal(t, "failed", w.get("dead2")["status"], "a dead task fails; the cancel finds it terminal")
}

// TaskSettings.Lease sets how long a running task stays its worker's: a
// live worker renews it every Lease/3, so its task stays working past
// Lease; a task whose worker is gone reads failed once Lease has passed
// since its last renewal, not after the 30-second default.
func TestTaskLease(t *testing.T) {
	const lease = 300 * time.Millisecond
	store := taskstore.NewMemory()
	reg, release := taskRegistry(t, mcptool.Tasks(mcptool.TaskSettings{Store: store, Lease: lease}))
	defer close(release)
	w := newWire(t, reg, true)

	id, _ := w.callTool("steps", map[string]any{"steps": 1})["taskId"].(string)
	require.NotEmpty(t, id)
	first, err := store.Get(context.Background(), id)
	require.NoError(t, err)
	assert.WithinDuration(t, first.CreatedAt.Add(lease), first.LeaseUntil, 50*time.Millisecond, "the first lease is Lease long")
	time.Sleep(3 * lease)
	assert.Equal(t, "working", w.get(id)["status"], "a live worker keeps its task past Lease")
	renewed, err := store.Get(context.Background(), id)
	require.NoError(t, err)
	assert.True(t, renewed.LeaseUntil.After(first.LeaseUntil.Add(lease)), "renewed every Lease/3: %v then %v", first.LeaseUntil, renewed.LeaseUntil)
	assert.False(t, renewed.LeaseUntil.After(time.Now().Add(lease)), "never more than Lease ahead")

	// A task of a worker that is gone: working within its lease, failed after.
	now := time.Now()
	require.NoError(t, store.Create(context.Background(), taskstore.Task{
		ID: "orphan", Tool: "steps", Status: taskstore.Working, CreatedAt: now, UpdatedAt: now,
		Worker: "gone", LeaseUntil: now.Add(lease),
	}))
	assert.Equal(t, "working", w.get("orphan")["status"])
	time.Sleep(lease + 100*time.Millisecond)
	assert.Equal(t, "failed", w.get("orphan")["status"])
}

// A lease too short to divide in three still runs (renewed every
// millisecond), without a panic from the ticker.
func TestTaskTinyLease(t *testing.T) {
	reg, release := taskRegistry(t, mcptool.Tasks(mcptool.TaskSettings{Lease: time.Nanosecond}))
	close(release)
	w := newWire(t, reg, true)
	id, _ := w.callTool("steps", map[string]any{"steps": 1})["taskId"].(string)
	require.NotEmpty(t, id)
	got := w.until(id, "completed", "failed")
	assert.Contains(t, []string{"completed", "failed"}, got["status"])
}

// Within Wait, input is asked with input-required results, a fast call is
// answered directly, and Progress turns the call into a task.
func TestTaskWait(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)))
	require.NoError(t, reg.Add("hello", func(ctx context.Context) (string, error) {
		res, err := mcptool.Elicit(ctx, "name", &mcp.ElicitParams{Message: "Name?", RequestedSchema: json.RawMessage(
			`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)})
		if err != nil {
			return "", err
		}
		mcptool.Progress(ctx, 1, 2, "greeting")
		time.Sleep(50 * time.Millisecond)
		return fmt.Sprintf("Hello, %v!", res.Content["name"]), nil
	}, mcptool.Description("Greets."), mcptool.TaskRequired(mcptool.TaskSettings{Wait: time.Minute})))
	require.NoError(t, reg.Add("quick", func(context.Context) (string, error) { return "quick", nil },
		mcptool.Description("Quick."), mcptool.Task(mcptool.TaskSettings{Wait: time.Minute})))
	w := newWire(t, reg, true)

	assert.Equal(t, "quick", resultText(w.callTool("quick", nil)))

	round1 := w.callTool("hello", map[string]any{})
	assert.Equal(t, "input_required", round1["resultType"])
	assert.NotContains(t, round1, "taskId")
	state := round1["requestState"].(string)

	// A tampered requestState is refused. One character in the middle
	// changes: every bit of it is sealed data (the last characters of
	// unpadded base64 may carry unused bits, and may already be the
	// replacement).
	mid, repl := len(state)/2, "A"
	if state[mid] == 'A' {
		repl = "B"
	}
	_, err := w.call("tools/call", map[string]any{"name": "hello", "arguments": map[string]any{}, "requestState": state[:mid] + repl + state[mid+1:],
		"inputResponses": map[string]any{"name": map[string]any{"action": "accept", "content": map[string]any{"name": "Eve"}}}})
	require.NotNil(t, err)
	assert.EqualValues(t, jsonrpc.CodeInvalidParams, err.Code)

	round2 := w.ok("tools/call", map[string]any{"name": "hello", "arguments": map[string]any{}, "requestState": state,
		"inputResponses": map[string]any{"name": map[string]any{"action": "accept", "content": map[string]any{"name": "Alice"}}}})
	assert.Equal(t, "task", round2["resultType"])
	assert.NotContains(t, round2, "requestState")
	done := w.until(round2["taskId"].(string), "completed")
	assert.Equal(t, "Hello, Alice!", resultText(done["result"].(map[string]any)))
}

// Many tasks at once, each created, completed and read; no goroutine
// outlives them.
func TestTaskConcurrency(t *testing.T) {
	before := goleak.IgnoreCurrent()
	n := 1000
	if testing.Short() {
		n = 100
	}
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)), mcptool.Tasks(mcptool.TaskSettings{Wait: -1}))
	require.NoError(t, reg.Add("echo", func(ctx context.Context, in stepsArgs) (int, error) {
		mcptool.Progress(ctx, 1, 1, "echoing")
		return in.Steps, nil
	}, mcptool.Description("Echoes."), mcptool.Task()))
	srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{Stateless: true}))
	w := &wire{t: t, url: hs.URL, caps: map[string]any{"extensions": map[string]any{mcptool.TasksExtension: map[string]any{}}}}

	var wg sync.WaitGroup
	sem := make(chan struct{}, 32)
	var failures atomic.Int64
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			created, err := w.call("tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"steps": i}})
			if err != nil || created["taskId"] == nil {
				failures.Add(1)
				return
			}
			id := created["taskId"].(string)
			for range 2000 {
				got, err := w.call("tasks/get", map[string]any{"taskId": id})
				if err != nil {
					break
				}
				if got["status"] == "completed" {
					sc, _ := got["result"].(map[string]any)["structuredContent"].(map[string]any)
					if sc == nil || sc["result"] != float64(i) {
						failures.Add(1)
					}
					return
				}
				time.Sleep(2 * time.Millisecond)
			}
			failures.Add(1)
		}()
	}
	wg.Wait()
	assert.Zero(t, failures.Load(), "tasks that did not complete with their own result")
	hs.Close()
	http.DefaultClient.CloseIdleConnections()
	goleak.VerifyNone(t, before, goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"))
}

type taggedArgs struct {
	_ struct{} `mcp:"task=required,readOnly"`
	N int      `json:"n"`
}

// The `mcp:"task=required"` tag does what TaskRequired does.
func TestTaskTag(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)), mcptool.Tasks(mcptool.TaskSettings{Wait: -1}))
	require.NoError(t, reg.Add("tagged", func(_ context.Context, in taggedArgs) (int, error) { return in.N * 2, nil }, mcptool.Description("Doubles.")))
	w := newWire(t, reg, true)
	created := w.callTool("tagged", map[string]any{"n": 21})
	require.Equal(t, "task", created["resultType"])
	done := w.until(created["taskId"].(string), "completed")
	assert.EqualValues(t, 42, done["result"].(map[string]any)["structuredContent"].(map[string]any)["result"])

	_, err := newWire(t, reg, false).call("tools/call", map[string]any{"name": "tagged", "arguments": map[string]any{"n": 1}})
	require.NotNil(t, err)
	assert.EqualValues(t, -32021, err.Code)
}

// The confirm policy asks through the task: input_required, then the tool
// runs (or not) on the answer.
func TestTaskConfirm(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)), mcptool.Tasks(mcptool.TaskSettings{Wait: -1}))
	var ran atomic.Int64
	require.NoError(t, reg.Add("wipe", func(context.Context) (string, error) { ran.Add(1); return "wiped", nil },
		mcptool.Description("Wipes."), mcptool.Confirm(), mcptool.Task()))
	w := newWire(t, reg, true)
	for _, accept := range []bool{false, true} {
		id := w.callTool("wipe", map[string]any{})["taskId"].(string)
		got := w.until(id, "input_required")
		reqs := got["inputRequests"].(map[string]any)
		require.Len(t, reqs, 1)
		var key string
		for k := range reqs {
			key = k
		}
		answer := map[string]any{"action": "decline"}
		if accept {
			answer = map[string]any{"action": "accept", "content": map[string]any{"confirm": true}}
		}
		w.ok("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{key: answer}})
		res := w.until(id, "completed")["result"].(map[string]any)
		if accept {
			assert.Equal(t, "wiped", resultText(res))
		} else {
			assert.Equal(t, true, res["isError"])
			assert.Contains(t, resultText(res), "did not confirm")
		}
	}
	assert.EqualValues(t, 1, ran.Load(), "the tool ran only when confirmed")
}

// A 2025-11-25 session whose client declares the extension at initialize
// gets the same tasks: the capability is read from the session.
func TestTaskLegacySession(t *testing.T) {
	reg, release := taskRegistry(t)
	close(release)
	srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Extensions: map[string]any{mcptool.TasksExtension: map[string]any{}}},
	})
	require.NoError(t, mcp.AddSendingCustomMethod[*legacyTaskParams, *legacyTaskState](client, "tasks/get"))
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	defer ss.Close()
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	defer cs.Close()
	require.Equal(t, "2025-11-25", cs.InitializeResult().ProtocolVersion)
	assert.Contains(t, cs.InitializeResult().Capabilities.Extensions, mcptool.TasksExtension)

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{"steps": 1}})
	require.NoError(t, err)
	related, _ := res.Meta["io.modelcontextprotocol/related-task"].(map[string]any)
	id, _ := related["taskId"].(string)
	require.NotEmpty(t, id, "a task was created: %+v", res)
	deadline := time.Now().Add(5 * time.Second)
	for {
		task, err := mcp.CallCustomMethod[*legacyTaskParams, *legacyTaskState](ctx, cs, "tasks/get", &legacyTaskParams{TaskID: id})
		require.NoError(t, err)
		if task.Status == "completed" {
			assert.Equal(t, "done in 1 steps", task.Result.Content[0].(*mcp.TextContent).Text)
			break
		}
		require.True(t, time.Now().Before(deadline), "status %s", task.Status)
		time.Sleep(5 * time.Millisecond)
	}

	// A session that did not declare it gets ordinary calls.
	plain := mcp.NewClient(&mcp.Implementation{Name: "plain", Version: "1"}, nil)
	st2, ct2 := mcp.NewInMemoryTransports()
	ss2, err := srv.Connect(ctx, st2, nil)
	require.NoError(t, err)
	defer ss2.Close()
	cs2, err := plain.Connect(ctx, ct2, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	defer cs2.Close()
	res, err = cs2.CallTool(ctx, &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{"steps": 1}})
	require.NoError(t, err)
	assert.Equal(t, "done in 1 steps", res.Content[0].(*mcp.TextContent).Text)
}

type legacyTaskParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

type legacyTaskState struct {
	mcp.ResultBase
	Status string              `json:"status"`
	Result *mcp.CallToolResult `json:"result,omitempty"`
}

// A task still running when its TTL runs out is stopped: its ctx is
// cancelled, and the task is gone.
func TestTaskTTLStopsWork(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)))
	stopped := make(chan struct{})
	require.NoError(t, reg.Add("forever", func(ctx context.Context) error {
		<-ctx.Done()
		close(stopped)
		return ctx.Err()
	}, mcptool.Description("Never ends."), mcptool.Task(mcptool.TaskSettings{TTL: 200 * time.Millisecond})))
	w := newWire(t, reg, true)
	id := w.callTool("forever", map[string]any{})["taskId"].(string)
	assert.Equal(t, "working", w.get(id)["status"])
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the tool still runs 5s after its task's TTL")
	}
	_, err := w.call("tasks/get", map[string]any{"taskId": id})
	require.NotNil(t, err)
	assert.EqualValues(t, jsonrpc.CodeInvalidParams, err.Code)
}

// twoUsers serves reg statelessly over HTTP behind a bearer token whose
// text is the user ID, and returns the wires of users alice and bob.
func twoUsers(t *testing.T, reg *mcptool.Registry) (alice, bob *wire) {
	t.Helper()
	srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{UserID: token, Expiration: time.Now().Add(time.Hour)}, nil
	}
	hs := httptest.NewServer(auth.RequireBearerToken(verify, nil)(srv.Handler(&mcptool.HTTPOptions{Stateless: true})))
	t.Cleanup(hs.Close)
	caps := map[string]any{"extensions": map[string]any{mcptool.TasksExtension: map[string]any{}}}
	alice = &wire{t: t, url: hs.URL, caps: caps, header: []string{"Authorization", "Bearer alice"}}
	bob = &wire{t: t, url: hs.URL, caps: caps, header: []string{"Authorization", "Bearer bob"}}
	return alice, bob
}

// A task made by an authenticated user is that user's: another user's
// tasks/get, tasks/update and tasks/cancel find nothing.
func TestTaskOwner(t *testing.T) {
	reg, release := taskRegistry(t)
	defer close(release)
	alice, bob := twoUsers(t, reg)

	id := alice.callTool("steps", map[string]any{"steps": 1})["taskId"].(string)
	assert.Equal(t, "working", alice.get(id)["status"])
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		_, err := bob.call(m, map[string]any{"taskId": id, "inputResponses": map[string]any{}})
		require.NotNil(t, err, m)
		assert.EqualValues(t, jsonrpc.CodeInvalidParams, err.Code, m)
	}
	assert.Equal(t, "working", alice.get(id)["status"], "bob's cancel did nothing")
}

// Mounting a registry twice on one server makes one task per call, not two.
func TestTaskMountedTwice(t *testing.T) {
	reg, release := taskRegistry(t)
	close(release)
	srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	defer reg.Mount(srv.Server).Unmount()
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{Stateless: true}))
	t.Cleanup(hs.Close)
	w := &wire{t: t, url: hs.URL, caps: map[string]any{"extensions": map[string]any{mcptool.TasksExtension: map[string]any{}}}}
	created := w.callTool("steps", map[string]any{"steps": 1})
	require.Equal(t, "task", created["resultType"])
	done := w.until(created["taskId"].(string), "completed")
	assert.Equal(t, "done in 1 steps", resultText(done["result"].(map[string]any)))
}

// countingStore counts the updates a store gets.
type countingStore struct {
	taskstore.Store
	updates atomic.Int64
}

func (s *countingStore) Update(ctx context.Context, t taskstore.Task) (taskstore.Task, error) {
	s.updates.Add(1)
	return s.Store.Update(ctx, t)
}

// Progress reported in a tight loop reaches the store at most every 100ms,
// and the latest message wins.
func TestTaskProgressThrottled(t *testing.T) {
	store := &countingStore{Store: taskstore.NewMemory()}
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)), mcptool.Tasks(mcptool.TaskSettings{Store: store}))
	hold := make(chan struct{})
	require.NoError(t, reg.Add("busy", func(ctx context.Context) (string, error) {
		for i := 1; i <= 20000; i++ {
			mcptool.Progress(ctx, float64(i), 20000, fmt.Sprintf("item %d", i))
		}
		<-hold
		return "done", nil
	}, mcptool.Description("Busy."), mcptool.Task()))
	w := newWire(t, reg, true)
	id := w.callTool("busy", map[string]any{})["taskId"].(string)
	deadline := time.Now().Add(5 * time.Second)
	for w.get(id)["statusMessage"] != "item 20000" {
		require.True(t, time.Now().Before(deadline), "the last message never reached the store: %v", w.get(id)["statusMessage"])
		time.Sleep(10 * time.Millisecond)
	}
	assert.Less(t, store.updates.Load(), int64(100), "20,000 progress reports, store updates")
	close(hold)
	w.until(id, "completed")
}

// With the default Wait (1 s), a client that declares the extension gets a
// quick call's result directly — progress or not, on 2026-07-28 and on a
// 2025-11-25 session that declared it at initialize (MCP Inspector 2.12
// does, and never polls) — and a longer call becomes a task whose status is
// its latest progress.
func TestTaskDefaultWait(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)))
	hold := make(chan struct{})
	t.Cleanup(func() { close(hold) })
	type report struct {
		Rows []int `json:"rows"`
	}
	require.NoError(t, reg.Add("quick", func(ctx context.Context) (report, error) {
		mcptool.Progress(ctx, 1, 1, "1 row read")
		return report{Rows: []int{7}}, nil
	}, mcptool.Description("Quick."), mcptool.Task()))
	require.NoError(t, reg.Add("quick_required", func(context.Context) (string, error) { return "ran", nil },
		mcptool.Description("Quick, only a task."), mcptool.TaskRequired()))
	require.NoError(t, reg.Add("long", func(ctx context.Context) (string, error) {
		mcptool.Progress(ctx, 1, 2, "half way")
		select {
		case <-hold:
		case <-ctx.Done():
		}
		return "late", nil
	}, mcptool.Description("Long."), mcptool.Task()))

	w := newWire(t, reg, true)
	res := w.callTool("quick", nil)
	assert.Equal(t, "complete", res["resultType"])
	assert.Equal(t, map[string]any{"rows": []any{7.0}}, res["structuredContent"])
	res = w.callTool("quick_required", nil)
	assert.Equal(t, "complete", res["resultType"])
	assert.Equal(t, "ran", resultText(res))
	start := time.Now()
	created := w.callTool("long", nil)
	assert.Equal(t, "task", created["resultType"])
	assert.GreaterOrEqual(t, time.Since(start), 900*time.Millisecond, "a task only once Wait ran out")
	assert.Equal(t, "half way", created["statusMessage"])

	// A 2025-11-25 session that declared the extension, as Inspector's.
	srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "inspector-like", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Extensions: map[string]any{mcptool.TasksExtension: map[string]any{}}},
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	require.NoError(t, err)
	defer ss.Close()
	cs, err := client.Connect(t.Context(), ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	defer cs.Close()
	got, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "quick"})
	require.NoError(t, err)
	assert.False(t, got.IsError)
	assert.NotNil(t, got.StructuredContent, "the result itself, not a task handle: %+v", got)
	assert.NotContains(t, got.Meta, "io.modelcontextprotocol/related-task")
}
