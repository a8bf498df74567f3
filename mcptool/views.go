package mcptool

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool/catalog"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

// Views: the MCP Apps extension (SEP-1865, io.modelcontextprotocol/ui). A
// tool with a view has a ui:// resource (its page, MIME type
// text/html;profile=mcp-app) that every server serving the registry holds,
// and lists with _meta.ui.resourceUri; an app-only tool (visibility
// ["app"]) is called only by views. What a client sees depends on whether it
// declares the extension (clientHasUI): one that does not sees the tools as
// if no view existed — no _meta.ui, no app-only tool, which it cannot call
// either — and its results unchanged.

// View gives the tool a view in hosts that support MCP Apps: [view.Default]
// (derived from the output schema, as the `mcp:"view"` tag does),
// [view.Template], [view.Page]; or marks it [view.AppOnly], called only by
// views. The view's visibility and origins win over the tag's.
func View(v *view.View) Option {
	return toolOption(func(c *toolConfig) {
		c.view = v
		if v != nil {
			c.ann.View = c.ann.View.Merge(v.Annotations())
		}
	})
}

// toolView is the view of one tool.
type toolView struct {
	page    *view.View // nil: no page (an app-only tool)
	ann     annotations.View
	uri     string // the page's ui:// resource
	html    []byte
	appOnly bool

	once  sync.Once
	uiDef *mcp.Tool // the definition listed to clients that declare the extension
}

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
		tv.uri, tv.html = viewURI(name), html
	}
	return tv, nil
}

// listedTo is t's definition as tools/list gives it to a client that
// declares the extension (ui) or not; ok is false when that client must not
// see it (an app-only tool, to a client without the extension).
func (t *tool) listedTo(ui bool) (def *mcp.Tool, ok bool) {
	v := t.view
	if v == nil {
		return t.def, true
	}
	if !ui {
		return t.def, !v.appOnly
	}
	v.once.Do(func() {
		d := *t.def
		meta := map[string]any{}
		if v.uri != "" {
			meta["resourceUri"] = v.uri
		}
		if v.ann.Visibility != nil {
			meta["visibility"] = slices.Clone(v.ann.Visibility)
		}
		d.Meta = mcp.Meta{"ui": meta}
		for k, x := range t.def.Meta {
			if k != "ui" {
				d.Meta[k] = x
			}
		}
		v.uiDef = &d
	})
	return v.uiDef, true
}

// clientHasUI reports whether the request's client declares the extension:
// in its _meta on a 2026-07-28 request, else in its session's initialize.
func clientHasUI(req interface {
	ClientCapabilities() *mcp.ClientCapabilities
}) bool {
	caps := req.ClientCapabilities()
	if caps == nil {
		return false
	}
	_, ok := caps.Extensions[view.Extension]
	return ok
}

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

// viewResource is t's page as a resource of the server.
func viewResource(t *tool) (*mcp.Resource, mcp.ResourceHandler) {
	v := t.view
	title := t.def.Title
	if title == "" {
		title = t.name
	}
	meta := mcp.Meta(view.ResourceMeta(v.ann))
	res := &mcp.Resource{URI: v.uri, Name: t.name + "_view", Title: title + " (view)", MIMEType: view.MIMEType, Meta: meta}
	text := string(v.html)
	return res, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: v.uri, MIMEType: view.MIMEType, Text: text, Meta: meta}}}, nil
	}
}

// syncView brings the server's resource for the named tool up to date:
// served is the tool whose page the server holds now (nil: none); it
// returns the one it holds after.
func syncView(srv *mcp.Server, served *tool, cur *tool) *tool {
	if cur != nil && (cur.view == nil || cur.view.page == nil) {
		cur = nil
	}
	if served == cur {
		return served
	}
	if served != nil && (cur == nil || cur.view.uri != served.view.uri) {
		srv.RemoveResources(served.view.uri)
	}
	if cur != nil {
		srv.AddResource(viewResource(cur))
	}
	return cur
}

// viewMiddleware declares the extension to a client that declares it (the
// initialize result, or server/discover's on 2026-07-28), and on a server
// where go-sdk lists the registry's tools itself (Mount) gives each client
// the definitions listedTo says.
func (r *Registry) viewMiddleware(listing bool) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			switch method {
			case "initialize":
				ir, ok1 := res.(*mcp.InitializeResult)
				in, ok2 := req.(*mcp.ServerRequest[*mcp.InitializeParams])
				if ok1 && ok2 && in.Params != nil && in.Params.Capabilities != nil && ir.Capabilities != nil {
					if _, ok := in.Params.Capabilities.Extensions[view.Extension]; ok {
						c := *ir
						c.Capabilities = withUICapability(ir.Capabilities)
						return &c, nil
					}
				}
			case "server/discover":
				dr, ok1 := res.(*mcp.DiscoverResult)
				if cr, ok2 := req.(interface {
					ClientCapabilities() *mcp.ClientCapabilities
				}); ok1 && ok2 && dr.Capabilities != nil && clientHasUI(cr) {
					c := *dr
					c.Capabilities = withUICapability(dr.Capabilities)
					return &c, nil
				}
			case "tools/list":
				lr, ok1 := res.(*mcp.ListToolsResult)
				lq, ok2 := req.(*mcp.ListToolsRequest)
				if listing && ok1 && ok2 {
					return r.presentTools(lr, clientHasUI(lq)), nil
				}
			}
			return res, err
		}
	}
}

// withUICapability is c declaring the extension, with the MIME type of its
// pages.
func withUICapability(c *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	cp := *c
	cp.Extensions = map[string]any{}
	for k, v := range c.Extensions {
		cp.Extensions[k] = v
	}
	cp.AddExtension(view.Extension, map[string]any{"mimeTypes": []string{view.MIMEType}})
	return &cp
}

// presentTools gives the registry's tools of a page go-sdk listed (Mount)
// the definitions listedTo says for the client.
func (r *Registry) presentTools(lr *mcp.ListToolsResult, ui bool) *mcp.ListToolsResult {
	out := make([]*mcp.Tool, 0, len(lr.Tools))
	changed := false
	for _, d := range lr.Tools {
		t, ok := r.lookup(d.Name)
		if !ok {
			out = append(out, d)
			continue
		}
		nd, show := t.listedTo(ui)
		if nd != d || !show {
			changed = true
		}
		if show {
			out = append(out, nd)
		}
	}
	if !changed {
		return lr
	}
	c := *lr
	c.Tools = out
	return &c
}
