package server

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/adapters/oauth/oauthtest"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

// The third attack round's finding 4, as it was found: with -auth-issuer,
// a client that declares MCP Apps with a token that grants no demo scope
// was listed the pages of analyze_csv, get_weather and search_pages, which
// tools/list hid from it, and read them. Now it has none of them, and
// reading one is answered as reading a page that does not exist; a
// demo:read token still lists and reads them, in both eras.
func TestDemoViewPagesFollowScopes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo binary")
	}
	iss, err := oauthtest.NewIssuer()
	require.NoError(t, err)
	defer iss.Close()
	const audience = "http://mcp.test/mcp"
	url, _ := httpDemo(t, buildDemo(t), "-auth-issuer", iss.URL, "-auth-audience", audience)
	ui := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{
		Extensions: map[string]any{view.Extension: map[string]any{"mimeTypes": []string{view.MIMEType}}},
	}}
	pages := []string{"ui://mcpgen/analyze_csv.html", "ui://mcpgen/get_weather.html", "ui://mcpgen/search_pages.html"}
	for _, version := range []string{"2025-11-25", ""} {
		for _, scope := range []string{"profile", "demo:read"} {
			era := version
			if era == "" {
				era = "2026-07-28"
			}
			t.Run(era+"/"+scope, func(t *testing.T) {
				tok, err := iss.Token(oauthtest.Claims{"sub": "eve", "aud": audience, "scope": scope}, "")
				require.NoError(t, err)
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, ui).Connect(t.Context(),
					&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{tok}}},
					&mcp.ClientSessionOptions{ProtocolVersion: version})
				require.NoError(t, err)
				defer cs.Close()
				var listed []string
				for r, err := range cs.Resources(t.Context(), nil) {
					require.NoError(t, err)
					if strings.HasPrefix(r.URI, "ui://") {
						listed = append(listed, r.URI)
					}
				}
				slices.Sort(listed)
				for _, page := range pages {
					_, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: page})
					if scope == "demo:read" {
						assert.NoError(t, err, page)
					} else {
						assert.ErrorContains(t, err, "Resource not found", page)
					}
				}
				if scope == "demo:read" {
					assert.Equal(t, pages, listed)
				} else {
					assert.Empty(t, listed)
				}
			})
		}
	}
}
