package mcptool_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// viewTokens: one token that grants no scope, one that grants the
// forecast's.
var viewTokens = tokens{
	"none":    {UserID: "eve", Expiration: time.Now().Add(time.Hour)},
	"weather": {UserID: "ada", Scopes: []string{"weather:read"}, Expiration: time.Now().Add(time.Hour)},
}

// scopedViews has two tools with a page: forecast, which needs
// weather:read, and outlook, which needs no scope.
func scopedViews(t *testing.T, opts ...mcptool.RegistryOption) *mcptool.Registry {
	t.Helper()
	reg := mcptool.NewRegistry(append([]mcptool.RegistryOption{mcptool.Logger(slog.New(slog.DiscardHandler))}, opts...)...)
	fc := func(_ context.Context, in forecastArgs) (forecast, error) { return forecast{City: in.City}, nil }
	require.NoError(t, reg.Add("forecast", fc, mcptool.Description("Forecast."), mcptool.Scopes("weather:read")))
	require.NoError(t, reg.Add("outlook", fc, mcptool.Description("Outlook."), mcptool.Scopes()))
	return reg
}

// viewPaths are the ways a registry's pages are served, each returning a
// session of a client that declares the extension, with the verified token
// named: go-sdk's sessions over HTTP, the 2026-07-28 requests over HTTP
// (go-sdk's stateless handler, under the registry's middleware), a server
// of the user's the registry is mounted on, and stdio under Authenticated.
var viewPaths = map[string]func(t *testing.T, reg *mcptool.Registry, token string) *mcp.ClientSession{
	"http/2025-11-25": func(t *testing.T, reg *mcptool.Registry, token string) *mcp.ClientSession {
		return viewOverHTTP(t, reg.Server(&mcp.Implementation{Name: "views", Version: "1"}, nil), token, "2025-11-25")
	},
	"http/2026-07-28": func(t *testing.T, reg *mcptool.Registry, token string) *mcp.ClientSession {
		return viewOverHTTP(t, reg.Server(&mcp.Implementation{Name: "views", Version: "1"}, nil), token, "")
	},
	"mount/2025-11-25": func(t *testing.T, reg *mcptool.Registry, token string) *mcp.ClientSession {
		srv := reg.Mount(mcp.NewServer(&mcp.Implementation{Name: "own", Version: "1"}, nil))
		t.Cleanup(srv.Unmount)
		return viewOverHTTP(t, srv, token, "2025-11-25")
	},
	"stdio": func(t *testing.T, reg *mcptool.Registry, token string) *mcp.ClientSession {
		srv := reg.Server(&mcp.Implementation{Name: "views", Version: "1"}, nil)
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(mcptool.Authenticated(t.Context(), viewTokens[token]))
		done := make(chan error, 1)
		go func() { done <- srv.Run(ctx, &mcptool.StdioTransport{Reader: inR, Writer: outW}) }()
		t.Cleanup(func() { cancel(); inW.Close(); <-done })
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, uiClient).Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	},
}

func viewOverHTTP(t *testing.T, srv *mcptool.Server, token, version string) *mcp.ClientSession {
	hs := httptest.NewUnstartedServer(nil)
	hs.Start()
	t.Cleanup(hs.Close)
	hs.Config.Handler = srv.Handler(&mcptool.HTTPOptions{TokenVerifier: viewTokens.verify, ResourceMetadata: &oauthex.ProtectedResourceMetadata{
		Resource: hs.URL, AuthorizationServers: []string{"https://auth.example.com"},
	}})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, uiClient).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: bearerClient(token)}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// TestViewPagesFollowScopes: the third attack round's finding 4. A client
// that declares the extension, with a token that grants no scope, was
// listed the page of forecast, which tools/list hid from it, and could read
// it. On every path, the pages it may have are those of the tools it may
// call: forecast's page is not listed, and reading it is answered as
// reading a page that does not exist; with weather:read it is listed and
// read. No resource template stands for a page.
func TestViewPagesFollowScopes(t *testing.T) {
	const forecastPage, outlookPage = "ui://mcpgen/forecast.html", "ui://mcpgen/outlook.html"
	for name, open := range viewPaths {
		for _, c := range []struct {
			token string
			tools []string
			pages []string
		}{
			{"none", []string{"outlook"}, []string{outlookPage}},
			{"weather", []string{"forecast", "outlook"}, []string{forecastPage, outlookPage}},
		} {
			t.Run(name+"/"+c.token, func(t *testing.T) {
				cs := open(t, scopedViews(t), c.token)
				ctx := t.Context()
				assert.Equal(t, c.tools, toolNames(t, cs))

				lr, err := cs.ListResources(ctx, nil)
				require.NoError(t, err)
				var uris []string
				for _, r := range lr.Resources {
					uris = append(uris, r.URI)
				}
				slices.Sort(uris)
				assert.Equal(t, c.pages, uris)
				assert.Equal(t, "private", lr.CacheScope, "the list depends on the token")

				tl, err := cs.ListResourceTemplates(ctx, nil)
				require.NoError(t, err)
				assert.Empty(t, tl.ResourceTemplates)

				rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: forecastPage})
				if slices.Contains(c.pages, forecastPage) {
					require.NoError(t, err)
					require.Len(t, rr.Contents, 1)
					assert.Contains(t, rr.Contents[0].Text, "<html")
					assert.Equal(t, "private", rr.CacheScope, "the page is there by the token")
				} else {
					require.Error(t, err, "a page of a tool the token may not call")
					_, unknown := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://mcpgen/nothing.html"})
					require.Error(t, unknown)
					var refused, missing *jsonrpc.Error
					require.ErrorAs(t, err, &refused)
					require.ErrorAs(t, unknown, &missing)
					assert.Equal(t, missing.Code, refused.Code)
					assert.Equal(t, missing.Message, refused.Message)
					assert.EqualValues(t, jsonrpc.CodeInvalidParams, refused.Code) // resource not found, since SEP-2164
				}
				rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: outlookPage})
				require.NoError(t, err, "a page of a tool that needs no scope")
				assert.Equal(t, "public", rr.CacheScope)
			})
		}
	}
}

// ListAllTools lists the tools a token may not call, not their pages: a
// page is the view of a tool the caller can use.
func TestViewPagesListAllTools(t *testing.T) {
	cs := viewPaths["http/2025-11-25"](t, scopedViews(t, mcptool.ListAllTools()), "none")
	assert.Equal(t, []string{"forecast", "outlook"}, toolNames(t, cs))
	lr, err := cs.ListResources(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, lr.Resources, 1)
	assert.Equal(t, "ui://mcpgen/outlook.html", lr.Resources[0].URI)
	_, err = cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "ui://mcpgen/forecast.html"})
	assert.Error(t, err)
}

// A caller without a verified token (authorization off) may call every
// tool, and so has every page.
func TestViewPagesWithoutAuthorization(t *testing.T) {
	cs := connect(t, inMemory, scopedViews(t), "", uiClient, nil)
	lr, err := cs.ListResources(t.Context(), nil)
	require.NoError(t, err)
	assert.Len(t, lr.Resources, 2)
	assert.Equal(t, "public", lr.CacheScope)
	_, err = cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "ui://mcpgen/forecast.html"})
	assert.NoError(t, err)
}
