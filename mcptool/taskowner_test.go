package mcptool_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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
	hs := httptest.NewServer(mcptool.NewHTTPHandler(reg.Server(&mcp.Implementation{Name: "t", Version: "1"}, nil),
		mcptool.MaxSessions(1)))
	t.Cleanup(hs.Close)
	a := initCoreHTTP(t, hs.URL)
	res := a.post(1, "tools/call", map[string]any{"name": "must", "task": map[string]any{"ttl": 60000}})
	require.Contains(t, res, "result", "%v", res)
	id := res["result"].(map[string]any)["task"].(map[string]any)["taskId"].(string)

	initCoreHTTP(t, hs.URL) // another client: a is evicted
	deadline := time.Now().Add(5 * time.Second)
	for a.post(2, "ping", map[string]any{})["status"] != http.StatusNotFound && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	require.Equal(t, http.StatusNotFound, a.post(2, "ping", map[string]any{})["status"], "a's session is gone")

	again := initCoreHTTP(t, hs.URL) // a's client, initialized again
	got := again.post(3, "tasks/result", map[string]any{"taskId": id})
	require.Contains(t, got, "result", "the task of the evicted session: %v", got)
	assert.Equal(t, "ran", resultText(got["result"].(map[string]any)))
	assert.Empty(t, again.post(4, "tasks/list", nil)["result"].(map[string]any)["tasks"], "a new session lists only its own tasks")
}
