package mcptool_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/adapter"
)

// seenHeaders is what a tool and its middleware read of the request's
// credentials and of a header of the client's own.
func seenHeaders(req *mcp.CallToolRequest) string {
	if req == nil || req.Extra == nil {
		return "no request"
	}
	h := req.Extra.Header
	return strings.Join([]string{h.Get("Authorization"), h.Get("Cookie"), h.Get("Proxy-Authorization"), h.Get("X-Trace")}, "|")
}

// A tool behind a TokenVerifier read the caller's bearer token from
// mcptool.Request(ctx).Extra.Header (issue 33.1). Tools, middleware and
// adapters see the request's headers without the credentials, in both eras;
// the principal is Caller's.
func TestToolHeadersHoldNoCredentials(t *testing.T) {
	var inMiddleware []string
	reg := mcptool.NewRegistry(mcptool.NoDescription(), mcptool.Use(func(next mcptool.Handler) mcptool.Handler {
		return func(ctx context.Context, c *mcptool.Call) (*mcp.CallToolResult, error) {
			inMiddleware = append(inMiddleware, seenHeaders(c.Request))
			return next(ctx, c)
		}
	}))
	require.NoError(t, mcptool.Add(reg, "headers", func(ctx context.Context, _ struct{}) (string, error) {
		p, _ := mcptool.Caller(ctx)
		return seenHeaders(mcptool.Request(ctx)) + " " + p.Subject, nil
	}, mcptool.Scopes()))
	hs := httptest.NewUnstartedServer(nil)
	hs.Start()
	t.Cleanup(hs.Close)
	hs.Config.Handler = reg.Server(&mcp.Implementation{Name: "h", Version: "1"}, nil).Handler(&mcptool.HTTPOptions{
		TokenVerifier:    testTokens.verify,
		ResourceMetadata: &oauthex.ProtectedResourceMetadata{Resource: hs.URL + "/mcp", AuthorizationServers: []string{"https://auth.example.com"}},
	})
	client := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("authorization", "Bearer reader") // any case
		r.Header.Set("Cookie", "session=secret")
		r.Header.Set("Proxy-Authorization", "Basic cHJveHk6c2VjcmV0")
		r.Header.Set("X-Trace", "t-1")
		return http.DefaultTransport.RoundTrip(r)
	})}
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
		cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: hs.URL + "/mcp", HTTPClient: client}, &mcp.ClientSessionOptions{ProtocolVersion: version})
		require.NoError(t, err, version)
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "headers"})
		require.NoError(t, err, version)
		assert.Equal(t, "|||t-1 ada", res.Content[0].(*mcp.TextContent).Text, version)
		_ = cs.Close()
	}
	assert.Equal(t, []string{"|||t-1", "|||t-1"}, inMiddleware, "middleware sees no credentials either")

	// An adapter's peer hands over a request with the credentials in it.
	hdr := http.Header{"Authorization": {"Bearer reader"}, "cookie": {"session=secret"}, "X-Trace": {"t-2"}}
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "headers"}, Extra: &mcp.RequestExtra{Header: hdr, TokenInfo: &auth.TokenInfo{UserID: "ada"}}}
	res, err := adapter.Invoke(t.Context(), reg, "headers", json.RawMessage(`{}`), tokenPeer{req})
	require.NoError(t, err)
	assert.Equal(t, "|||t-2 ada", res.Content[0].(*mcp.TextContent).Text)
	assert.Equal(t, "Bearer reader", hdr.Get("Authorization"), "the adapter's own request is left as it was")
}
