package mcptool

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A wire of mcpgen's own invokes the tool it found when it decoded the
// call, unless a middleware of the user's stands between: that one sees
// go-sdk's request and may rename the call, and the tool then invoked is
// the one the call names once it is through. On each wire, with and
// without such a middleware.
func TestToolCallResolvedOnce(t *testing.T) {
	for _, renamed := range []bool{false, true} {
		reg := NewRegistry()
		require.NoError(t, reg.Add("a", func(context.Context) (string, error) { return "from a", nil }, Description("A.")))
		require.NoError(t, reg.Add("b", func(context.Context) (string, error) { return "from b", nil }, Description("B.")))
		srv := reg.Server(&mcp.Implementation{Name: "t", Version: "1"}, nil)
		want := `"text":"from a"`
		if renamed {
			want = `"text":"from b"`
			srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
				return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
					if call, ok := req.(*mcp.CallToolRequest); ok && call.Params.Name == "a" {
						call.Params.Name = "b"
					}
					return next(ctx, method, req)
				}
			})
		}
		t.Run(map[bool]string{false: "as decoded", true: "renamed by middleware"}[renamed], func(t *testing.T) {
			e := startStdioEnd(t, srv, true)
			e.run(stdioStep{send: []string{stdioInit("2025-11-25", `{}`), `{"jsonrpc":"2.0","method":"notifications/initialized"}`}, until: `"init"`})
			assert.Contains(t, e.run(stdioStep{send: []string{stdioCallLine("1", "a", `{}`)}, until: "1"})[0], want, "stdio")

			h := newHTTPHandler(srv, nil, true)
			a, _ := send(h, modernHeaders("tools/call", "a"), callBody("1", "a", `{}`, ""))
			assert.Contains(t, a.Body, want, "2026-07-28")

			hs := httptest.NewServer(h)
			defer hs.Close()
			s := &sessionSide{t: t, url: hs.URL, client: hs.Client()}
			s.open("2025-11-25", `{}`)
			assert.Contains(t, s.post(sessionCall("1", "a", `{}`)).Body, want, "2025-11-25 session")
		})
	}
}
