package mcptool_test

import (
	"context"
	"encoding/json"
	"html/template"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/catalog"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

type forecastArgs struct {
	_    struct{} `mcp:"title=Forecast,readOnly,view,connectDomains=https://api.example.com"`
	City string   `json:"city" validate:"required"`
}

type forecast struct {
	City string `json:"city"`
	// Temperature, in units.temperature.
	Temperature float64 `json:"temperature"`
	Units       struct {
		Temperature string `json:"temperature"`
	} `json:"units"`
}

type openArgs struct {
	ID string `json:"id" validate:"required"`
}

// viewRegistry has a tool with the default view (tag), one with a
// template view (option), an app-only tool, and a plain one; without views
// (views false) the same tools as they were before views: no view, and no
// app-only tool.
func viewRegistry(t *testing.T, views bool) *mcptool.Registry {
	t.Helper()
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)))
	fc := func(_ context.Context, in forecastArgs) (forecast, error) {
		f := forecast{City: in.City, Temperature: 21.5}
		f.Units.Temperature = "°C"
		return f, nil
	}
	if views {
		require.NoError(t, reg.Add("forecast", fc, mcptool.Description("Forecast.")))
	} else {
		type plainArgs struct {
			_    struct{} `mcp:"title=Forecast,readOnly"`
			City string   `json:"city" validate:"required"`
		}
		require.NoError(t, reg.Add("forecast", func(ctx context.Context, in plainArgs) (forecast, error) {
			return fc(ctx, forecastArgs{City: in.City})
		}, mcptool.Description("Forecast.")))
	}
	list := func(_ context.Context, in searchArgs) ([]page, error) {
		return []page{{ID: "p1", Title: "<script>alert(1)</script> " + in.Query}}, nil
	}
	var opts []mcptool.Option
	if views {
		tmpl := template.Must(template.New("list").Parse(`<ul>{{range .}}<li><button data-mcpgen-call="open_page" data-mcpgen-arg-id="{{.ID}}" data-mcpgen-target="page">{{.Title}}</button></li>{{end}}</ul><section id="page"></section>`))
		opts = append(opts, mcptool.View(view.Template(tmpl)))
	}
	require.NoError(t, reg.Add("search", list, append(opts, mcptool.Description("Search."))...))
	if views {
		require.NoError(t, reg.Add("open_page", func(_ context.Context, in openArgs) (string, error) {
			return "page " + in.ID, nil
		}, mcptool.Description("Opens a page."), mcptool.View(view.AppOnly())))
	}
	require.NoError(t, reg.Add("ping", func() (string, error) { return "pong", nil }, mcptool.Description("Ping.")))
	return reg
}

// uiClient is a client that declares the MCP Apps extension.
var uiClient = &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{
	Extensions: map[string]any{view.Extension: map[string]any{"mimeTypes": []string{view.MIMEType}}},
}}

func listTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	m := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		m[tl.Name] = tl
	}
	return m
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// A client that does not declare the extension sees the tools and results
// it saw before views existed: no _meta.ui, no app-only tool (which it
// cannot call either), the same results.
func TestViewsUnchangedWithoutExtension(t *testing.T) {
	forEach(t, func(t *testing.T, kind transportKind, version string) {
		ctx := context.Background()
		with := connect(t, kind, viewRegistry(t, true), version, nil, nil)
		without := connect(t, kind, viewRegistry(t, false), version, nil, nil)
		assert.Equal(t, jsonOf(t, listTools(t, without)), jsonOf(t, listTools(t, with)))
		for _, p := range []*mcp.CallToolParams{
			{Name: "forecast", Arguments: map[string]any{"city": "Oslo"}},
			{Name: "search", Arguments: map[string]any{"query": "go"}},
			{Name: "forecast", Arguments: map[string]any{}},
		} {
			a, err := with.CallTool(ctx, p)
			require.NoError(t, err)
			b, err := without.CallTool(ctx, p)
			require.NoError(t, err)
			assert.Equal(t, jsonOf(t, b), jsonOf(t, a), p.Name)
		}
		_, err := with.CallTool(ctx, &mcp.CallToolParams{Name: "open_page", Arguments: map[string]any{"id": "p1"}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), `unknown tool "open_page"`)
		// The result of initialize, or of server/discover on 2026-07-28 (go-sdk's
		// client keeps either as InitializeResult): no extension, and no
		// resources capability on the pages' account.
		assert.Equal(t, jsonOf(t, without.InitializeResult().Capabilities), jsonOf(t, with.InitializeResult().Capabilities))
		assert.Nil(t, with.InitializeResult().Capabilities.Resources)
		// No page in resources/list, and reading one is reading an unknown
		// resource.
		la, erra := with.ListResources(ctx, nil)
		lb, errb := without.ListResources(ctx, nil)
		assert.Equal(t, errb, erra)
		assert.Equal(t, jsonOf(t, lb), jsonOf(t, la))
		for _, uri := range []string{"ui://mcpgen/forecast.html", "ui://mcpgen/search.html"} {
			_, erra = with.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			_, errb = without.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			require.Error(t, erra)
			assert.Equal(t, errb.Error(), erra.Error())
			assert.Contains(t, erra.Error(), "Resource not found")
		}
	})
}

// The server's own resources stay as they are to a client without the
// extension, and keep the resources capability; only the pages go.
func TestViewsHiddenNextToOwnResources(t *testing.T) {
	ctx := context.Background()
	note := &mcp.Resource{URI: "file:///notes.txt", Name: "notes", MIMEType: "text/plain"}
	read := func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: note.URI, Text: "hi"}}}, nil
	}
	for _, ui := range []bool{false, true} {
		srv := mcp.NewServer(&mcp.Implementation{Name: "own", Version: "1"}, nil)
		srv.AddResource(note, read)
		defer viewRegistry(t, true).Mount(srv).Unmount()
		var copts *mcp.ClientOptions
		if ui {
			copts = uiClient
		}
		st, ct := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		require.NoError(t, err)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, copts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		require.NoError(t, err)
		assert.Equal(t, &mcp.ResourceCapabilities{ListChanged: true}, cs.InitializeResult().Capabilities.Resources)
		rl, err := cs.ListResources(ctx, nil)
		require.NoError(t, err)
		var uris []string
		for _, r := range rl.Resources {
			uris = append(uris, r.URI)
		}
		if ui {
			assert.Equal(t, []string{"file:///notes.txt", "ui://mcpgen/forecast.html", "ui://mcpgen/search.html"}, uris)
		} else {
			assert.Equal(t, []string{"file:///notes.txt"}, uris)
		}
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: note.URI})
		require.NoError(t, err)
		assert.Equal(t, "hi", rr.Contents[0].Text)
		_ = cs.Close()
		_ = ss.Close()
	}
	// A server whose options declare resources keeps declaring them.
	forEach(t, func(t *testing.T, kind transportKind, version string) {
		cs := connect(t, kind, viewRegistry(t, true), version, nil, &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Resources: &mcp.ResourceCapabilities{ListChanged: true}}})
		assert.Equal(t, &mcp.ResourceCapabilities{ListChanged: true}, cs.InitializeResult().Capabilities.Resources)
		rl, err := cs.ListResources(ctx, nil)
		require.NoError(t, err)
		assert.Empty(t, rl.Resources)
	})
}

func TestViewsWithExtension(t *testing.T) {
	forEach(t, func(t *testing.T, kind transportKind, version string) {
		ctx := context.Background()
		cs := connect(t, kind, viewRegistry(t, true), version, uiClient, nil)
		assert.Equal(t, map[string]any{"mimeTypes": []any{view.MIMEType}}, cs.InitializeResult().Capabilities.Extensions[view.Extension])
		tools := listTools(t, cs)
		require.Len(t, tools, 4)
		assert.Equal(t, mcp.Meta{"ui": map[string]any{"resourceUri": "ui://mcpgen/forecast.html"}}, tools["forecast"].Meta)
		assert.Equal(t, mcp.Meta{"ui": map[string]any{"resourceUri": "ui://mcpgen/search.html"}}, tools["search"].Meta)
		assert.Equal(t, mcp.Meta{"ui": map[string]any{"visibility": []any{"app"}}}, tools["open_page"].Meta)
		assert.Nil(t, tools["ping"].Meta)

		rl, err := cs.ListResources(ctx, nil)
		require.NoError(t, err)
		var uris []string
		for _, r := range rl.Resources {
			uris = append(uris, r.URI)
			assert.Equal(t, view.MIMEType, r.MIMEType)
		}
		assert.ElementsMatch(t, []string{"ui://mcpgen/forecast.html", "ui://mcpgen/search.html"}, uris)

		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://mcpgen/forecast.html"})
		require.NoError(t, err)
		require.Len(t, rr.Contents, 1)
		c := rr.Contents[0]
		assert.Equal(t, view.MIMEType, c.MIMEType)
		assert.Equal(t, map[string]any{"csp": map[string]any{"connectDomains": []any{"https://api.example.com"}, "resourceDomains": []any{}}, "prefersBorder": true}, c.Meta["ui"])
		assert.Contains(t, c.Text, "connect-src https://api.example.com;")
		assert.Contains(t, c.Text, `<script type="application/json" id="mcpgen-schema">`)
		assert.Contains(t, c.Text, "<title>Forecast</title>")

		// The app-only tool answers a client that declares the extension.
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "open_page", Arguments: map[string]any{"id": "p1"}})
		require.NoError(t, err)
		assert.Equal(t, "page p1", res.Content[0].(*mcp.TextContent).Text)
		// Its arguments are checked as any tool's.
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "open_page", Arguments: map[string]any{}})
		require.NoError(t, err)
		assert.True(t, res.IsError)

		// A template view's HTML travels in the result's _meta, escaped.
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "go"}})
		require.NoError(t, err)
		html, _ := res.Meta[view.HTMLMeta].(string)
		assert.Equal(t, `<ul><li><button data-mcpgen-call="open_page" data-mcpgen-arg-id="p1" data-mcpgen-target="page">&lt;script&gt;alert(1)&lt;/script&gt; go</button></li></ul><section id="page"></section>`, html)
	})
}

// A server of the user's that mounts the registry gets the same views.
func TestViewsMounted(t *testing.T) {
	ctx := context.Background()
	reg := viewRegistry(t, true)
	for _, ui := range []bool{false, true} {
		srv := mcp.NewServer(&mcp.Implementation{Name: "own", Version: "1"}, nil)
		mounted := reg.Mount(srv)
		var copts *mcp.ClientOptions
		if ui {
			copts = uiClient
		}
		st, ct := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		require.NoError(t, err)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, copts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		require.NoError(t, err)
		tools := listTools(t, cs)
		if ui {
			assert.Len(t, tools, 4)
			assert.Equal(t, mcp.Meta{"ui": map[string]any{"resourceUri": "ui://mcpgen/forecast.html"}}, tools["forecast"].Meta)
		} else {
			assert.Len(t, tools, 3)
			assert.Nil(t, tools["forecast"].Meta)
		}
		_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://mcpgen/search.html"})
		if ui {
			require.NoError(t, err)
		} else {
			assert.EqualError(t, err, `calling "resources/read": Resource not found`)
		}
		mounted.Unmount()
		rl, err := cs.ListResources(ctx, nil)
		require.NoError(t, err)
		assert.Empty(t, rl.Resources, "unmount removes the pages")
		_ = cs.Close()
		_ = ss.Close()
	}
}

// A tool removed from the registry takes its page with it; one added
// brings its own.
func TestViewsFollowTheRegistry(t *testing.T) {
	ctx := context.Background()
	reg := viewRegistry(t, true)
	cs := connect(t, inMemory, reg, "2025-11-25", uiClient, nil)
	reg.Remove("forecast")
	rl, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	require.Len(t, rl.Resources, 1)
	assert.Equal(t, "ui://mcpgen/search.html", rl.Resources[0].URI)
	require.NoError(t, reg.Add("forecast2", func(context.Context, forecastArgs) (forecast, error) { return forecast{}, nil }, mcptool.Description("F.")))
	rl, err = cs.ListResources(ctx, nil)
	require.NoError(t, err)
	assert.Len(t, rl.Resources, 2)
}

func TestViewRegistrationErrors(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)))
	fn := func(context.Context, openArgs) (string, error) { return "", nil }
	err := reg.Add("a", fn, mcptool.View(view.Default().Connect("http://api.example.com", "https://ok.example")))
	assert.EqualError(t, err, `mcptool: tool "a": invalid_definition: view: connectDomains: "http://api.example.com" must use https or wss (http and ws only for localhost)`)
	type domainsOnly struct {
		_  struct{} `mcp:"resourceDomains=https://cdn.example"`
		ID string   `json:"id"`
	}
	err = reg.Add("b", func(context.Context, domainsOnly) (string, error) { return "", nil })
	assert.EqualError(t, err, `mcptool: tool "b": invalid_definition: view: connectDomains and resourceDomains need a view (mcp:"view" or the View option)`)
	err = reg.Add("c", fn, mcptool.View(view.Template(nil)))
	assert.EqualError(t, err, `mcptool: tool "c": invalid_definition: view: view.Template: nil template`)
	type badTag struct {
		_  struct{} `mcp:"view,visibility=user"`
		ID string   `json:"id"`
	}
	err = reg.Add("d", func(context.Context, badTag) (string, error) { return "", nil })
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), `visibility takes model and app, not \"user\"`) || strings.Contains(err.Error(), `visibility takes model and app, not "user"`), err.Error())
}

func TestViewsInCatalog(t *testing.T) {
	c, err := viewRegistry(t, true).Catalog()
	require.NoError(t, err)
	views := map[string]any{}
	for _, tl := range c.Tools {
		views[tl.Name] = tl.View
	}
	assert.Equal(t, map[string]any{
		"forecast":  &catalog.View{URI: "ui://mcpgen/forecast.html", Kind: "default", ConnectDomains: []string{"https://api.example.com"}},
		"search":    &catalog.View{URI: "ui://mcpgen/search.html", Kind: "template"},
		"open_page": &catalog.View{Visibility: []string{"app"}},
		"ping":      (*catalog.View)(nil),
	}, views)
}

// A client without the extension is told of tools coming and going, and of
// the resources it sees changing, but not of a page coming or going with a
// tool: it sees no page. A client with the extension is told of both. On
// both eras and transports, the server holding at first a resource of its
// own, a page, or no resource (then a 2026-07-28 client, declared no
// resources capability, listens for no resources/list_changed).
func TestViewsListChangedWithoutExtension(t *testing.T) {
	for _, start := range []string{"own", "page", "none"} {
		t.Run(start, func(t *testing.T) {
			t.Parallel() // each waits for what must not come
			listChangedWithoutExtension(t, start)
		})
	}
}

func listChangedWithoutExtension(t *testing.T, start string) {
	forEach(t, func(t *testing.T, kind transportKind, version string) {
		ctx := context.Background()
		reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)))
		require.NoError(t, reg.Add("ping", func() (string, error) { return "pong", nil }, mcptool.Description("Ping.")))
		if start == "page" {
			require.NoError(t, reg.Add("open_page", func(_ context.Context, in openArgs) (string, error) { return in.ID, nil }, mcptool.Description("Opens a page."), mcptool.View(view.Default())))
		}
		srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		read := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "hi"}}}, nil
		}
		if start == "own" {
			srv.AddResource(&mcp.Resource{URI: "file:///notes.txt", Name: "notes", MIMEType: "text/plain"}, read)
		}
		acked := make(chan struct{}, 10) // a 2026-07-28 listen is open
		srv.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				res, err := next(ctx, method, req)
				if method == "notifications/subscriptions/acknowledged" {
					acked <- struct{}{}
				}
				return res, err
			}
		})
		// Whether the client with the extension listens for resources/list_changed.
		uiListens := version != "" || start != "none"
		var hs *httptest.Server
		if kind == overHTTP {
			hs = httptest.NewServer(srv.Handler(nil))
			t.Cleanup(hs.Close)
		}
		type heard struct{ tools, resources chan struct{} }
		client := func(ui bool) heard {
			h := heard{make(chan struct{}, 10), make(chan struct{}, 10)}
			opts := mcp.ClientOptions{
				ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) { h.tools <- struct{}{} },
				ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { h.resources <- struct{}{} },
			}
			if ui {
				opts.Capabilities = uiClient.Capabilities
			}
			var transport mcp.Transport
			if kind == overHTTP {
				transport = &mcp.StreamableClientTransport{Endpoint: hs.URL}
			} else {
				st, ct := mcp.NewInMemoryTransports()
				ss, err := srv.Connect(ctx, st, nil)
				require.NoError(t, err)
				t.Cleanup(func() { _ = ss.Close() })
				transport = ct
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &opts).Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
			require.NoError(t, err)
			t.Cleanup(func() { _ = cs.Close() })
			return h
		}
		plain, ui := client(false), client(true)
		if version == "" {
			for range 2 {
				select {
				case <-acked:
				case <-time.After(5 * time.Second):
					t.Fatal("a listen was not acknowledged")
				}
			}
		}
		told := func(ch chan struct{}, what string) {
			t.Helper()
			select {
			case <-ch:
			case <-time.After(5 * time.Second):
				t.Fatalf("no %s", what)
			}
		}
		quiet := func(ch chan struct{}, what string) {
			t.Helper()
			select {
			case <-ch:
				t.Errorf("%s to the client without the extension", what)
			case <-time.After(300 * time.Millisecond):
			}
		}
		fc := func(context.Context, forecastArgs) (forecast, error) { return forecast{}, nil }
		require.NoError(t, reg.Add("forecast", fc, mcptool.Description("Forecast.")))
		told(plain.tools, "tools/list_changed after Add")
		told(ui.tools, "tools/list_changed after Add")
		if uiListens {
			told(ui.resources, "resources/list_changed after a view's Add")
		}
		quiet(plain.resources, "resources/list_changed after a view's Add")

		reg.Remove("forecast")
		told(plain.tools, "tools/list_changed after Remove")
		told(ui.tools, "tools/list_changed after Remove")
		if uiListens {
			told(ui.resources, "resources/list_changed after a view's Remove")
		}
		quiet(plain.resources, "resources/list_changed after a view's Remove")
		if start != "own" {
			return
		}

		// A resource of the server's own: both hear of it.
		srv.AddResource(&mcp.Resource{URI: "file:///more.txt", Name: "more", MIMEType: "text/plain"}, read)
		told(plain.resources, "resources/list_changed after the server's own AddResource")
		told(ui.resources, "resources/list_changed after the server's own AddResource")
	})
}

// A 2026-07-28 client without the extension, which was declared no
// resources capability on the pages' account, is not agreed
// resources/list_changed when it listens for it, as without views; one
// with the extension is.
func TestViewsListenWithoutExtension(t *testing.T) {
	agreed := func(reg *mcptool.Registry, ui bool) any {
		w := newWire(t, reg, false)
		if ui {
			w.caps["extensions"] = map[string]any{view.Extension: map[string]any{"mimeTypes": []string{view.MIMEType}}}
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ack := next(t, w.listen(ctx, map[string]any{"toolsListChanged": true, "resourcesListChanged": true}))
		require.Equal(t, "notifications/subscriptions/acknowledged", ack["method"])
		return params(ack)["notifications"]
	}
	without := agreed(viewRegistry(t, false), false)
	assert.Equal(t, map[string]any{"toolsListChanged": true}, without)
	assert.Equal(t, without, agreed(viewRegistry(t, true), false))
	assert.Equal(t, map[string]any{"toolsListChanged": true, "resourcesListChanged": true}, agreed(viewRegistry(t, true), true))
}

// A page of one's own (view.Page) is served with the policy of every page
// mcpgen builds, the view's origins in it and in its resource's
// _meta.ui.csp.
func TestViewsPageResource(t *testing.T) {
	fsys := fstest.MapFS{"p.html": {Data: []byte("<!doctype html><html><head><title>p</title><script>mcpgenView.onResult(console.log)</script></head><body></body></html>")}}
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)))
	require.NoError(t, reg.Add("mine", func(context.Context, openArgs) (forecast, error) { return forecast{}, nil }, mcptool.Description("Mine."),
		mcptool.View(view.Page(fsys, "p.html").Connect("https://api.example.com").Resources("https://cdn.example.com"))))
	forEach(t, func(t *testing.T, kind transportKind, version string) {
		cs := connect(t, kind, reg, version, uiClient, nil)
		rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "ui://mcpgen/mine.html"})
		require.NoError(t, err)
		require.Len(t, rr.Contents, 1)
		c := rr.Contents[0]
		assert.Equal(t, view.MIMEType, c.MIMEType)
		assert.Equal(t, map[string]any{"csp": map[string]any{"connectDomains": []any{"https://api.example.com"}, "resourceDomains": []any{"https://cdn.example.com"}}, "prefersBorder": true}, c.Meta["ui"])
		assert.True(t, strings.HasPrefix(c.Text, `<!doctype html><html><head>`+"\n"+`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-`), c.Text[:120])
		assert.Contains(t, c.Text, "; connect-src https://api.example.com; ")
		assert.Contains(t, c.Text, "; font-src https://cdn.example.com; ")
	})
}
