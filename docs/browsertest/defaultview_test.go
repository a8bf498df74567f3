package browsertest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

type recipeQuery struct {
	_     struct{} `mcp:"readOnly,title=Find recipes"`
	Query string   `json:"query"`
}

type recipe struct {
	Name    string   `json:"name"`
	Tags    []string `json:"tags"`
	Minutes int      `json:"minutes"`
}

type recipeCard struct {
	Name  string   `json:"name"`
	Steps []string `json:"steps"`
}

// TestDefaultView runs the default view (view.Default) of a tool whose
// result is a list, and of one whose result is an object, in the host: an
// array of strings shows as a list, in a table's cell as in a field, never
// as raw JSON; a result that is not an object (sent as {"result": …}) is
// named once, by the page's heading; a value that looks like markup stays
// text; axe-core finds no serious violation and the policy none.
func TestDefaultView(t *testing.T) {
	chromium(t)
	axe := axeSource(t)
	bundle := need(t, "the view tests' host script", filepath.Join("node_modules", ".mcpgen", "host.js"), "ci.sh bundles host/host.js with esbuild")
	ctx := context.Background()
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("find_recipes", func(context.Context, recipeQuery) ([]recipe, error) {
		return []recipe{
			{Name: "Porridge", Tags: []string{"breakfast", "vegetarian"}, Minutes: 10},
			{Name: "Soup", Tags: []string{`<img src=x onerror="alert(1)">`}, Minutes: 40},
			{Name: "Toast", Tags: []string{}, Minutes: 3},
		}, nil
	}, mcptool.Description("Finds recipes."), mcptool.View(view.Default())))
	require.NoError(t, reg.Add("recipe_card", func(context.Context, recipeQuery) (recipeCard, error) {
		return recipeCard{Name: "Porridge", Steps: []string{"Boil the milk", "Stir in the oats"}}, nil
	}, mcptool.Description("Shows a recipe."), mcptool.View(view.Default())))
	st, ct := mcp.NewInMemoryTransports()
	ss, err := reg.Server(&mcp.Implementation{Name: "recipes", Version: "1"}, nil).Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpgen-browsertest", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Extensions: map[string]any{uiExtension: map[string]any{"mimeTypes": []string{uiMIMEType}}}},
	})
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	lr, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	tools := map[string]*mcp.Tool{}
	for _, tl := range lr.Tools {
		tools[tl.Name] = tl
	}
	h := openHost(t, serveHost(t, bundle, cs))
	clean := func(t *testing.T, theme string) {
		t.Helper()
		h.scheme(t, theme)
		require.True(t, inView[bool](t, h, axe+";typeof axe === 'object'"), "axe-core loads in the view")
		reportAxe(t, theme, inView[[]axeViolation](t, h, axeRun))
		h.mu.Lock()
		assert.Empty(t, h.security, "the browser reported no policy violation")
		assert.Empty(t, h.exceptions, "no script threw")
		h.mu.Unlock()
	}

	v := loadView(t, cs, tools, "find_recipes", map[string]any{"query": "quick"})
	for _, theme := range []string{"light", "dark"} {
		h.mount(t, v, theme)
		viewPoll(t, h, `document.querySelectorAll("#mcpgen-view table tbody tr").length === 3`)
		assert.Equal(t, []string{"breakfast", "vegetarian"},
			inView[[]string](t, h, `[...document.querySelectorAll("#mcpgen-view tbody tr:first-child td:nth-child(2) ul.list li")].map(li => li.textContent)`),
			"a cell's array of strings is a list")
		text := inView[string](t, h, `document.body.innerText`)
		assert.NotContains(t, text, `["breakfast"`, "no raw JSON")
		assert.Equal(t, 1, strings.Count(text, "Find recipes"), "the heading names the result: %q", text)
		assert.NotContains(t, strings.ToLower(text), "result", "not the wrapper's name: %q", text)
		assert.Equal(t, 0, inView[int](t, h, `document.querySelectorAll("#mcpgen-view caption, #mcpgen-view details").length`))
		assert.Equal(t, 0, inView[int](t, h, `document.querySelectorAll("#mcpgen-view img, #mcpgen-view script").length`), "no element made of a value")
		assert.Contains(t, text, `<img src=x onerror="alert(1)">`)
		// The filter reads a list's items.
		assert.Equal(t, 1, inView[int](t, h, `(() => { const q = document.querySelector(".tools input"); q.value = "vegetarian"; q.dispatchEvent(new Event("input"));
			return [...document.querySelectorAll("tbody tr")].filter(r => !r.hidden).length })()`))
		inView[bool](t, h, `(() => { const q = document.querySelector(".tools input"); q.value = ""; q.dispatchEvent(new Event("input")); return true })()`)
		clean(t, theme)
	}

	v = loadView(t, cs, tools, "recipe_card", map[string]any{"query": "porridge"})
	h.mount(t, v, "light")
	viewPoll(t, h, `document.querySelectorAll("#mcpgen-view dl.fields").length > 0`)
	assert.Equal(t, []string{"Boil the milk", "Stir in the oats"},
		inView[[]string](t, h, `[...document.querySelectorAll("#mcpgen-view dd ul.list li")].map(li => li.textContent)`), "a field's array of strings is a list")
	clean(t, "light")
}
