package mcptool_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// A plain 2026-07-28 tasks/get over Server.Handler is answered alike on a
// server Registry.Server built and on one the registry was only mounted on.
func TestTaskPollEquivalence(t *testing.T) {
	reg, release := taskRegistry(t)
	defer close(release)
	impl := &mcp.Implementation{Name: "test", Version: "1"}
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{UserID: token, Expiration: time.Now().Add(time.Hour)}, nil
	}
	serve := func(srv *mcptool.Server) string {
		hs := httptest.NewServer(auth.RequireBearerToken(verify, nil)(srv.Handler(&mcptool.HTTPOptions{Stateless: true})))
		t.Cleanup(hs.Close)
		return hs.URL
	}
	fastURL := serve(reg.Server(impl, nil))
	slowURL := serve(reg.Mount(mcp.NewServer(impl, nil)))

	ext := map[string]any{"extensions": map[string]any{mcptool.TasksExtension: map[string]any{}}}
	alice := &wire{t: t, url: fastURL, caps: ext, header: []string{"Authorization", "Bearer alice"}}
	working := alice.callTool("steps", map[string]any{"steps": 1})["taskId"].(string)
	toolErr := alice.callTool("toolerr", nil)["taskId"].(string)
	rpcErr := alice.callTool("rpcerr", nil)["taskId"].(string)
	alice.until(toolErr, "completed")
	alice.until(rpcErr, "failed")

	// post sends a tasks/get and returns the response's status and message
	// (its body when it is not JSON).
	post := func(url, user, taskID string, caps map[string]any, header ...string) (int, any) {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "q-1", "method": "tasks/get", "params": map[string]any{
			"taskId": taskID, "_meta": map[string]any{
				mcp.MetaKeyProtocolVersion: "2026-07-28", mcp.MetaKeyClientCapabilities: caps,
				mcp.MetaKeyClientInfo: map[string]any{"name": "t", "version": "1"},
			}}})
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+user)
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tasks/get")
		req.Header.Set("Mcp-Name", taskID)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			sc := bufio.NewScanner(bytes.NewReader(raw))
			for sc.Scan() {
				if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
					raw = []byte(d)
				}
			}
		}
		var m map[string]any
		if json.Unmarshal(raw, &m) != nil {
			return resp.StatusCode, string(raw)
		}
		return resp.StatusCode, m
	}

	for _, tc := range []struct {
		name, user, id string
		caps           map[string]any
		header         []string
	}{
		{"working", "alice", working, ext, nil},
		{"tool error", "alice", toolErr, ext, nil},
		{"protocol error", "alice", rpcErr, ext, nil},
		{"another user's", "bob", working, ext, nil},
		{"unknown", "alice", "NOPE", ext, nil},
		{"no extension", "alice", working, map[string]any{}, nil},
		{"Mcp-Name mismatch", "alice", working, ext, []string{"Mcp-Name", "other"}},
		{"no Mcp-Method", "alice", working, ext, []string{"Mcp-Method", ""}},
		{"another Mcp-Method", "alice", working, ext, []string{"Mcp-Method", "tools/list"}},
		{"SSE only", "alice", working, ext, []string{"Accept", "text/event-stream"}},
		{"old protocol header", "alice", working, ext, []string{"Mcp-Protocol-Version", "2025-11-25"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gotStatus, got := post(fastURL, tc.user, tc.id, tc.caps, tc.header...)
			wantStatus, want := post(slowURL, tc.user, tc.id, tc.caps, tc.header...)
			assert.Equal(t, wantStatus, gotStatus)
			assert.Equal(t, want, got)
		})
	}
}

// Over stdio too, every tasks/get goes through go-sdk and the registry's
// middleware (no transport answers it past them), on a server
// Registry.Server built and on one the registry is mounted on, alike.
func TestStdioPollEquivalence(t *testing.T) {
	reg, release := taskRegistry(t)
	defer close(release)
	impl := &mcp.Implementation{Name: "test", Version: "1"}
	fastSrv := reg.Server(impl, nil)
	var reached atomic.Int32 // tasks/get that reached go-sdk on fastSrv
	fastSrv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tasks/get" {
				reached.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	slowSrv := reg.Mount(mcp.NewServer(impl, nil))
	fast, slow := runStdio(t, fastSrv), runStdio(t, slowSrv)

	ext := map[string]any{"extensions": map[string]any{mcptool.TasksExtension: map[string]any{}}}
	line := func(method, version string, caps map[string]any, params map[string]any) string {
		params["_meta"] = map[string]any{
			mcp.MetaKeyProtocolVersion: version, mcp.MetaKeyClientCapabilities: caps,
			mcp.MetaKeyClientInfo: map[string]any{"name": "t", "version": "1"},
		}
		b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "q-1", "method": method, "params": params})
		require.NoError(t, err)
		return string(b)
	}
	start := func(tool string) string {
		fast.send(line("tools/call", "2026-07-28", ext, map[string]any{"name": tool, "arguments": map[string]any{"steps": 1}}))
		res, _ := fast.recv()["result"].(map[string]any)
		require.Equal(t, "task", res["resultType"], "%v", res)
		return res["taskId"].(string)
	}
	working, toolErr, rpcErr := start("steps"), start("toolerr"), start("rpcerr")
	for _, id := range []string{toolErr, rpcErr} {
		require.Eventually(t, func() bool {
			fast.send(line("tasks/get", "2026-07-28", ext, map[string]any{"taskId": id}))
			res, _ := fast.recv()["result"].(map[string]any)
			return res["status"] != "working"
		}, 10*time.Second, time.Millisecond)
	}

	for _, tc := range []struct {
		name, id, version string
		caps              map[string]any
	}{
		{"working", working, "2026-07-28", ext},
		{"tool error", toolErr, "2026-07-28", ext},
		{"protocol error", rpcErr, "2026-07-28", ext},
		{"unknown", "NOPE", "2026-07-28", ext},
		{"no extension", working, "2026-07-28", map[string]any{}},
		{"old protocol in _meta", working, "2025-11-25", ext},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := reached.Load()
			req := line("tasks/get", tc.version, tc.caps, map[string]any{"taskId": tc.id})
			fast.send(req)
			got := fast.recv()
			slow.send(req)
			assert.Equal(t, slow.recv(), got)
			assert.Greater(t, reached.Load(), before, "the poll went through go-sdk")
		})
	}
}
