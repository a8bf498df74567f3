package mcptool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// dispatchRegistry has a tool for each kind of answer a tools/call gets.
func dispatchRegistry(t *testing.T) *mcptool.Registry {
	t.Helper()
	reg := mcptool.NewRegistry()
	type echoIn struct {
		Text string `json:"text" validate:"required"`
	}
	type regionIn struct {
		Region string `json:"region" jsonschema_extras:"x-mcp-header=Region"`
	}
	type out struct {
		N int `json:"n"`
	}
	must := func(err error) { t.Helper(); require.NoError(t, err) }
	must(mcptool.Add(reg, "echo", func(_ context.Context, in echoIn) (string, error) { return in.Text, nil }, mcptool.Description("Echo.")))
	must(mcptool.Add(reg, "structured", func(context.Context, struct{}) (out, error) { return out{N: 7}, nil }, mcptool.Description("Structured.")))
	must(mcptool.Add(reg, "fails", func(context.Context, struct{}) (string, error) { return "", mcptool.Errorf("no %s", "luck") }, mcptool.Description("Fails.")))
	must(mcptool.Add(reg, "bare", func(context.Context, struct{}) (*mcp.CallToolResult, error) { return &mcp.CallToolResult{}, nil }, mcptool.Description("No content.")))
	must(mcptool.Add(reg, "region", func(_ context.Context, in regionIn) (string, error) { return in.Region, nil }, mcptool.Description("Mirrors a header.")))
	must(mcptool.Add(reg, "confirm", func(context.Context, struct{}) (string, error) { return "done", nil }, mcptool.Description("Asks first."), mcptool.Confirm()))
	for _, n := range []string{"t1", "t2", "t3", "t4", "t5"} {
		must(mcptool.Add(reg, n, func(context.Context, struct{}) (string, error) { return n, nil }, mcptool.Description("Filler.")))
	}
	return reg
}

// TestDispatchEquivalence checks that a server built by Registry.Server,
// which answers tools/list and tools/call from the registry, answers every
// request as a server holding each tool (Mount, through go-sdk's AddTool)
// does: the same bytes on the 2026-07-28 wire, page by page.
func TestDispatchEquivalence(t *testing.T) {
	reg := dispatchRegistry(t)
	impl := &mcp.Implementation{Name: "test", Version: "1"}
	opts := &mcp.ServerOptions{PageSize: 4}
	serve := func(srv *mcptool.Server) *wire {
		hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{Stateless: true}))
		t.Cleanup(hs.Close)
		return &wire{t: t, url: hs.URL, caps: map[string]any{"elicitation": map[string]any{}}}
	}
	fast := serve(reg.Server(impl, opts))
	slow := serve(reg.Mount(mcp.NewServer(impl, opts)))

	var rest []map[string]any // what a list result holds besides tools and nextCursor
	pages := func(w *wire) (out [][]any) {
		cursor := ""
		for range 10 {
			params := map[string]any{}
			if cursor != "" {
				params["cursor"] = cursor
			}
			res := w.ok("tools/list", params)
			out = append(out, res["tools"].([]any))
			next, _ := res["nextCursor"].(string)
			delete(res, "tools")
			delete(res, "nextCursor")
			assert.Equal(t, "complete", res["resultType"])
			rest = append(rest, res)
			if next == "" {
				return out
			}
			cursor = next
		}
		t.Fatal("more than 10 pages")
		return nil
	}
	want := pages(slow)
	require.Len(t, want, 3) // 11 tools in pages of 4
	assert.Equal(t, want, pages(fast))
	assert.Equal(t, rest[:3], rest[3:], "the rest of each list result")

	for _, tc := range []struct {
		name   string
		args   map[string]any
		header []string
	}{
		{"echo", map[string]any{"text": "hi"}, nil},
		{"echo", map[string]any{}, nil},          // invalid arguments
		{"echo", map[string]any{"text": 3}, nil}, // of the wrong type
		{"structured", nil, nil},
		{"fails", nil, nil},
		{"bare", nil, nil},
		{"region", map[string]any{"region": "eu"}, []string{"Mcp-Param-Region", "eu"}},
		{"region", map[string]any{"region": "eu"}, []string{"Mcp-Param-Region", "us"}}, // go-sdk refuses the mismatch
		{"region", map[string]any{"region": "eu"}, nil},
		{"nope", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			params := func() map[string]any { return map[string]any{"name": tc.name, "arguments": tc.args} }
			gotRes, gotErr := fast.call("tools/call", params(), tc.header...)
			wantRes, wantErr := slow.call("tools/call", params(), tc.header...)
			assert.Equal(t, wantErr, gotErr)
			assert.Equal(t, wantRes, gotRes)
			if wantErr == nil {
				assert.Equal(t, "complete", gotRes["resultType"])
			}
		})
	}
	t.Run("input required", func(t *testing.T) {
		got := fast.callTool("confirm", nil)
		want := slow.callTool("confirm", nil)
		require.Equal(t, "input_required", want["resultType"])
		assert.NotEmpty(t, got["requestState"])
		delete(got, "requestState") // sealed with a fresh nonce each time
		delete(want, "requestState")
		assert.Equal(t, want, got)
	})
}

// TestDispatchOwnTools checks that tools added to the server itself are
// listed and called beside the registry's, that a registry tool of the
// same name wins, and that a bad cursor is refused.
func TestDispatchOwnTools(t *testing.T) {
	ctx := context.Background()
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("b", func() (string, error) { return "registry b", nil }, mcptool.Description("B.")))
	require.NoError(t, reg.Add("d", func() (string, error) { return "registry d", nil }, mcptool.Description("D.")))
	srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ServerOptions{PageSize: 2})
	own := func(name string) {
		srv.AddTool(&mcp.Tool{Name: name, Description: "own", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "own " + name}}}, nil
			})
	}
	for _, n := range []string{"a", "b", "c", "e", "io.mcpgen.list-changed"} {
		own(n)
	}
	ct, st := mcp.NewInMemoryTransports()
	_, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	defer cs.Close()

	var names, descs []string
	pages := 0
	for tool, err := range cs.Tools(ctx, nil) {
		require.NoError(t, err)
		names, descs = append(names, tool.Name), append(descs, tool.Description)
	}
	cursor := ""
	for {
		lt, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		require.NoError(t, err)
		pages++
		require.LessOrEqual(t, len(lt.Tools), 2)
		if cursor = lt.NextCursor; cursor == "" {
			break
		}
	}
	assert.Equal(t, []string{"a", "b", "c", "d", "e"}, names, "merged by name, the placeholder never listed")
	assert.Equal(t, []string{"own", "B.", "own", "D.", "own"}, descs)
	assert.Equal(t, 3, pages)
	for name, want := range map[string]string{"a": "own a", "b": "registry b", "d": "registry d", "e": "own e"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name})
		require.NoError(t, err)
		assert.Equal(t, want, res.Content[0].(*mcp.TextContent).Text)
	}
	_, err = cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: "%%%"})
	require.ErrorContains(t, err, "invalid cursor")
}

// TestDispatchNoSchemaWork checks that adding a tool to a registry that
// serves a server built by Registry.Server costs about what adding it to
// one that serves nothing does: go-sdk's AddTool (tens of allocations per
// tool, re-marshaling the schemas) is not called for it. (bench/
// BenchmarkRegisterLive measures the time.)
func TestDispatchNoSchemaWork(t *testing.T) {
	fn := func(context.Context, struct {
		Q string `json:"q"`
	}) (string, error) {
		return "", nil
	}
	impl := &mcp.Implementation{Name: "test", Version: "1"}
	allocs := func(serve string) float64 {
		reg := mcptool.NewRegistry()
		var srv *mcptool.Server
		switch serve {
		case "server":
			srv = reg.Server(impl, nil)
		case "mount":
			srv = reg.Mount(mcp.NewServer(impl, nil))
		}
		i := 0
		n := testing.AllocsPerRun(200, func() {
			i++
			if err := mcptool.Add(reg, fmt.Sprintf("t%d", i), fn, mcptool.Description("T.")); err != nil {
				t.Fatal(err)
			}
		})
		runtime.KeepAlive(srv)
		return n
	}
	none, live, held := allocs("none"), allocs("server"), allocs("mount")
	t.Logf("allocations per Add: %v without a server, %v with one from Registry.Server, %v with one it is mounted on", none, live, held)
	assert.LessOrEqual(t, live, none+6)
	assert.Greater(t, held, none+20, "go-sdk's AddTool, which a mounted server still pays")
}
