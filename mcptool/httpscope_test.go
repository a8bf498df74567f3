package mcptool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

var demoTokens = tokens{
	"reader": {UserID: "ada", Scopes: []string{"demo:read"}, Expiration: time.Now().Add(time.Hour)},
	"admin":  {UserID: "bob", Scopes: []string{"demo:read", "demo:admin"}, Expiration: time.Now().Add(time.Hour)},
	"none":   {UserID: "eve", Expiration: time.Now().Add(time.Hour)},
}

// scopeServer serves, with OAuth (demoTokens) and in discovery mode, the
// demo's two file tools: read_file (demo:read) and delete_file
// (demo:admin), which counts its runs.
func scopeServer(t *testing.T, stateless bool) (url string, deleted *atomic.Int32) {
	t.Helper()
	deleted = new(atomic.Int32)
	reg := mcptool.NewRegistry(mcptool.Discovery(), mcptool.NoDescription())
	type path struct {
		Path string `json:"path"`
	}
	require.NoError(t, mcptool.Add(reg, "read_file", func(_ context.Context, in path) (string, error) {
		return "contents of " + in.Path, nil
	}, mcptool.ReadOnly(true), mcptool.Scopes("demo:read")))
	require.NoError(t, mcptool.Add(reg, "delete_file", func(_ context.Context, in path) (string, error) {
		deleted.Add(1)
		return "deleted " + in.Path, nil
	}, mcptool.ReadOnly(false), mcptool.Destructive(true), mcptool.Scopes("demo:admin")))
	srv := reg.Server(&mcp.Implementation{Name: "demo", Version: "1"}, nil)
	hs := httptest.NewUnstartedServer(nil)
	hs.Start()
	t.Cleanup(hs.Close)
	hs.Config.Handler = srv.Handler(&mcptool.HTTPOptions{
		Stateless:     stateless,
		TokenVerifier: demoTokens.verify,
		ResourceMetadata: &oauthex.ProtectedResourceMetadata{
			Resource:             hs.URL + "/mcp",
			AuthorizationServers: []string{"https://auth.example.com"},
		},
	})
	return hs.URL + "/mcp", deleted
}

// scopeWire is one way a tools/call reaches the handler.
type scopeWire struct {
	name      string
	stateless bool   // the handler's Stateless option
	version   string // the Mcp-Protocol-Version header
	session   bool   // in a session, opened with the same token
}

var scopeWires = []scopeWire{
	{"2026-07-28", false, "2026-07-28", false},
	{"2025-11-25 session", false, "2025-11-25", true},
	{"2025-11-25 with Stateless", true, "2025-11-25", false},
}

// scopeAnswer is what a test reads of a response.
type scopeAnswer struct {
	code      int
	challenge string // WWW-Authenticate
	ctype     string
	body      string
}

// call sends a tools/call of tool with args, then suffix, with token, over
// w to url (a session opened first when w says so).
func (w scopeWire) call(t *testing.T, url, token, tool, args, suffix string) scopeAnswer {
	t.Helper()
	session := ""
	if w.session {
		a := w.post(t, url, token, "", "initialize", "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
		require.Equal(t, http.StatusOK, a.code, a.body)
		session = a.session
		a = w.post(t, url, token, session, "notifications/initialized", "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		require.Equal(t, http.StatusAccepted, a.code, a.body)
	}
	meta := ""
	if w.version >= "2026-07-28" {
		meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":%q,"arguments":%s%s}}`, tool, args, meta) + suffix
	return w.post(t, url, token, session, "tools/call", tool, body).scopeAnswer
}

type posted struct {
	scopeAnswer
	session string
}

func (w scopeWire) post(t *testing.T, url, token, session, method, tool, body string) posted {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	if method != "initialize" {
		req.Header.Set("Mcp-Protocol-Version", w.version)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if w.version >= "2026-07-28" {
		req.Header.Set("Mcp-Method", method)
		req.Header.Set("Mcp-Name", tool)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return posted{scopeAnswer{resp.StatusCode, resp.Header.Get("WWW-Authenticate"), resp.Header.Get("Content-Type"), string(b)}, resp.Header.Get("Mcp-Session-Id")}
}

// TestHTTPTrailingBytesRefused: a tools/call of delete_file with a
// demo:read token gets 403 and the insufficient_scope challenge; the same
// body with anything but white space after it — the third attack round's
// finding 2, which go-sdk served (200, -32403) past the 403 — gets 400 and
// a JSON-RPC parse error, on every wire, and the tool never runs, even
// for a token that may call it.
func TestHTTPTrailingBytesRefused(t *testing.T) {
	for _, w := range scopeWires {
		t.Run(w.name, func(t *testing.T) {
			url, deleted := scopeServer(t, w.stateless)
			a := w.call(t, url, "reader", "delete_file", `{"path":"a"}`, "")
			require.Equal(t, http.StatusForbidden, a.code, a.body)
			assert.Contains(t, a.challenge, `error="insufficient_scope", scope="demo:admin"`)
			for _, token := range []string{"reader", "admin"} {
				for _, suffix := range []string{"x", "}", "]", " 1", "{}", "\x00"} {
					a := w.call(t, url, token, "delete_file", `{"path":"a"}`, suffix)
					assert.Equal(t, http.StatusBadRequest, a.code, "%s, %q after the call: %s", token, suffix, a.body)
					assert.Equal(t, "application/json", a.ctype)
					var msg struct {
						ID    any `json:"id"`
						Error struct {
							Code    int    `json:"code"`
							Message string `json:"message"`
						} `json:"error"`
					}
					require.NoError(t, json.Unmarshal([]byte(a.body), &msg), a.body)
					assert.Nil(t, msg.ID)
					assert.Equal(t, -32700, msg.Error.Code)
					assert.Contains(t, msg.Error.Message, "parse error: invalid JSON at byte")
				}
			}
			a = w.call(t, url, "admin", "delete_file", `{"path":"a"}`, " \r\n\t")
			assert.Equal(t, http.StatusOK, a.code, "white space after the call: %s", a.body)
			assert.EqualValues(t, 1, deleted.Load(), "only the call followed by white space ran")
		})
	}
}

// TestHTTPProxyCallChallenge: a call of discovery's proxies (call_tool,
// call_write_tool) whose tool needs a scope the token lacks gets the same
// 403 and insufficient_scope challenge as a direct call of that tool (the
// third attack round's finding 6: 200 and -32403, no challenge), on every
// wire; with the scope, the tool runs.
func TestHTTPProxyCallChallenge(t *testing.T) {
	for _, w := range scopeWires {
		t.Run(w.name, func(t *testing.T) {
			url, deleted := scopeServer(t, w.stateless)
			direct := w.call(t, url, "reader", "delete_file", `{"path":"a"}`, "")
			require.Equal(t, http.StatusForbidden, direct.code, direct.body)
			require.Contains(t, direct.challenge, `Bearer error="insufficient_scope", scope="demo:admin", resource_metadata=`)
			proxied := w.call(t, url, "reader", "call_write_tool", `{"name":"delete_file","arguments":{"path":"a"}}`, "")
			assert.Equal(t, direct, proxied, "call_write_tool of delete_file")

			direct = w.call(t, url, "none", "read_file", `{"path":"a"}`, "")
			require.Equal(t, http.StatusForbidden, direct.code, direct.body)
			require.Contains(t, direct.challenge, `scope="demo:read"`)
			for _, proxy := range []string{"call_tool", "call_write_tool"} {
				proxied := w.call(t, url, "none", proxy, `{"name":"read_file","arguments":{"path":"a"}}`, "")
				assert.Equal(t, direct, proxied, "%s of read_file", proxy)
			}

			a := w.call(t, url, "admin", "call_write_tool", `{"name":"delete_file","arguments":{"path":"a"}}`, "")
			assert.Equal(t, http.StatusOK, a.code, a.body)
			assert.Contains(t, a.body, "deleted a")
			assert.EqualValues(t, 1, deleted.Load())
			// A proxy call it cannot resolve runs the proxy, which says why.
			a = w.call(t, url, "reader", "call_tool", `{"name":"delete_file","arguments":{"path":"a"}}`, "")
			assert.Equal(t, http.StatusOK, a.code, a.body)
			assert.Contains(t, a.body, "delete_file is not read-only: call it with call_write_tool")
			assert.EqualValues(t, 1, deleted.Load())
		})
	}
}
