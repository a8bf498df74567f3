package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The MCP Apps extension, as the view tests' client declares it.
const (
	uiExtension = "io.modelcontextprotocol/ui"
	uiMIMEType  = "text/html;profile=mcp-app"
)

// demoServer builds and starts the demo (cmd/mcpgen-demo) over stdio, its
// weather API a fake Open-Meteo, and connects a go-sdk client that declares
// the MCP Apps extension, as a host does.
func demoServer(t *testing.T) *mcp.ClientSession {
	t.Helper()
	dir := t.TempDir()
	bin := buildDemo(t, dir)

	weather := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.URL.Path, "search") {
			_, _ = io.WriteString(w, `{"results":[{"name":"Oslo","admin1":"Oslo","country":"Norway","latitude":59.91,"longitude":10.75,"timezone":"Europe/Oslo"}]}`)
			return
		}
		_, _ = io.WriteString(w, `{"current_units":{"temperature_2m":"°C","wind_speed_10m":"km/h","precipitation":"mm"},`+
			`"current":{"time":"2026-03-01T14:45","temperature_2m":-3.5,"apparent_temperature":-8.1,"relative_humidity_2m":81,"precipitation":0.4,"weather_code":71,"wind_speed_10m":14.2,"wind_direction_10m":250}}`)
	}))
	t.Cleanup(weather.Close)

	cmd := exec.Command(bin, "-data", filepath.Join(dir, "data"), "-weather-url", weather.URL, "-geocoding-url", weather.URL,
		"-allow-private-upstreams", "-allow", "")
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpgen-browsertest", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Extensions: map[string]any{uiExtension: map[string]any{"mimeTypes": []string{uiMIMEType}}}},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// demoView is one tool's view, as a host gets it: the tool's
// _meta.ui.resourceUri, the resource's page, and a call's result.
type demoView struct {
	tool   string
	args   map[string]any
	html   string
	result *mcp.CallToolResult
}

func loadView(t *testing.T, cs *mcp.ClientSession, tools map[string]*mcp.Tool, name string, args map[string]any) demoView {
	t.Helper()
	ctx := context.Background()
	tl := tools[name]
	require.NotNil(t, tl, name)
	ui, _ := tl.Meta["ui"].(map[string]any)
	uri, _ := ui["resourceUri"].(string)
	require.True(t, strings.HasPrefix(uri, "ui://"), "%s has a view: %v", name, tl.Meta)
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	require.NoError(t, err)
	require.Len(t, rr.Contents, 1)
	assert.Equal(t, uiMIMEType, rr.Contents[0].MIMEType)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	require.False(t, res.IsError, "%s: %v", name, res.Content)
	return demoView{tool: name, args: args, html: rr.Contents[0].Text, result: res}
}

// viewHost is a browser tab on the test host page (host/host.html), with the
// security messages the browser logged (CSP violations among them) and the
// execution contexts of its frames.
type viewHost struct {
	*tab
	security []string
	contexts map[string]runtime.ExecutionContextID // by frame ID
	mu       sync.Mutex
}

func openHost(t *testing.T, srvURL string) *viewHost {
	t.Helper()
	bctx, _ := startChromium(t, 4*time.Minute,
		// The view's frame in the page's process, so that the test reaches it.
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "IsolateSandboxedIframes,site-per-process"),
		chromedp.WindowSize(900, 700),
	)
	h := &viewHost{tab: &tab{ctx: bctx}, contexts: map[string]runtime.ExecutionContextID{}}
	require.NoError(t, chromedp.Listen(bctx, func(ev any) {
		h.mu.Lock()
		defer h.mu.Unlock()
		switch ev := ev.(type) {
		case *log.EventEntryAdded:
			if ev.Entry.Source == log.EntrySourceSecurity || strings.Contains(ev.Entry.Text, "Content Security Policy") {
				h.security = append(h.security, ev.Entry.Text)
			}
		case *runtime.EventConsoleAPICalled:
			for _, a := range ev.Args {
				if strings.Contains(string(a.Value), "Content Security Policy") {
					h.security = append(h.security, string(a.Value))
				}
			}
		case *runtime.EventExceptionThrown:
			h.exceptions = append(h.exceptions, ev.ExceptionDetails.Text+" "+exceptionText(ev.ExceptionDetails))
		case *runtime.EventExecutionContextCreated:
			var aux struct {
				FrameID   string `json:"frameId"`
				IsDefault bool   `json:"isDefault"`
			}
			if json.Unmarshal(ev.Context.AuxData, &aux) == nil && aux.IsDefault {
				h.contexts[aux.FrameID] = ev.Context.ID
			}
		}
	}))
	_, err := chromedp.Call(bctx, log.Enable, cdp.Empty{})
	require.NoError(t, err)
	_, err = chromedp.Call(bctx, runtime.Enable, cdp.Empty{})
	require.NoError(t, err)
	_, err = chromedp.Call(bctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 900, Height: 700, DeviceScaleFactor: 1})
	require.NoError(t, err)
	h.do(t, chromedp.Navigate(srvURL+"/"), chromedp.WaitReady(chromedp.CSS("#views")))
	return h
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil {
		return d.Exception.Description
	}
	return ""
}

// mount shows v in the host's iframe and waits until the view initialized
// and was sent its result.
func (h *viewHost) mount(t *testing.T, v demoView, theme string) {
	t.Helper()
	args, err := json.Marshal(v.args)
	require.NoError(t, err)
	res, err := json.Marshal(v.result)
	require.NoError(t, err)
	html, err := json.Marshal(v.html)
	require.NoError(t, err)
	eval[bool](t, h.tab, fmt.Sprintf(`mcpgenHost.mount(%s, %s, %s, %q)`, html, args, res, theme))
	h.poll(t, `mcpgenHost.initialized === true`)
}

// inView evaluates js in the view's frame (the iframe's document), awaiting
// a promise. DevTools evaluation is not subject to the page's policy.
func inView[T any](t *testing.T, h *viewHost, js string) T {
	t.Helper()
	var out T
	deadline := time.Now().Add(30 * time.Second)
	for {
		id := h.viewContext(t)
		r, err := chromedp.Call(h.ctx, runtime.Evaluate, runtime.EvaluateParams{
			Expression: js, ContextID: id, ReturnByValue: new(true), AwaitPromise: new(true),
		})
		if err == nil && r.ExceptionDetails == nil {
			require.NoError(t, json.Unmarshal(r.Result.Value, &out), js)
			return out
		}
		if time.Now().After(deadline) {
			require.NoError(t, err, js)
			require.Nil(t, r.ExceptionDetails, "%s: %s", js, exceptionText(r.ExceptionDetails))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// viewPoll waits until js is true in the view's frame.
func viewPoll(t *testing.T, h *viewHost, js string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !inView[bool](t, h, js) {
		if time.Now().After(deadline) {
			t.Fatalf("view: timed out waiting for %s", js)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// viewContext is the execution context of the iframe's current document.
func (h *viewHost) viewContext(t *testing.T) runtime.ExecutionContextID {
	t.Helper()
	tree, err := chromedp.Call(h.ctx, page.GetFrameTree, cdp.Empty{})
	require.NoError(t, err)
	require.NotEmpty(t, tree.FrameTree.ChildFrames, "the host shows the view in an iframe")
	id := tree.FrameTree.ChildFrames[0].Frame.ID
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.contexts[string(id)]
}

// serveHost serves the test host page (host/host.html, with bundle, its
// script) and answers its views' tool calls through cs; it returns its URL.
func serveHost(t *testing.T, bundle string, cs *mcp.ClientSession) string {
	t.Helper()
	hostPage, err := os.ReadFile(filepath.Join("host", "host.html"))
	require.NoError(t, err)
	hostJS, err := os.ReadFile(bundle)
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(hostPage)
	})
	mux.HandleFunc("GET /host.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write(hostJS)
	})
	// The view's tools/call, which the host forwards to the demo.
	mux.HandleFunc("POST /call", func(w http.ResponseWriter, r *http.Request) {
		var p mcp.CallToolParams
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res, err := cs.CallTool(r.Context(), &p)
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(res)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL

}

// TestDemoViews runs each of the demo's views in a host built on ext-apps'
// AppBridge: the page from resources/read in a sandboxed iframe, fed a real
// result of the demo; it checks what renders, a click that calls the
// app-only tool through the host, axe-core, and that the browser reported
// no Content-Security-Policy violation.
func TestDemoViews(t *testing.T) {
	chromium(t)
	axe := axeSource(t)
	bundle := need(t, "the view tests' host script", filepath.Join("node_modules", ".mcpgen", "host.js"), "ci.sh bundles host/host.js with esbuild")
	cs := demoServer(t)
	lr, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	tools := map[string]*mcp.Tool{}
	for _, tl := range lr.Tools {
		tools[tl.Name] = tl
	}
	assert.Equal(t, map[string]any{"visibility": []any{"app"}}, tools["open_page"].Meta["ui"], "open_page is app-only")

	h := openHost(t, serveHost(t, bundle, cs))

	shots := os.Getenv("MCPGEN_VIEW_SCREENSHOTS")
	check := func(t *testing.T, v demoView, theme string) {
		t.Helper()
		t.Setenv("MCPGEN_SCREENSHOTS", shots)
		h.scheme(t, theme)
		require.True(t, inView[bool](t, h, axe+";typeof axe === 'object'"), "axe-core loads in the view")
		reportAxe(t, theme, inView[[]axeViolation](t, h, axeRun))
		if shots != "" {
			h.screenshot(t, v.tool+"-"+theme)
		}
		h.mu.Lock()
		assert.Empty(t, h.security, "the browser reported no policy violation")
		assert.Empty(t, h.exceptions, "no script threw")
		h.mu.Unlock()
	}

	t.Run("analyze_csv", func(t *testing.T) {
		v := loadView(t, cs, tools, "analyze_csv", map[string]any{"filepath": "sales.csv"})
		var report struct {
			File    string
			Rows    int
			Columns []struct{ Name string }
		}
		raw, _ := json.Marshal(v.result.StructuredContent)
		require.NoError(t, json.Unmarshal(raw, &report))
		require.NotEmpty(t, report.Columns)
		for _, theme := range []string{"light", "dark"} {
			h.mount(t, v, theme)
			viewPoll(t, h, `document.querySelectorAll("#mcpgen-view table tbody tr").length > 0`)
			assert.Equal(t, len(report.Columns), inView[int](t, h, `document.querySelectorAll("#mcpgen-view table tbody tr").length`), "a row per column")
			assert.Equal(t, theme, inView[string](t, h, `document.documentElement.dataset.theme`), "the host's theme")
			assert.Contains(t, inView[string](t, h, `document.body.innerText`), report.File)
			// Sorting by name, descending on the second click.
			names := inView[[]string](t, h, `(() => { const b = [...document.querySelectorAll("th button")].find(b => b.textContent.startsWith("Name")); b.click(); b.click();
				return [...document.querySelectorAll("tbody tr td:first-child")].map(td => td.textContent) })()`)
			require.Len(t, names, len(report.Columns))
			for i := 1; i < len(names); i++ {
				assert.GreaterOrEqual(t, strings.ToLower(names[i-1]), strings.ToLower(names[i]), "sorted descending: %v", names)
			}
			// Filtering to one column.
			shown := inView[int](t, h, fmt.Sprintf(`(() => { const q = document.querySelector(".tools input"); q.value = %q; q.dispatchEvent(new Event("input"));
				return [...document.querySelectorAll("tbody tr")].filter(r => !r.hidden).length })()`, report.Columns[0].Name))
			assert.GreaterOrEqual(t, shown, 1)
			assert.Less(t, shown, len(report.Columns)+1)
			inView[bool](t, h, `(() => { const q = document.querySelector(".tools input"); q.value = ""; q.dispatchEvent(new Event("input")); return true })()`)
			check(t, v, theme)
		}
		// A value that looks like markup stays text.
		hostile := v
		sc, _ := json.Marshal(v.result.StructuredContent)
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc, &m))
		m["file"] = `<img src=x onerror="alert(1)"><script>alert(2)</script>`
		hostile.result = &mcp.CallToolResult{Content: v.result.Content, StructuredContent: m}
		h.mount(t, hostile, "light")
		viewPoll(t, h, `document.querySelectorAll("#mcpgen-view table tbody tr").length > 0`)
		assert.Equal(t, 0, inView[int](t, h, `document.querySelectorAll("#mcpgen-view img, #mcpgen-view script").length`), "no element made of a value")
		assert.Contains(t, inView[string](t, h, `document.getElementById("mcpgen-view").innerText`), `<img src=x onerror="alert(1)">`)
		h.mu.Lock()
		assert.Empty(t, h.exceptions)
		h.mu.Unlock()
	})

	t.Run("get_weather", func(t *testing.T) {
		v := loadView(t, cs, tools, "get_weather", map[string]any{"location": "Oslo"})
		for _, theme := range []string{"light", "dark"} {
			h.mount(t, v, theme)
			viewPoll(t, h, `!!document.querySelector("#mcpgen-view .weather")`)
			text := inView[string](t, h, `document.querySelector("#mcpgen-view").innerText`)
			assert.Contains(t, text, "Oslo")
			assert.Contains(t, text, "-3.5")
			assert.Contains(t, text, "°C")
			assert.Contains(t, text, "km/h")
			check(t, v, theme)
		}
	})

	t.Run("search_pages", func(t *testing.T) {
		v := loadView(t, cs, tools, "search_pages", map[string]any{"query": "meeting"})
		var hits struct {
			Results []struct {
				ID    int64
				Title string
			}
		}
		raw, _ := json.Marshal(v.result.StructuredContent)
		require.NoError(t, json.Unmarshal(raw, &hits))
		require.NotEmpty(t, hits.Results)
		for _, theme := range []string{"light", "dark"} {
			h.mount(t, v, theme)
			viewPoll(t, h, `document.querySelectorAll("#mcpgen-view button.open").length > 0`)
			assert.Equal(t, len(hits.Results), inView[int](t, h, `document.querySelectorAll("#mcpgen-view button.open").length`))
			assert.Equal(t, hits.Results[0].Title, inView[string](t, h, `document.querySelector("#mcpgen-view button.open").textContent`))
			calls := eval[int](t, h.tab, `mcpgenHost.calls.length`)
			inView[bool](t, h, `(document.querySelector("#mcpgen-view button.open").click(), true)`)
			h.poll(t, fmt.Sprintf(`mcpgenHost.calls.length === %d`, calls+1))
			assert.Equal(t, map[string]any{"name": "open_page", "arguments": map[string]any{"id": float64(hits.Results[0].ID)}},
				eval[map[string]any](t, h.tab, `mcpgenHost.calls[mcpgenHost.calls.length-1]`), "the view calls the app-only tool through the host")
			viewPoll(t, h, `document.getElementById("page").innerText.length > 0`)
			assert.Contains(t, inView[string](t, h, `document.getElementById("page").innerText`), hits.Results[0].Title, "the page opened in the view")
			check(t, v, theme)
		}
	})
}
