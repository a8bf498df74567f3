package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

type invoiceArgs struct {
	_  struct{} `mcp:"readOnly,group=billing,eager"`
	ID string   `json:"id" validate:"required" jsonschema:"description=The invoice's ID"`
}

type refundArgs struct {
	_      struct{} `mcp:"group=billing"`
	ID     string   `json:"id" validate:"required" jsonschema:"description=The invoice to refund"`
	Amount int      `json:"amount" validate:"min=1" jsonschema:"description=Cents to give back"`
}

type userArgs struct {
	_    struct{} `mcp:"readOnly"`
	Name string   `json:"name,omitempty" jsonschema:"description=Only users whose name contains this"`
}

// discoveryRegistry is a small catalogue in discovery mode: an eager
// read-only tool, a destructive one, a read-only one of the registry's
// default group, and one that needs a scope.
func discoveryRegistry(t *testing.T, opts ...mcptool.RegistryOption) *mcptool.Registry {
	t.Helper()
	reg := mcptool.NewRegistry(append([]mcptool.RegistryOption{mcptool.Discovery(), mcptool.Group("accounts")}, opts...)...)
	must := func(err error) { t.Helper(); require.NoError(t, err) }
	must(mcptool.Add(reg, "get_invoice", func(_ context.Context, in invoiceArgs) (string, error) { return "invoice " + in.ID, nil },
		mcptool.Description("Shows one invoice: its lines, total and status.")))
	must(mcptool.Add(reg, "refund_invoice", func(_ context.Context, in refundArgs) (string, error) {
		return "refunded " + in.ID, nil
	}, mcptool.Description("Gives money back to the customer for a paid invoice.")))
	must(mcptool.Add(reg, "list_users", func(_ context.Context, in userArgs) (string, error) { return "users " + in.Name, nil },
		mcptool.Description("Lists the people who can sign in.")))
	must(mcptool.Add(reg, "delete_user", func(context.Context, userArgs) (string, error) { return "deleted", nil },
		mcptool.Description("Removes a person's account for good."), mcptool.Scopes("users:admin")))
	return reg
}

func names(tools []*mcp.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

func TestDiscoveryList(t *testing.T) {
	c := mcptest.Client(t, discoveryRegistry(t))
	tools := c.Tools()
	assert.Equal(t, []string{"call_tool", "call_write_tool", "get_invoice", "search_tools"}, names(tools),
		"the eager tool and the discovery tools only")
	byName := map[string]*mcp.Tool{}
	for _, tl := range tools {
		byName[tl.Name] = tl
	}
	assert.True(t, byName["call_tool"].Annotations.ReadOnlyHint, "call_tool reaches only read-only tools")
	assert.True(t, byName["search_tools"].Annotations.ReadOnlyHint)
	w := byName["call_write_tool"].Annotations
	assert.False(t, w.ReadOnlyHint)
	require.NotNil(t, w.DestructiveHint)
	assert.True(t, *w.DestructiveHint, "call_write_tool reaches a destructive tool: it says so")
	assert.False(t, w.IdempotentHint)

	// Without a tool that writes, there is no call_write_tool.
	reg := mcptool.NewRegistry(mcptool.Discovery("list_users"))
	require.NoError(t, mcptool.Add(reg, "list_users", func(_ context.Context, in userArgs) (string, error) { return "", nil }, mcptool.NoDescription()))
	assert.Equal(t, []string{"call_tool", "list_users", "search_tools"}, names(mcptest.Client(t, reg).Tools()),
		"Discovery names an eager tool too")

	err := mcptool.Add(reg, "call_tool", func(context.Context, struct{}) (string, error) { return "", nil }, mcptool.NoDescription())
	assert.EqualError(t, err, `mcptool: tool "call_tool": duplicate: the name is discovery mode's own tool`)
}

type found struct {
	Tools []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Annotations map[string]any  `json:"annotations"`
	} `json:"tools"`
	Groups []struct {
		Name  string `json:"name"`
		Tools int    `json:"tools"`
	} `json:"groups"`
}

func search(t *testing.T, c *mcptest.Conn, args map[string]any) found {
	t.Helper()
	res := c.Call("search_tools", args)
	require.False(t, res.IsError, res.Text())
	var f found
	require.NoError(t, json.Unmarshal([]byte(res.Text()), &f), res.Text())
	return f
}

func TestDiscoverySearch(t *testing.T) {
	c := mcptest.Client(t, discoveryRegistry(t))
	f := search(t, c, map[string]any{"query": "give a customer their money back"})
	require.NotEmpty(t, f.Tools)
	assert.Equal(t, "refund_invoice", f.Tools[0].Name)
	assert.Contains(t, string(f.Tools[0].InputSchema), `"amount"`, "the full definition")
	assert.Equal(t, false, f.Tools[0].Annotations["readOnlyHint"])

	f = search(t, c, map[string]any{"query": "refunds", "limit": 1})
	assert.Len(t, f.Tools, 1, "limit")
	assert.Equal(t, "refund_invoice", f.Tools[0].Name, "plural and singular meet")

	f = search(t, c, map[string]any{})
	assert.Empty(t, f.Tools)
	groups := map[string]int{}
	for _, g := range f.Groups {
		groups[g.Name] = g.Tools
	}
	assert.Equal(t, map[string]int{"billing": 2, "accounts": 2}, groups, "an empty query lists the groups; Group on the registry is the default")

	f = search(t, c, map[string]any{"group": "billing"})
	assert.Equal(t, []string{"get_invoice", "refund_invoice"}, foundNames(f), "a group alone lists its tools")
	f = search(t, c, map[string]any{"query": "invoice", "group": "accounts"})
	assert.Empty(t, f.Tools, "the group filters")

	res := c.Call("search_tools", map[string]any{"limit": 0.5})
	assert.True(t, res.IsError, "search_tools' arguments are checked as any tool's")
}

type vacationArgs struct {
	User     string `json:"user"`
	Settings struct {
		EnableAutoReply bool `json:"enableAutoReply"`
		Responses       []struct {
			ResponseSubject string `json:"responseSubject"`
		} `json:"responses"`
	} `json:"settings"`
}

// TestDiscoverySearchNested: the names of the fields nested in an argument
// (an object's, an array's items') find the tool.
func TestDiscoverySearchNested(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.Discovery())
	require.NoError(t, mcptool.Add(reg, "update_settings", func(context.Context, vacationArgs) (string, error) { return "ok", nil },
		mcptool.Description("Updates a user's settings.")))
	require.NoError(t, mcptool.Add(reg, "get_user", func(context.Context, userArgs) (string, error) { return "ok", nil },
		mcptool.Description("Shows a user.")))
	c := mcptest.Client(t, reg)
	assert.Equal(t, []string{"update_settings"}, foundNames(search(t, c, map[string]any{"query": "auto reply"})), "an object's field")
	assert.Equal(t, []string{"update_settings"}, foundNames(search(t, c, map[string]any{"query": "response subject"})), "a field of an array's items")
}

func foundNames(f found) []string {
	var out []string
	for _, t := range f.Tools {
		out = append(out, t.Name)
	}
	return out
}

func TestDiscoveryCallTool(t *testing.T) {
	var audit bytes.Buffer
	reg := discoveryRegistry(t, mcptool.Audit(slog.New(slog.NewJSONHandler(&audit, nil)), false))
	c := mcptest.Client(t, reg)

	res := c.Call("call_tool", map[string]any{"name": "list_users", "arguments": map[string]any{"name": "ann"}})
	require.False(t, res.IsError, res.Text())
	assert.Equal(t, "users ann", res.Text())
	assert.Contains(t, audit.String(), `"tool":"list_users"`, "audited under the real tool's name")
	assert.NotContains(t, audit.String(), `"tool":"call_tool"`)

	res = c.Call("call_tool", map[string]any{"name": "refund_invoice", "arguments": map[string]any{"id": "i-1", "amount": 5}})
	require.True(t, res.IsError)
	assert.Equal(t, "refund_invoice is not read-only: call it with call_write_tool", res.Text())

	res = c.Call("call_write_tool", map[string]any{"name": "refund_invoice", "arguments": map[string]any{"id": "i-1", "amount": 5}})
	require.False(t, res.IsError, res.Text())
	assert.Equal(t, "refunded i-1", res.Text())

	res = c.Call("call_write_tool", map[string]any{"name": "refund_invoice", "arguments": map[string]any{"id": "i-1", "amount": 0}})
	require.True(t, res.IsError, "the real tool's arguments are checked as in a direct call")
	assert.Contains(t, res.Text(), "amount")

	res = c.Call("call_write_tool", map[string]any{"name": "refund_invoice", "arguments": []int{1}})
	require.True(t, res.IsError)
	assert.Equal(t, "arguments: must be an object", res.Text())

	res = c.Call("call_tool", map[string]any{"name": "pay_invoice"})
	require.True(t, res.IsError)
	assert.Equal(t, `no tool is named "pay_invoice": search_tools finds tools by what they do`, res.Text())

	res = c.Call("call_tool", map[string]any{"name": "search_tools"})
	require.True(t, res.IsError)
	assert.Equal(t, "search_tools is called directly, not through call_tool", res.Text())

	res = c.Call("refund_invoice", map[string]any{"id": "i-2", "amount": 1})
	require.False(t, res.IsError, "a found tool is called by its name too")
	assert.Equal(t, "refunded i-2", res.Text())

	// Registry.Call routes the same way.
	out, err := reg.Call(context.Background(), "call_tool", json.RawMessage(`{"name":"get_invoice","arguments":{"id":"i-3"}}`))
	require.NoError(t, err)
	assert.Equal(t, "invoice i-3", out.Content[0].(*mcp.TextContent).Text)
}

func TestDiscoveryAuthorization(t *testing.T) {
	reg := discoveryRegistry(t)
	ctx := mcptool.Authenticated(context.Background(), &auth.TokenInfo{Scopes: []string{"other"}, UserID: "u"})
	find := func(ctx context.Context, query string) []string {
		res, err := reg.Call(ctx, "search_tools", json.RawMessage(`{"query":"`+query+`"}`))
		require.NoError(t, err)
		var f found
		require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &f))
		return foundNames(f)
	}
	assert.Contains(t, find(context.Background(), "remove account"), "delete_user")
	assert.NotContains(t, find(ctx, "remove account"), "delete_user", "search finds only the tools the caller may call")

	_, err := reg.Call(ctx, "call_write_tool", json.RawMessage(`{"name":"delete_user"}`))
	require.Error(t, err, "reached through a proxy, a tool is authorized as when called directly")
	assert.Contains(t, err.Error(), "users:admin")
}

// TestDiscoveryGroupsAuthorization: an empty query lists only the groups
// of which the caller may call a tool, counting only those tools.
func TestDiscoveryGroupsAuthorization(t *testing.T) {
	reg := discoveryRegistry(t)
	require.NoError(t, mcptool.Add(reg, "purge_users", func(context.Context, userArgs) (string, error) { return "purged", nil },
		mcptool.Description("Removes every account."), mcptool.Group("admin"), mcptool.Scopes("users:admin")))
	groups := func(ctx context.Context) map[string]int {
		res, err := reg.Call(ctx, "search_tools", json.RawMessage(`{}`))
		require.NoError(t, err)
		var f found
		require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &f))
		out := map[string]int{}
		for _, g := range f.Groups {
			out[g.Name] = g.Tools
		}
		return out
	}
	assert.Equal(t, map[string]int{"admin": 1, "billing": 2, "accounts": 2}, groups(context.Background()))
	ctx := mcptool.Authenticated(context.Background(), &auth.TokenInfo{Scopes: []string{"other"}, UserID: "u"})
	assert.Equal(t, map[string]int{"billing": 2, "accounts": 1}, groups(ctx),
		"a group none of whose tools the caller may call is not listed, and a group counts only the tools the caller may call (not delete_user)")
	ctx = mcptool.Authenticated(context.Background(), &auth.TokenInfo{Scopes: []string{"users:admin"}, UserID: "u"})
	assert.Equal(t, map[string]int{"admin": 1, "billing": 2, "accounts": 2}, groups(ctx))
}

// TestDiscoveryHidesAppOnly: search never shows the model an app-only tool
// (only views call it), by query, by group or in the group list.
func TestDiscoveryHidesAppOnly(t *testing.T) {
	reg := discoveryRegistry(t)
	require.NoError(t, mcptool.Add(reg, "refresh_invoice_chart", func(context.Context, invoiceArgs) (string, error) { return "ok", nil },
		mcptool.Description("Refreshes the invoice chart."), mcptool.Group("charts"), mcptool.View(view.AppOnly())))
	c := mcptest.Client(t, reg)
	assert.Equal(t, []string{"get_invoice", "refund_invoice"}, foundNames(search(t, c, map[string]any{"query": "refresh invoice chart"})))
	assert.Empty(t, search(t, c, map[string]any{"group": "charts"}).Tools)
	groups := map[string]int{}
	for _, g := range search(t, c, map[string]any{}).Groups {
		groups[g.Name] = g.Tools
	}
	assert.Equal(t, map[string]int{"billing": 2, "accounts": 2}, groups)

	w := newWire(t, reg, false)
	res, rerr := w.call("tools/list", map[string]any{"query": "refresh invoice chart"})
	require.Nil(t, rerr)
	for _, tl := range res["tools"].([]any) {
		assert.NotEqual(t, "refresh_invoice_chart", tl.(map[string]any)["name"])
	}
}

// TestDiscoveryListQueryView: a tools/list with a query gives a tool's
// view (_meta.ui) to a client that declares the extension, as a tools/list
// without one does.
func TestDiscoveryListQueryView(t *testing.T) {
	reg := discoveryRegistry(t)
	require.NoError(t, mcptool.Add(reg, "invoice_chart", func(context.Context, invoiceArgs) (string, error) { return "ok", nil },
		mcptool.Description("Draws a chart of an invoice's lines."), mcptool.View(view.Default())))
	metaOf := func(ui bool) any {
		w := newWire(t, reg, false)
		if ui {
			w.caps["extensions"] = map[string]any{view.Extension: map[string]any{}}
		}
		res, rerr := w.call("tools/list", map[string]any{"query": "invoice chart"})
		require.Nil(t, rerr)
		tools := res["tools"].([]any)
		require.NotEmpty(t, tools)
		first := tools[0].(map[string]any)
		require.Equal(t, "invoice_chart", first["name"])
		return first["_meta"]
	}
	assert.Equal(t, map[string]any{"ui": map[string]any{"resourceUri": "ui://mcpgen/invoice_chart.html"}}, metaOf(true))
	assert.Nil(t, metaOf(false))
}

// TestDiscoveryListQuery: a tools/list with SEP-1821's query is answered
// from the same index.
func TestDiscoveryListQuery(t *testing.T) {
	w := newWire(t, discoveryRegistry(t), false)
	res, rerr := w.call("tools/list", map[string]any{"query": "money back for an invoice"})
	require.Nil(t, rerr)
	tools := res["tools"].([]any)
	require.NotEmpty(t, tools)
	assert.Equal(t, "refund_invoice", tools[0].(map[string]any)["name"])

	res, rerr = w.call("tools/list", nil)
	require.Nil(t, rerr)
	var listed []string
	for _, tl := range res["tools"].([]any) {
		listed = append(listed, tl.(map[string]any)["name"].(string))
	}
	assert.Equal(t, "call_tool call_write_tool get_invoice search_tools", strings.Join(listed, " "))
}

// TestDiscoveryListQueryStdio: a tools/list with SEP-1821's query over
// stdio, a 2025-11-25 session, raw lines: StdioTransport lifts the query
// wherever the message puts its method, and a tools/call whose arguments
// hold a "query" is a call as any other.
func TestDiscoveryListQueryStdio(t *testing.T) {
	reg := discoveryRegistry(t)
	p := runStdio(t, reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil))
	p.initialize(`{}`)
	for i, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"query":"money back for an invoice"}}`,
		`{"params":{"query":"money back for an invoice"},"id":2,"jsonrpc":"2.0","method":"tools/list"}`,
	} {
		p.send(line)
		m := p.recv()
		require.Equal(t, float64(i+1), m["id"], "%v", m)
		tools := m["result"].(map[string]any)["tools"].([]any)
		require.NotEmpty(t, tools, "%v", m)
		assert.Equal(t, "refund_invoice", tools[0].(map[string]any)["name"], "line %d", i+1)
	}
	p.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_users","arguments":{"name":"ann"},"query":"x"}}`)
	m := p.recv()
	require.Equal(t, float64(3), m["id"])
	assert.Contains(t, fmt.Sprint(m["result"]), "users ann")
}
