package mcptool_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

// The tag's forms, one argument type each.
type (
	tagPageApp struct {
		_  struct{} `mcp:"view,visibility=app"`
		ID string   `json:"id"`
	}
	tagPageModel struct {
		_  struct{} `mcp:"view,visibility=model,connectDomains=https://api.example.com wss://live.example.com,resourceDomains=https://cdn.example.com"`
		ID string   `json:"id"`
	}
	tagModel struct {
		_  struct{} `mcp:"visibility=model"`
		ID string   `json:"id"`
	}
	tagApp struct {
		_  struct{} `mcp:"visibility=app"`
		ID string   `json:"id"`
	}
	tagBoth struct {
		_  struct{} `mcp:"visibility='model app'"`
		ID string   `json:"id"`
	}
)

// viewSvc's methods are registered by AddMethods, each with a View option
// that says what one tag form says.
type viewSvc struct{}

func (viewSvc) PageApp(context.Context, openArgs) (forecast, error)   { return forecast{}, nil }
func (viewSvc) PageModel(context.Context, openArgs) (forecast, error) { return forecast{}, nil }
func (viewSvc) Model(context.Context, openArgs) (forecast, error)     { return forecast{}, nil }
func (viewSvc) App(context.Context, openArgs) (forecast, error)       { return forecast{}, nil }
func (viewSvc) Both(context.Context, openArgs) (forecast, error)      { return forecast{}, nil }

// Everything the `mcp` tag says of a view, the View option says too, per
// method through AddMethods as well: each tag form and its option give the
// same tools/list entry (with and without the extension), page resource
// (its _meta.ui.csp) and catalogue view.
func TestViewOptionSaysWhatTheTagSays(t *testing.T) {
	ctx := context.Background()
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)))
	out := forecast{}
	require.NoError(t, reg.Add("tag_page_app", func(context.Context, tagPageApp) (forecast, error) { return out, nil }, mcptool.Description("T.")))
	require.NoError(t, reg.Add("tag_page_model", func(context.Context, tagPageModel) (forecast, error) { return out, nil }, mcptool.Description("T.")))
	require.NoError(t, reg.Add("tag_model", func(context.Context, tagModel) (forecast, error) { return out, nil }, mcptool.Description("T.")))
	require.NoError(t, reg.Add("tag_app", func(context.Context, tagApp) (forecast, error) { return out, nil }, mcptool.Description("T.")))
	require.NoError(t, reg.Add("tag_both", func(context.Context, tagBoth) (forecast, error) { return out, nil }, mcptool.Description("T.")))
	require.NoError(t, reg.AddMethods(viewSvc{}, mcptool.Prefix("opt_"),
		mcptool.Method("PageApp", mcptool.Description("T."), mcptool.View(view.Default().Visibility("app"))),
		mcptool.Method("PageModel", mcptool.Description("T."), mcptool.View(view.Default().Visibility("model").
			Connect("https://api.example.com", "wss://live.example.com").Resources("https://cdn.example.com"))),
		mcptool.Method("Model", mcptool.Description("T."), mcptool.View(view.ModelOnly())),
		mcptool.Method("App", mcptool.Description("T."), mcptool.View(view.AppOnly())),
		mcptool.Method("Both", mcptool.Description("T."), mcptool.View(view.AppOnly().Visibility("model", "app"))),
	))
	ui := connect(t, inMemory, reg, "2025-11-25", uiClient, nil)
	plain := connect(t, inMemory, reg, "2025-11-25", nil, nil)
	uiTools, plainTools := listTools(t, ui), listTools(t, plain)
	cat, err := reg.Catalog()
	require.NoError(t, err)
	catalogued := map[string]any{}
	for _, ct := range cat.Tools {
		catalogued[ct.Name] = ct.View
	}
	// What a tool's view is, its own name left out.
	describe := func(name string) string {
		d := map[string]any{"listedWithout": plainTools[name] != nil, "catalogue": catalogued[name]}
		if tl := uiTools[name]; tl != nil {
			d["meta"] = tl.Meta
			if m, ok := tl.Meta["ui"].(map[string]any); ok && m["resourceUri"] != nil {
				rr, err := ui.ReadResource(ctx, &mcp.ReadResourceParams{URI: m["resourceUri"].(string)})
				require.NoError(t, err)
				d["resource"] = rr.Contents[0].Meta
			}
		}
		return strings.ReplaceAll(jsonOf(t, d), name, "NAME")
	}
	for tag, opt := range map[string]string{
		"tag_page_app": "opt_page_app", "tag_page_model": "opt_page_model",
		"tag_model": "opt_model", "tag_app": "opt_app", "tag_both": "opt_both",
	} {
		assert.Equal(t, describe(tag), describe(opt), tag)
	}
	// What they say: a page only views call, listed to no client without
	// the extension; a page the model calls, with its origins.
	assert.Equal(t, `{"catalogue":{"uri":"ui://mcpgen/NAME.html","kind":"default","visibility":["app"]},"listedWithout":false,"meta":{"ui":{"resourceUri":"ui://mcpgen/NAME.html","visibility":["app"]}},"resource":{"ui":{"csp":{"connectDomains":[],"resourceDomains":[]},"prefersBorder":true}}}`, describe("opt_page_app"))
	assert.Equal(t, `{"catalogue":{"uri":"ui://mcpgen/NAME.html","kind":"default","visibility":["model"],"connectDomains":["https://api.example.com","wss://live.example.com"],"resourceDomains":["https://cdn.example.com"]},"listedWithout":true,"meta":{"ui":{"resourceUri":"ui://mcpgen/NAME.html","visibility":["model"]}},"resource":{"ui":{"csp":{"connectDomains":["https://api.example.com","wss://live.example.com"],"resourceDomains":["https://cdn.example.com"]},"prefersBorder":true}}}`, describe("opt_page_model"))
	assert.Equal(t, `{"catalogue":{"visibility":["model"]},"listedWithout":true,"meta":{"ui":{"visibility":["model"]}}}`, describe("opt_model"))

	// A page of one's own, only for views.
	fsys := fstest.MapFS{"p.html": {Data: []byte("<!doctype html><html><head><title>p</title></head><body></body></html>")}}
	require.NoError(t, reg.Add("own_page", func(context.Context, openArgs) (string, error) { return "", nil }, mcptool.Description("T."),
		mcptool.View(view.Page(fsys, "p.html").Visibility("app"))))
	assert.NotContains(t, listTools(t, plain), "own_page")
	assert.Equal(t, mcp.Meta{"ui": map[string]any{"resourceUri": "ui://mcpgen/own_page.html", "visibility": []any{"app"}}}, listTools(t, ui)["own_page"].Meta)

	err = reg.Add("bad", func(context.Context, openArgs) (string, error) { return "", nil }, mcptool.View(view.Default().Visibility("user")))
	assert.EqualError(t, err, `mcptool: tool "bad": invalid_definition: view: visibility takes model and app, not "user"`)
	err = reg.Add("none", func(context.Context, openArgs) (string, error) { return "", nil }, mcptool.View(view.Default().Visibility()))
	assert.EqualError(t, err, `mcptool: tool "none": invalid_definition: view: visibility needs a value: model, app, or 'model app'`)
}
