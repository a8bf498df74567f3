package mcptool_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// coreClient is a raw 2025-11-25 client over a StdioTransport: go-sdk's
// client cannot send the task param of the experimental core tasks.
type coreClient struct {
	t    *testing.T
	p    *stdioPeer
	init map[string]any // the initialize result

	mu      sync.Mutex
	next    int
	waiting map[string]chan map[string]any
	asked   []map[string]any // requests the server sent, as received
	answer  func(method string, params map[string]any) any
}

// newCoreClient connects to a server of reg over stdio and initializes at
// 2025-11-25 with caps; answer answers the server's requests.
func newCoreClient(t *testing.T, reg *mcptool.Registry, caps string, answer func(method string, params map[string]any) any) *coreClient {
	t.Helper()
	c := &coreClient{t: t, p: runStdio(t, reg.Server(&mcp.Implementation{Name: "core", Version: "1"}, nil)),
		waiting: map[string]chan map[string]any{}, answer: answer}
	go c.readLoop()
	res, err := c.call("initialize", map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": json.RawMessage(caps),
		"clientInfo": map[string]any{"name": "core", "version": "1"},
	})
	require.Nil(t, err)
	c.init = res
	c.p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

func (c *coreClient) readLoop() {
	for c.p.out.Scan() {
		var m map[string]any
		if json.Unmarshal(c.p.out.Bytes(), &m) != nil {
			continue
		}
		if method, ok := m["method"].(string); ok {
			id, isRequest := m["id"]
			if !isRequest {
				continue // a notification
			}
			params, _ := m["params"].(map[string]any)
			c.mu.Lock()
			c.asked = append(c.asked, m)
			c.mu.Unlock()
			var res any = map[string]any{}
			if c.answer != nil {
				res = c.answer(method, params)
			}
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": res})
			_, _ = c.p.in.Write(append(b, '\n'))
			continue
		}
		c.mu.Lock()
		ch := c.waiting[fmt.Sprint(m["id"])]
		delete(c.waiting, fmt.Sprint(m["id"]))
		c.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

// call sends a request and waits for its response.
func (c *coreClient) call(method string, params any) (map[string]any, *rpcError) {
	c.t.Helper()
	c.mu.Lock()
	c.next++
	id := fmt.Sprintf("c%d", c.next)
	ch := make(chan map[string]any, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	require.NoError(c.t, err)
	_, err = c.p.in.Write(append(b, '\n'))
	require.NoError(c.t, err)
	select {
	case m := <-ch:
		if e, ok := m["error"]; ok {
			raw, _ := json.Marshal(e)
			var re rpcError
			require.NoError(c.t, json.Unmarshal(raw, &re))
			return nil, &re
		}
		res, _ := m["result"].(map[string]any)
		return res, nil
	case <-time.After(10 * time.Second):
		c.t.Fatalf("%s: no response within 10s", method)
		return nil, nil
	}
}

func (c *coreClient) ok(method string, params any) map[string]any {
	c.t.Helper()
	res, err := c.call(method, params)
	require.Nil(c.t, err, "%s: %v", method, err)
	return res
}

// start calls tool name as a task and returns the task.
func (c *coreClient) start(name string, args map[string]any, task map[string]any) map[string]any {
	c.t.Helper()
	res := c.ok("tools/call", map[string]any{"name": name, "arguments": args, "task": task})
	task, ok := res["task"].(map[string]any)
	require.True(c.t, ok, "not a CreateTaskResult: %v", res)
	require.NotContains(c.t, res, "content")
	return task
}

// until polls tasks/get until the status is one of want.
func (c *coreClient) until(id string, want ...string) map[string]any {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := c.ok("tasks/get", map[string]any{"taskId": id})
		for _, s := range want {
			if got["status"] == s {
				return got
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("task %s: status %v after 10s, want %v", id, got["status"], want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func relatedTask(m map[string]any) any {
	meta, _ := m["_meta"].(map[string]any)
	rt, _ := meta["io.modelcontextprotocol/related-task"].(map[string]any)
	return rt["taskId"]
}

func TestCoreTaskLifecycle(t *testing.T) {
	reg, release := taskRegistry(t)
	c := newCoreClient(t, reg, `{}`, nil)

	// The server declares the core tasks, and each tool's task support.
	caps, _ := c.init["capabilities"].(map[string]any)
	assert.Equal(t, map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
		"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}, caps["tasks"])
	support := map[string]any{}
	for _, tl := range c.ok("tools/list", map[string]any{})["tools"].([]any) {
		tm := tl.(map[string]any)
		if ex, ok := tm["execution"].(map[string]any); ok {
			support[tm["name"].(string)] = ex["taskSupport"]
		}
	}
	assert.Equal(t, map[string]any{"steps": "optional", "toolerr": "optional", "rpcerr": "optional", "ask": "optional", "must": "required"}, support)

	// Create: a CreateTaskResult with the TTL asked for and the poll interval.
	task := c.start("steps", map[string]any{"steps": 2}, map[string]any{"ttl": 60000})
	id, _ := task["taskId"].(string)
	require.NotEmpty(t, id)
	assert.Equal(t, "working", task["status"])
	assert.EqualValues(t, 60000, task["ttl"])
	assert.EqualValues(t, 500, task["pollInterval"])
	for _, k := range []string{"createdAt", "lastUpdatedAt"} {
		_, err := time.Parse(time.RFC3339, task[k].(string))
		assert.NoError(t, err, k)
	}

	// Progress is the status message; tasks/get has the 2025 shape.
	deadline := time.Now().Add(5 * time.Second)
	var got map[string]any
	for got = c.ok("tasks/get", map[string]any{"taskId": id}); got["statusMessage"] != "step 1 of 2" && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		got = c.ok("tasks/get", map[string]any{"taskId": id})
	}
	assert.Equal(t, "step 1 of 2", got["statusMessage"])
	assert.EqualValues(t, 60000, got["ttl"])
	for _, k := range []string{"resultType", "ttlMs", "pollIntervalMs", "result"} {
		assert.NotContains(t, got, k)
	}

	// tasks/result blocks until the task ends, then answers the tool's
	// result naming the task.
	result := make(chan map[string]any, 1)
	go func() { result <- c.ok("tasks/result", map[string]any{"taskId": id}) }()
	select {
	case <-result:
		t.Fatal("tasks/result answered while the task was working")
	case <-time.After(50 * time.Millisecond):
	}
	release <- struct{}{}
	release <- struct{}{}
	res := <-result
	assert.Equal(t, "done in 2 steps", resultText(res))
	assert.Equal(t, id, relatedTask(res))
	assert.Equal(t, "completed", c.until(id, "completed")["status"])

	// A tool error fails the task; tasks/result answers the isError result.
	id = c.start("toolerr", nil, map[string]any{})["taskId"].(string)
	assert.Equal(t, "failed", c.until(id, "completed", "failed")["status"])
	res = c.ok("tasks/result", map[string]any{"taskId": id})
	assert.Equal(t, true, res["isError"])
	assert.Equal(t, "the disk is full", resultText(res))
	assert.Equal(t, id, relatedTask(res))

	// A protocol error fails it; tasks/result answers the JSON-RPC error.
	id = c.start("rpcerr", nil, map[string]any{})["taskId"].(string)
	assert.Equal(t, "failed", c.until(id, "failed")["status"])
	_, rerr := c.call("tasks/result", map[string]any{"taskId": id})
	require.NotNil(t, rerr)
	assert.EqualValues(t, jsonrpc.CodeInternalError, rerr.Code)
	assert.Equal(t, "backend down", rerr.Message)

	// The TTL: asked for less, granted; asked for more, capped; none, the tool's.
	for ask, want := range map[float64]int64{1000: 1000, 1e9: time.Hour.Milliseconds()} {
		task = c.start("must", nil, map[string]any{"ttl": ask})
		assert.EqualValues(t, want, task["ttl"], "asked %v", ask)
	}
	assert.EqualValues(t, time.Hour.Milliseconds(), c.start("must", nil, map[string]any{})["ttl"])

	// Tool-level negotiation: -32601 both ways, a normal call otherwise.
	_, rerr = c.call("tools/call", map[string]any{"name": "must"})
	require.NotNil(t, rerr)
	assert.EqualValues(t, jsonrpc.CodeMethodNotFound, rerr.Code)
	// The reason, not go-sdk's `method not found: "tools/call"`.
	assert.Contains(t, rerr.Message, `tool "must" runs only as a task`)
	_, rerr = c.call("tools/call", map[string]any{"name": "plain", "task": map[string]any{}})
	require.NotNil(t, rerr)
	assert.EqualValues(t, jsonrpc.CodeMethodNotFound, rerr.Code)
	assert.Contains(t, rerr.Message, `tool "plain" does not support task-augmented calls`)
	assert.Equal(t, "plain", resultText(c.ok("tools/call", map[string]any{"name": "plain"})))
	close(release)
	assert.Equal(t, "done in 1 steps", resultText(c.ok("tools/call", map[string]any{"name": "steps", "arguments": map[string]any{"steps": 1}})))
	for _, bad := range []any{"soon", map[string]any{"ttl": "long"}, map[string]any{"ttl": -1}} {
		_, rerr = c.call("tools/call", map[string]any{"name": "must", "task": bad})
		require.NotNil(t, rerr, "task %v", bad)
		assert.EqualValues(t, jsonrpc.CodeInvalidParams, rerr.Code, "task %v", bad)
	}

	// tasks/list has every task of the session, newest status included.
	listed := c.ok("tasks/list", map[string]any{})
	tasks, _ := listed["tasks"].([]any)
	assert.Len(t, tasks, 6)
	assert.NotContains(t, listed, "nextCursor")
	for _, x := range tasks {
		assert.Contains(t, []any{"completed", "failed", "working"}, x.(map[string]any)["status"])
	}
}

func TestCoreTaskCancel(t *testing.T) {
	reg, release := taskRegistry(t)
	defer close(release)
	c := newCoreClient(t, reg, `{"elicitation":{}}`, nil)

	for _, tc := range []struct{ tool, status string }{{"steps", "working"}, {"ask", "input_required"}} {
		args := map[string]any{"steps": 5}
		if tc.tool == "ask" {
			args = nil
		}
		id := c.start(tc.tool, args, map[string]any{})["taskId"].(string)
		c.until(id, tc.status)
		result := make(chan *rpcError, 1)
		if tc.status == "working" { // a tasks/result waiting meanwhile hears the cancel
			go func() { _, err := c.call("tasks/result", map[string]any{"taskId": id}); result <- err }()
		}
		got := c.ok("tasks/cancel", map[string]any{"taskId": id})
		assert.Equal(t, "cancelled", got["status"], tc.tool)
		assert.Equal(t, id, got["taskId"])
		assert.Equal(t, "cancelled", c.ok("tasks/get", map[string]any{"taskId": id})["status"])
		if tc.status == "working" {
			select {
			case err := <-result:
				require.NotNil(t, err)
				assert.Contains(t, err.Message, "cancelled")
			case <-time.After(5 * time.Second):
				t.Fatal("tasks/result still waiting after the cancel")
			}
		}
		// Terminal: a second cancel is refused; the status stays.
		_, rerr := c.call("tasks/cancel", map[string]any{"taskId": id})
		require.NotNil(t, rerr)
		assert.EqualValues(t, jsonrpc.CodeInvalidParams, rerr.Code)
		assert.Contains(t, rerr.Message, "cancelled")
		time.Sleep(20 * time.Millisecond)
		assert.Equal(t, "cancelled", c.ok("tasks/get", map[string]any{"taskId": id})["status"])
	}
	// A completed task cannot be cancelled.
	id := c.start("must", nil, map[string]any{})["taskId"].(string)
	c.until(id, "completed")
	_, rerr := c.call("tasks/cancel", map[string]any{"taskId": id})
	require.NotNil(t, rerr)
	assert.EqualValues(t, jsonrpc.CodeInvalidParams, rerr.Code)
	assert.Contains(t, rerr.Message, "completed")
}

func TestCoreTaskInput(t *testing.T) {
	reg, release := taskRegistry(t)
	close(release)
	var mu sync.Mutex
	var related []any
	c := newCoreClient(t, reg, `{"elicitation":{}}`, func(method string, params map[string]any) any {
		mu.Lock()
		related = append(related, relatedTask(params))
		mu.Unlock()
		if method != "elicitation/create" {
			return map[string]any{}
		}
		return map[string]any{"action": "accept", "content": map[string]any{"color": "blue"}}
	})
	id := c.start("ask", nil, map[string]any{})["taskId"].(string)
	got := c.until(id, "input_required")
	mu.Lock()
	assert.Empty(t, related, "the input request goes out through tasks/result, not before")
	mu.Unlock()
	assert.NotContains(t, got, "inputRequests")

	res := c.ok("tasks/result", map[string]any{"taskId": id})
	assert.Equal(t, "accept: blue", resultText(res))
	assert.Equal(t, id, relatedTask(res))
	mu.Lock()
	assert.Equal(t, []any{id}, related, "one elicitation, naming the task")
	mu.Unlock()
	assert.Equal(t, "completed", c.until(id, "completed")["status"])
}

func TestCoreTaskIsolation(t *testing.T) {
	reg, release := taskRegistry(t)
	defer close(release)
	a := newCoreClient(t, reg, `{}`, nil)
	b := newCoreClient(t, reg, `{}`, nil)
	id := a.start("steps", map[string]any{"steps": 1}, map[string]any{})["taskId"].(string)

	// An unknown ID, a missing one: "not found".
	for _, method := range []string{"tasks/get", "tasks/result", "tasks/cancel"} {
		for _, tc := range []struct {
			c  *coreClient
			id any
		}{{a, "NOPE"}, {a, nil}} {
			_, rerr := tc.c.call(method, map[string]any{"taskId": tc.id})
			require.NotNil(t, rerr, "%s %v", method, tc.id)
			assert.EqualValues(t, jsonrpc.CodeInvalidParams, rerr.Code, "%s %v", method, tc.id)
		}
	}
	assert.Equal(t, "working", a.ok("tasks/get", map[string]any{"taskId": id})["status"])
	// Without an authorization context the ID is the capability (see
	// docs/tasks.md): another session that holds it reads the task, but
	// does not list it.
	assert.Equal(t, "working", b.ok("tasks/get", map[string]any{"taskId": id})["status"])
	assert.Empty(t, b.ok("tasks/list", nil)["tasks"])
	_, rerr := a.call("tasks/list", map[string]any{"cursor": "not a cursor"})
	require.NotNil(t, rerr)
	assert.EqualValues(t, jsonrpc.CodeInvalidParams, rerr.Code)

	// Pages of 100, in a stable order, every task once.
	for range 120 {
		b.start("must", nil, map[string]any{})
	}
	seen := map[string]bool{}
	page := b.ok("tasks/list", nil)
	assert.Len(t, page["tasks"], 100)
	cursor, _ := page["nextCursor"].(string)
	require.NotEmpty(t, cursor)
	for _, x := range page["tasks"].([]any) {
		seen[x.(map[string]any)["taskId"].(string)] = true
	}
	page = b.ok("tasks/list", map[string]any{"cursor": cursor})
	assert.Len(t, page["tasks"], 20)
	assert.NotContains(t, page, "nextCursor")
	for _, x := range page["tasks"].([]any) {
		seen[x.(map[string]any)["taskId"].(string)] = true
	}
	assert.Len(t, seen, 120)
}

// A 2025-11-25 session that declares the tasks extension is served the
// extension, not the core tasks.
func TestCoreTaskExtensionSession(t *testing.T) {
	reg, release := taskRegistry(t)
	close(release)
	c := newCoreClient(t, reg, `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`, nil)
	_, rerr := c.call("tasks/list", nil)
	require.NotNil(t, rerr)
	assert.EqualValues(t, jsonrpc.CodeMethodNotFound, rerr.Code)
	res := c.ok("tools/call", map[string]any{"name": "must"})
	assert.Equal(t, "task", res["resultType"])
}

// Over HTTP, a 2025-11-25 session gets the core tasks too: the handler
// lifts the task param go-sdk would drop.
func TestCoreTaskHTTP(t *testing.T) {
	reg, release := taskRegistry(t)
	close(release)
	hs := httptest.NewServer(reg.Server(&mcp.Implementation{Name: "t", Version: "1"}, nil).Handler(nil))
	t.Cleanup(hs.Close)
	session := ""
	post := func(id int, method string, params any) map[string]any {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		req, _ := http.NewRequest(http.MethodPost, hs.URL, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			session = id
		}
		raw, _ := io.ReadAll(resp.Body)
		sc := bufio.NewScanner(bytes.NewReader(raw))
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				raw = []byte(d)
			}
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal(raw, &m), "%s", raw)
		res, ok := m["result"].(map[string]any)
		require.True(t, ok, "%s: %s", method, raw)
		return res
	}
	caps := post(1, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "t", "version": "1"}})["capabilities"].(map[string]any)
	assert.Contains(t, caps, "tasks")
	require.NotEmpty(t, session)
	task := post(2, "tools/call", map[string]any{"name": "must", "task": map[string]any{"ttl": 5000}})["task"].(map[string]any)
	assert.EqualValues(t, 5000, task["ttl"])
	res := post(3, "tasks/result", map[string]any{"taskId": task["taskId"]})
	assert.Equal(t, "ran", resultText(res))
	assert.Equal(t, task["taskId"], relatedTask(res))
}
