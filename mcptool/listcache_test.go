package mcptool_test

import (
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

// listOverHTTP posts tools/list to url with token ("" for none), in the
// 2026-07-28 era or on a 2025-11-25 session, and returns the result's
// ttlMs and cacheScope as sent, and the tools' names.
func listOverHTTP(t *testing.T, url, token, version string) (ttl any, scope any, names []string) {
	t.Helper()
	post := func(session, body string, hdr map[string]string) (*http.Response, []byte) {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", version)
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Less(t, resp.StatusCode, 300, "%s", b)
		return resp, b
	}
	var body []byte
	if version == "2026-07-28" {
		_, body = post("", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`,
			map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"})
	} else {
		resp, _ := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, nil)
		session := resp.Header.Get("Mcp-Session-Id")
		post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
		_, body = post(session, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, nil)
	}
	for line := range strings.Lines(string(body)) { // an event stream
		if strings.HasPrefix(line, "data: {") {
			body = []byte(strings.TrimPrefix(line, "data: "))
		}
	}
	var msg struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	require.NoError(t, json.Unmarshal(body, &msg), "%q", body)
	var tools []struct{ Name string }
	require.NoError(t, json.Unmarshal(msg.Result["tools"], &tools), "%s", body)
	for _, x := range tools {
		names = append(names, x.Name)
	}
	if raw, ok := msg.Result["ttlMs"]; ok {
		require.NoError(t, json.Unmarshal(raw, &ttl))
	}
	if raw, ok := msg.Result["cacheScope"]; ok {
		require.NoError(t, json.Unmarshal(raw, &scope))
	}
	return ttl, scope, names
}

// With authorization on, tools/list is filtered by the caller's scopes but
// was answered "cacheScope": "public" (issue 33.2), which lets an
// intermediary serve one user's list to another. A list that depends on the
// token is private; ttlMs is the registry's ListTTL (issue 35.6).
func TestToolListCacheScope(t *testing.T) {
	hs, _ := authServer(t, mcptool.ListTTL(90*time.Second))
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		ttl, scope, names := listOverHTTP(t, hs.URL+"/mcp", "reader", version)
		assert.Equal(t, []string{"open", "read"}, names, version)
		assert.Equal(t, "private", scope, version)
		assert.Equal(t, float64(90000), ttl, version)
		ttl, scope, names = listOverHTTP(t, hs.URL+"/mcp", "writer", version)
		assert.Equal(t, []string{"open", "read", "write"}, names, version)
		assert.Equal(t, "private", scope, version)
		assert.Equal(t, float64(90000), ttl, version)
	}

	// Without authorization the list is everyone's: public; ttlMs 0 by default.
	reg := mcptool.NewRegistry(mcptool.NoDescription())
	require.NoError(t, reg.Add("read", func() (string, error) { return "", nil }, mcptool.Scopes("notes:read")))
	open := httptest.NewServer(reg.Server(&mcp.Implementation{Name: "n", Version: "1"}, nil).Handler(nil))
	t.Cleanup(open.Close)
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		ttl, scope, names := listOverHTTP(t, open.URL, "", version)
		assert.Equal(t, []string{"read"}, names, version)
		assert.Equal(t, "public", scope, version)
		assert.Equal(t, float64(0), ttl, version)
	}
}
