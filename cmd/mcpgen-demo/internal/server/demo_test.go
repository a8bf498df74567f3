package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

// newDemoApp builds the demo toolset on a fresh data directory. mod may
// change its settings first (upstream URLs, token, ...).
func newDemoApp(t *testing.T, mod func(*config)) (*app, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	// The tests' upstreams are httptest servers on loopback.
	cfg := config{features: full(), toolset: "demo", dataDir: dir, privateUpstreams: true}
	if mod != nil {
		mod(&cfg)
	}
	a, err := newApp(cfg, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, a.close()) })
	return a, dir
}

// demoSession connects a go-sdk client (mcptest's) to a's server over
// in-memory transports, on protocol version ("" lets them pick: 2026-07-28).
func demoSession(t *testing.T, a *app, version string, opts ...mcptest.Option) *mcptest.Conn {
	t.Helper()
	return mcptest.Client(t, a.reg, append([]mcptest.Option{mcptest.Server(a.srv), mcptest.Version(version)}, opts...)...)
}

// demoClient is a demo toolset on a fresh data directory and a client
// session to it.
func demoClient(t *testing.T, mod func(*config), opts ...mcptest.Option) (*mcptest.Conn, string) {
	t.Helper()
	a, dir := newDemoApp(t, mod)
	return demoSession(t, a, "", opts...), dir
}

// okResult returns a successful call's structuredContent, decoded into a
// generic map.
func okResult(t *testing.T, res *mcptest.Result) map[string]any {
	t.Helper()
	require.False(t, res.IsError, "isError result: %s", res.Text())
	var m map[string]any
	res.Decode(&m)
	// The text block carries the same JSON, for clients that ignore
	// structuredContent.
	raw, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	assert.JSONEq(t, string(raw), res.Text())
	return m
}

// errResult returns the text of an isError result.
func errResult(t *testing.T, res *mcptest.Result) string {
	t.Helper()
	require.True(t, res.IsError, "want an isError result, got %s", res.Text())
	txt := res.ErrorText()
	assert.NotContains(t, txt, "internal error", "the model should read what went wrong")
	return txt
}

// confirmer answers the confirmation questions of delete_file and
// delete_page, and remembers them.
type confirmer struct {
	accept bool
	mu     sync.Mutex
	asked  []string
}

func (c *confirmer) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	c.mu.Lock()
	c.asked = append(c.asked, req.Params.Message)
	c.mu.Unlock()
	if !c.accept {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
}

func (c *confirmer) questions() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.asked...)
}

// hints are a tool's annotation hints at their effective values.
type hints struct{ readOnly, destructive, idempotent, openWorld bool }

// TestDemoToolDefinitions checks what every demo tool shows clients: a
// title, a description with an example, a description on every property of
// its input and output schemas, an output schema, and the hints the seeds
// give it (or, where they give none, the ones that are true of it).
func TestDemoToolDefinitions(t *testing.T) {
	want := map[string]hints{
		// Seeds: title "Calculate Sum", readOnlyHint true, openWorldHint false.
		"calculate_sum": {readOnly: true},
		"analyze_csv":   {readOnly: true},
		// Writes a file it names, replacing it with the same content.
		"generate_csv": {idempotent: true},
		// Seeds: title "Delete File", readOnlyHint false, destructiveHint true,
		// idempotentHint true, openWorldHint false.
		"delete_file": {destructive: true, idempotent: true},
		// Seeds: title "Create Database Record", readOnlyHint false,
		// destructiveHint false, idempotentHint false, openWorldHint false.
		"create_record": {},
		// Seeds: title "Web Search", readOnlyHint true, openWorldHint true.
		"web_search":  {readOnly: true, openWorld: true},
		"get_weather": {readOnly: true, openWorld: true},
		// Seeds give no hints. Every program it may run has a built-in
		// policy that only reads and reports, confined to the files folder.
		"execute_command": {readOnly: true},
		// Seeds give no hints: it adds an issue on GitHub.
		"github_create_issue": {openWorld: true},
		"search_pages":        {readOnly: true},
		"get_page":            {readOnly: true},
		// Seeds: "DESTRUCTIVE - requires confirmation".
		"delete_page": {destructive: true, idempotent: true},
		// The library (library/library.proto), by mcpproto.
		"library_search_books": {readOnly: true},
		"library_lend_book":    {},
		"library_return_book":  {},
	}
	titles := map[string]string{
		"calculate_sum": "Calculate Sum", "delete_file": "Delete File",
		"create_record": "Create Database Record", "web_search": "Web Search",
	}
	a, _ := newDemoApp(t, nil)
	cs := demoSession(t, a, "")
	var names []string
	for _, tl := range cs.Tools() {
		names = append(names, tl.Name)
		t.Run(tl.Name, func(t *testing.T) {
			h, ok := want[tl.Name]
			require.True(t, ok, "unexpected tool")
			assert.NotEmpty(t, tl.Title)
			if title, ok := titles[tl.Name]; ok {
				assert.Equal(t, title, tl.Title, "the seeds' title")
			}
			assert.Contains(t, tl.Description, "Example: {", "the description shows an example call")
			an := tl.Annotations
			require.NotNil(t, an)
			got := hints{readOnly: an.ReadOnlyHint, idempotent: an.IdempotentHint,
				destructive: !an.ReadOnlyHint && (an.DestructiveHint == nil || *an.DestructiveHint),
				openWorld:   an.OpenWorldHint == nil || *an.OpenWorldHint}
			assert.Equal(t, h, got)
			require.NotNil(t, tl.OutputSchema, "every demo tool has a structured, documented result")
			for _, s := range []struct {
				name   string
				schema any
			}{{"inputSchema", tl.InputSchema}, {"outputSchema", tl.OutputSchema}} {
				raw, err := json.Marshal(s.schema)
				require.NoError(t, err)
				var m map[string]any
				require.NoError(t, json.Unmarshal(raw, &m))
				for _, p := range undescribed(m, "") {
					t.Errorf("%s: property %s has no description", s.name, p)
				}
			}
		})
	}
	assert.ElementsMatch(t, keys(want), names)
}

// undescribed lists the properties of an object schema, at any depth, that
// have no description.
func undescribed(s map[string]any, path string) []string {
	var out []string
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		ps, _ := p.(map[string]any)
		if d, _ := ps["description"].(string); d == "" {
			out = append(out, path+name)
		}
		out = append(out, undescribed(ps, path+name+".")...)
		if items, ok := ps["items"].(map[string]any); ok {
			out = append(out, undescribed(items, path+name+"[].")...)
		}
	}
	return out
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestCalculateSum(t *testing.T) {
	cs, _ := demoClient(t, nil)
	assert.Equal(t, map[string]any{"sum": 6.5}, okResult(t, cs.Call("calculate_sum", map[string]any{"a": 2.5, "b": 4})))
	assert.Contains(t, errResult(t, cs.Call("calculate_sum", map[string]any{"a": 1e308, "b": 1e308})), "overflows")
	msg := errResult(t, cs.Call("calculate_sum", map[string]any{"a": "2"}))
	assert.Contains(t, msg, "a: must be a number, got string (type)")
	assert.Contains(t, msg, "b: is required but missing (required)")
}

// TestStreamableHTTP serves the demo over streamable HTTP, as -http does,
// and calls tools in both protocol eras, including delete_page's
// confirmation (elicitation on 2025-11-25, an input-required round trip on
// 2026-07-28).
func TestStreamableHTTP(t *testing.T) {
	a, _ := newDemoApp(t, nil)
	for _, tc := range []struct{ version, want, page string }{
		{"2025-11-25", "2025-11-25", "cheat sheet"},
		{"", "2026-07-28", "onboarding checklist"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			conf := &confirmer{accept: true}
			cs := demoSession(t, a, tc.version, mcptest.HTTP(nil), mcptest.Elicit(conf.handle))
			require.Equal(t, tc.want, cs.Session.InitializeResult().ProtocolVersion)
			assert.Len(t, cs.Tools(), 15) // 12, and the library's 3 (library/)
			assert.Equal(t, map[string]any{"sum": 3.0}, okResult(t, cs.Call("calculate_sum", map[string]any{"a": 1, "b": 2})))

			hits := okResult(t, cs.Call("search_pages", map[string]any{"query": tc.page}))["results"].([]any)
			require.Len(t, hits, 1)
			id := hits[0].(map[string]any)["id"]
			del := okResult(t, cs.Call("delete_page", map[string]any{"id": id}))
			assert.Equal(t, true, del["deleted"])
			assert.Len(t, conf.questions(), 1, "the user was asked once")
			assert.Contains(t, errResult(t, cs.Call("get_page", map[string]any{"id": id})), "no page with id")
		})
	}
}

// TestStatelessHTTP serves the demo as -http -stateless does: no sessions,
// so a 2025-era client cannot be asked to confirm, and delete_page refuses.
func TestStatelessHTTP(t *testing.T) {
	a, _ := newDemoApp(t, nil)
	cs := demoSession(t, a, "2025-11-25", mcptest.HTTP(&mcptool.HTTPOptions{Stateless: true}), mcptest.Elicit((&confirmer{accept: true}).handle))
	hits := okResult(t, cs.Call("search_pages", map[string]any{"query": "welcome"}))["results"].([]any)
	require.Len(t, hits, 1)
	assert.Contains(t, errResult(t, cs.Call("delete_page", map[string]any{"id": 1})), "cannot ask the user")
	okResult(t, cs.Call("get_page", map[string]any{"id": 1}))
}

func TestFlags(t *testing.T) {
	t.Setenv("MCPGEN_SEARCH_URL", "http://127.0.0.1:8888/search")
	t.Setenv("MCPGEN_WEATHER_URL", "http://weather.test")
	t.Setenv("GITHUB_TOKEN", "")
	t.Setenv("GH_TOKEN", "gh-token")
	var stderr bytes.Buffer
	cfg, err := parseFlags(full(), []string{"-data", "/tmp/x", "-confirm=false", "-github-url", "http://gh.test/api/v3"}, &stderr)
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:8888/search", cfg.searchURL)
	assert.Equal(t, "http://weather.test", cfg.weatherURL)
	assert.Equal(t, defaultGeocodingURL, cfg.geocodingURL)
	assert.Equal(t, "http://gh.test/api/v3", cfg.githubURL)
	assert.Equal(t, "gh-token", cfg.githubToken)
	assert.Equal(t, "/tmp/x", cfg.dataDir)
	assert.True(t, cfg.noConfirm)
	assert.Nil(t, cfg.allow, "no -allow: the defaults")

	cfg, err = parseFlags(full(), []string{"-allow", "echo, wc"}, &stderr)
	require.NoError(t, err)
	assert.Equal(t, []string{"echo", "wc"}, cfg.allow)
	cfg, err = parseFlags(full(), []string{"-allow", ""}, &stderr)
	require.NoError(t, err)
	assert.Equal(t, []string{}, cfg.allow, "-allow '': none")

	_, err = parseFlags(full(), []string{"stray"}, &stderr)
	assert.ErrorContains(t, err, `unexpected argument "stray"`)
	assert.NoError(t, run(context.Background(), full(), []string{"-help"}, strings.NewReader(""), &bytes.Buffer{}, &stderr))
	assert.Contains(t, stderr.String(), "GITHUB_TOKEN")
}

// TestNoCommands checks that -allow ” leaves execute_command out.
func TestNoCommands(t *testing.T) {
	a, _ := newDemoApp(t, func(c *config) { c.allow = []string{} })
	_, ok := a.reg.Tool("execute_command")
	assert.False(t, ok)
	assert.Equal(t, 15, len(a.reg.Tools())) // 12 (open_page among them), and the library's 3
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// deadURL is the URL of a server that is gone: connecting to it fails at
// once, as with no network.
func deadURL(t *testing.T) string {
	t.Helper()
	ts := httptest.NewServer(nil)
	u := ts.URL
	ts.Close()
	return u
}
