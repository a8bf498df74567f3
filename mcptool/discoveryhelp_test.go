package mcptool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

type shopArgs struct {
	_       struct{} `mcp:"readOnly"`
	Recipes []string `json:"recipes,omitempty"`
}

// shopRegistry is a discovery-mode registry without groups: a titled
// read-only tool, one that needs a scope and an app-only one, each name two
// edits at most from "shoping_list".
func shopRegistry(t *testing.T) *mcptool.Registry {
	t.Helper()
	reg := mcptool.NewRegistry(mcptool.Discovery())
	fn := func(context.Context, shopArgs) (string, error) { return "ok", nil }
	require.NoError(t, mcptool.Add(reg, "shopping_list", fn, mcptool.Description("Lists what to buy for some recipes."), mcptool.Title("Shopping list")))
	require.NoError(t, mcptool.Add(reg, "shopping_lost", fn, mcptool.Description("Lists what was not bought."), mcptool.Scopes("pantry:admin")))
	require.NoError(t, mcptool.Add(reg, "shopping_lust", fn, mcptool.Description("Refreshes a chart."), mcptool.View(view.AppOnly())))
	require.NoError(t, mcptool.Add(reg, "adjust_stock", func(context.Context, struct{}) (string, error) { return "ok", nil },
		mcptool.Description("Adds to or takes from the pantry's stock.")))
	return reg
}

type emptyFound struct {
	Groups []struct {
		Name  string `json:"name"`
		Tools int    `json:"tools"`
	} `json:"groups"`
	Tools []struct {
		Name        string          `json:"name"`
		Title       string          `json:"title"`
		InputSchema json.RawMessage `json:"inputSchema"`
	} `json:"tools"`
	More int `json:"more"`
}

func emptySearch(t *testing.T, ctx context.Context, reg *mcptool.Registry) (emptyFound, string) {
	t.Helper()
	res, err := reg.Call(ctx, "search_tools", json.RawMessage(`{"query":""}`))
	require.NoError(t, err)
	text := res.Content[0].(*mcp.TextContent).Text
	require.False(t, res.IsError, text)
	var f emptyFound
	require.NoError(t, json.Unmarshal([]byte(text), &f), text)
	return f, text
}

// TestDiscoveryEmptySearchNames: on a registry without groups, an empty
// search lists the names and titles of the tools the caller may see (never
// an app-only one), not {}.
func TestDiscoveryEmptySearchNames(t *testing.T) {
	reg := shopRegistry(t)
	_, text := emptySearch(t, context.Background(), reg)
	assert.JSONEq(t, `{"tools":[{"name":"adjust_stock"},{"name":"shopping_list","title":"Shopping list"},{"name":"shopping_lost"}]}`, text)

	ctx := mcptool.Authenticated(context.Background(), &auth.TokenInfo{Scopes: []string{"other"}, UserID: "u"})
	_, text = emptySearch(t, ctx, reg)
	assert.JSONEq(t, `{"tools":[{"name":"adjust_stock"},{"name":"shopping_list","title":"Shopping list"}]}`, text,
		"a tool the caller's scopes do not allow is not listed")

	// With groups: the groups, and the tools in none.
	require.NoError(t, mcptool.Add(reg, "refund_invoice", func(context.Context, refundArgs) (string, error) { return "ok", nil },
		mcptool.Description("Gives money back.")))
	f, _ := emptySearch(t, context.Background(), reg)
	require.Len(t, f.Groups, 1)
	assert.Equal(t, "billing", f.Groups[0].Name)
	assert.Len(t, f.Tools, 3, "the tools in no group")
	assert.Empty(t, f.Tools[0].InputSchema, "names and titles only")

	// An empty registry says so in a way a model reads.
	empty := mcptool.NewRegistry(mcptool.Discovery())
	_, text = emptySearch(t, context.Background(), empty)
	assert.JSONEq(t, `{"tools":[]}`, text)
}

// TestDiscoveryEmptySearchBounded: a large catalogue without groups lists
// 100 names and counts the rest.
func TestDiscoveryEmptySearchBounded(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.Discovery())
	for i := range 130 {
		require.NoError(t, mcptool.Add(reg, fmt.Sprintf("tool_%03d", i), func(context.Context, struct{}) (string, error) { return "", nil },
			mcptool.Description("Does one thing.")))
	}
	f, text := emptySearch(t, context.Background(), reg)
	assert.Len(t, f.Tools, 100)
	assert.Equal(t, "tool_000", f.Tools[0].Name)
	assert.Equal(t, 30, f.More, "the rest are counted")
	assert.Less(t, len(text), 4000, "names only: no definitions")
}

// TestDiscoveryDidYouMean: a proxy call of an unknown name suggests the
// closest names the caller may call: never one its scopes do not allow,
// nor an app-only one.
func TestDiscoveryDidYouMean(t *testing.T) {
	reg := shopRegistry(t)
	refusal := func(ctx context.Context, proxy, name string) string {
		t.Helper()
		res, err := reg.Call(ctx, proxy, json.RawMessage(fmt.Sprintf(`{"name":%q,"arguments":{}}`, name)))
		require.NoError(t, err)
		require.True(t, res.IsError)
		return res.Content[0].(*mcp.TextContent).Text
	}
	bg := context.Background()
	assert.Equal(t, `no tool is named "shoping_list" (did you mean "shopping_list" or "shopping_lost"?): search_tools finds tools by what they do`,
		refusal(bg, "call_tool", "shoping_list"))
	assert.Contains(t, refusal(bg, "call_write_tool", "Shopping_List"), `(did you mean "shopping_list"`, "case aside, the same name first")

	other := mcptool.Authenticated(bg, &auth.TokenInfo{Scopes: []string{"other"}, UserID: "u"})
	assert.Equal(t, `no tool is named "shoping_list" (did you mean "shopping_list"?): search_tools finds tools by what they do`,
		refusal(other, "call_tool", "shoping_list"), "not a tool the caller's scopes do not allow")
	admin := mcptool.Authenticated(bg, &auth.TokenInfo{Scopes: []string{"pantry:admin"}, UserID: "u"})
	assert.Contains(t, refusal(admin, "call_write_tool", "shopping_lst"), `"shopping_lost"`)

	assert.Equal(t, `no tool is named "weather": search_tools finds tools by what they do`, refusal(bg, "call_tool", "weather"),
		"no suggestion when nothing is close")

	// Over the protocol, as a model reads it.
	c := mcptest.Client(t, reg)
	res := c.Call("call_tool", map[string]any{"name": "adjust_stok"})
	assert.True(t, res.IsError)
	assert.Contains(t, res.ErrorText(), `did you mean "adjust_stock"?`)
}
