package mcptool

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool/catalog"
	"github.com/mcpgen/mcpgen/mcptool/view"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool's view (MCP Apps): its page resource and how it decorates and
// hides the tool.

// viewURI is the ui:// resource of a tool's page.
func viewURI(name string) string { return "ui://mcpgen/" + name + ".html" }

// newToolView resolves a tool's view from its merged annotations and the
// View option; nil when it has none.
func newToolView(name string, def *mcp.Tool, ann annotations.View, opt *view.View) (*toolView, error) {
	if opt != nil {
		if err := opt.Check(); err != nil {
			return nil, err
		}
	}
	if err := annotations.CheckOrigins(ann.ConnectDomains); err != nil {
		return nil, fmt.Errorf("connectDomains: %w", err)
	}
	if err := annotations.CheckOrigins(ann.ResourceDomains); err != nil {
		return nil, fmt.Errorf("resourceDomains: %w", err)
	}
	page := opt
	if page == nil || !page.HasPage() {
		page = nil
		if ann.Page {
			page = view.Default()
		}
	}
	if page == nil && ann.Visibility == nil {
		if ann.ConnectDomains != nil || ann.ResourceDomains != nil {
			return nil, fmt.Errorf("connectDomains and resourceDomains need a view (mcp:\"view\" or the View option)")
		}
		return nil, nil
	}
	tv := &toolView{page: page, ann: ann, appOnly: ann.AppOnly()}
	if page != nil {
		title := def.Title
		if title == "" {
			title = name
		}
		var schema json.RawMessage
		if raw, ok := def.OutputSchema.(json.RawMessage); ok {
			schema = raw
		}
		html, err := page.HTML(title, schema, ann)
		if err != nil {
			return nil, err
		}
		tv.uri = viewURI(name)
		tv.res, tv.read = viewResource(name, title, tv.uri, ann, string(html))
	}
	return tv, nil
}

// clientHasUI reports whether the request's client declares the extension:
// in its _meta on a 2026-07-28 request, else in its session's initialize.
func clientHasUI(req capabilityDeclarer) bool { return clientDeclares(req, view.Extension) }

// hiddenFrom reports whether t is a tool req's client neither sees nor
// calls: app-only, and the client does not declare the extension. Direct
// calls (no request) are the program's own and always go through.
func (t *tool) hiddenFrom(req *mcp.CallToolRequest) bool {
	return t.view != nil && t.view.appOnly && req != nil && !clientHasUI(req)
}

// unknownTool is the error a client gets for a tool it cannot see, the
// words go-sdk uses for a tool that does not exist.
func unknownTool(name string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", name)}
}

// decorate adds to a result what a template view rendered of its value,
// for a client that declares the extension.
func (t *tool) decorate(cs *callState, v any, res *mcp.CallToolResult) error {
	if t.view == nil || t.view.page == nil || cs.req == nil || !clientHasUI(cs.req) {
		return nil
	}
	html, err := t.view.page.Render(v)
	if err != nil || html == "" {
		return err
	}
	if res.Meta == nil {
		res.Meta = mcp.Meta{}
	}
	res.Meta[view.HTMLMeta] = html
	return nil
}

// catalogView is t's view in the catalogue.
func catalogView(t *tool) *catalog.View {
	v := t.view
	if v == nil {
		return nil
	}
	cv := &catalog.View{URI: v.uri, Visibility: v.ann.Visibility, ConnectDomains: v.ann.ConnectDomains, ResourceDomains: v.ann.ResourceDomains}
	if v.page != nil {
		cv.Kind = v.page.Kind()
	}
	return cv
}

// viewResource is the page (text) of the tool named name, titled title, as
// a resource of the servers.
func viewResource(name, title, uri string, ann annotations.View, text string) (*mcp.Resource, mcp.ResourceHandler) {
	meta := mcp.Meta(view.ResourceMeta(ann))
	res := &mcp.Resource{URI: uri, Name: name + "_view", Title: title + " (view)", MIMEType: view.MIMEType, Meta: meta}
	return res, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: view.MIMEType, Text: text, Meta: meta}}}, nil
	}
}
