package mcptool_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// coreHTTPSession is a raw 2025-11-25 session over HTTP.
type coreHTTPSession struct {
	t   *testing.T
	url string
	id  string
}

// post sends one request and returns its response message.
func (s *coreHTTPSession) post(id int, method string, params any) map[string]any {
	s.t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, s.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	defer resp.Body.Close()
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		s.id = id
	}
	raw, _ := io.ReadAll(resp.Body)
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			raw = []byte(d)
		}
	}
	var m map[string]any
	if resp.StatusCode != http.StatusOK {
		return map[string]any{"status": resp.StatusCode}
	}
	require.NoError(s.t, json.Unmarshal(raw, &m), "%s", raw)
	return m
}

func initCoreHTTP(t *testing.T, url string) *coreHTTPSession {
	t.Helper()
	s := &coreHTTPSession{t: t, url: url}
	res := s.post(0, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "t", "version": "1"}})
	require.Contains(t, res, "result")
	require.NotEmpty(t, s.id)
	return s
}

// A 2025-era session evicted by MaxSessions leaves its tasks behind: the
// client, initialized again, reads them by their IDs until their TTL.
func TestCoreTaskOutlivesEvictedSession(t *testing.T) {
	reg, release := taskRegistry(t)
	close(release)
	hs := httptest.NewServer(reg.Server(&mcp.Implementation{Name: "t", Version: "1"}, nil).Handler(&mcptool.HTTPOptions{MaxSessions: 1}))
	t.Cleanup(hs.Close)
	a := initCoreHTTP(t, hs.URL)
	res := a.post(1, "tools/call", map[string]any{"name": "must", "task": map[string]any{"ttl": 60000}})
	require.Contains(t, res, "result", "%v", res)
	id := res["result"].(map[string]any)["task"].(map[string]any)["taskId"].(string)

	initCoreHTTP(t, hs.URL) // another client: a is evicted
	// From the moment the other client has its session, a's requests are
	// refused, never taken and left unanswered while the session closes.
	require.Equal(t, http.StatusNotFound, a.post(2, "ping", map[string]any{})["status"], "a's session is gone")

	again := initCoreHTTP(t, hs.URL) // a's client, initialized again
	got := again.post(3, "tasks/result", map[string]any{"taskId": id})
	require.Contains(t, got, "result", "the task of the evicted session: %v", got)
	assert.Equal(t, "ran", resultText(got["result"].(map[string]any)))
	assert.Empty(t, again.post(4, "tasks/list", nil)["result"].(map[string]any)["tasks"], "a new session lists only its own tasks")
}

// On stdio the process knows its user (Authenticated): a task is that
// principal's, whether the session uses the 2025-11-25 core tasks or the
// tasks extension. A connection served as another principal can neither
// read, list nor cancel it; its owner can.
func TestStdioTaskOwnerIsAuthenticatedPrincipal(t *testing.T) {
	reg, release := taskRegistry(t)
	t.Cleanup(func() { close(release) })
	impl := &mcp.Implementation{Name: "t", Version: "1"}
	as := func(who string) *stdioPeer {
		ctx := mcptool.Authenticated(context.Background(), &auth.TokenInfo{UserID: who, Expiration: time.Now().Add(time.Hour)})
		return runStdioCtx(t, ctx, reg.Server(impl, nil))
	}
	for _, c := range []struct {
		name, caps string
		taskID     func(result map[string]any) string
		call       string
	}{
		{"core", `{}`, func(r map[string]any) string { return r["task"].(map[string]any)["taskId"].(string) },
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"steps","arguments":{"steps":5},"task":{"ttl":60000}}}`},
		{"extension", `{"extensions":{"` + mcptool.TasksExtension + `":{}}}`, func(r map[string]any) string { return r["taskId"].(string) },
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"steps","arguments":{"steps":5}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			errCode := func(m map[string]any) float64 {
				t.Helper()
				_, code, _ := errorOf(t, m)
				return code
			}
			alice, bob := as("alice"), as("bob")
			alice.initialize(c.caps)
			bob.initialize(c.caps)
			alice.send(c.call)
			created := alice.recv()
			require.Contains(t, created, "result", "%v", created)
			id := c.taskID(created["result"].(map[string]any))
			req := func(p *stdioPeer, n int, method string) map[string]any {
				p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"taskId":%q}}`, n, method, id))
				return p.recv()
			}

			assert.EqualValues(t, jsonrpc.CodeInvalidParams, errCode(req(bob, 2, "tasks/get")), "bob reads alice's task")
			assert.EqualValues(t, jsonrpc.CodeInvalidParams, errCode(req(bob, 3, "tasks/cancel")), "bob cancels alice's task")
			got := req(alice, 4, "tasks/get")
			require.Contains(t, got, "result", "%v", got)
			if c.name == "core" {
				bob.send(`{"jsonrpc":"2.0","id":5,"method":"tasks/list"}`)
				assert.Empty(t, bob.recv()["result"].(map[string]any)["tasks"], "bob lists alice's task")
				alice.send(`{"jsonrpc":"2.0","id":6,"method":"tasks/list"}`)
				listed := alice.recv()["result"].(map[string]any)["tasks"].([]any)
				require.Len(t, listed, 1)
				assert.Equal(t, id, listed[0].(map[string]any)["taskId"])
			}
			cancelled := req(alice, 7, "tasks/cancel")
			require.Contains(t, cancelled, "result", "alice cancels her task: %v", cancelled)
			deadline := time.Now().Add(5 * time.Second)
			for {
				st := req(alice, 8, "tasks/get")["result"].(map[string]any)["status"]
				if st == "cancelled" {
					break
				}
				require.True(t, time.Now().Before(deadline), "status %v", st)
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}
