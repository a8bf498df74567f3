package mcpgo_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/adapters/mcpgo"
	"github.com/mcpgen/mcpgen/mcptool"
)

// A tool served on mcp-go read the client's bearer token from
// mcpgo.Request(ctx).Header (issue 33.1): the credential headers are gone,
// the others stay.
func TestRequestHoldsNoCredentials(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("headers", func(ctx context.Context) (string, error) {
		h := mcpgo.Request(ctx).Header
		return h.Get("Authorization") + "|" + h.Get("Cookie") + "|" + h.Get("Proxy-Authorization") + "|" + h.Get("X-Trace"), nil
	}, mcptool.Description("Shows headers.")))
	s := server.NewMCPServer("h", "1")
	defer mcpgo.Mount(reg, s)()
	hs := httptest.NewServer(server.NewStreamableHTTPServer(s))
	defer hs.Close()

	post := func(session, body string) (*http.Response, string) {
		req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("authorization", "Bearer secret-token")
		req.Header.Set("Cookie", "session=secret")
		req.Header.Set("Proxy-Authorization", "Basic c2VjcmV0")
		req.Header.Set("X-Trace", "t-1")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	resp, _ := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	session := resp.Header.Get("Mcp-Session-Id")
	post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_, body := post(session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"headers","arguments":{}}}`)
	assert.Contains(t, body, `"text":"|||t-1"`)
	assert.NotContains(t, body, "secret")
}
