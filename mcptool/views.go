package mcptool

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
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

// viewResource is the page (text) of the tool named name, titled title, as
// a resource of the servers.
func viewResource(name, title, uri string, ann annotations.View, text string) (*mcp.Resource, mcp.ResourceHandler) {
	meta := mcp.Meta(view.ResourceMeta(ann))
	res := &mcp.Resource{URI: uri, Name: name + "_view", Title: title + " (view)", MIMEType: view.MIMEType, Meta: meta}
	return res, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: view.MIMEType, Text: text, Meta: meta}}}, nil
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
		srv.AddResource(cur.view.res, cur.view.read)
	}
	return cur
}

// viewMiddleware declares the extension to a client that declares it (the
// initialize result, or server/discover's on 2026-07-28), and on a server
// where go-sdk lists the registry's tools itself (Mount) gives each client
// the definitions listedTo says, of the tools it may call. A page is there
// only for a client that declares the extension and may call its tool
// (pageShown); to any other, resources/list leaves it out and
// resources/read answers as for an unknown resource. To a client that does
// not declare the extension the capabilities declare no resources on the
// pages' account (ownResources: the server's options declare resources
// whatever it holds).
//
// notes, shared with the server's sending middleware, keeps from such a
// client the resources/list_changed that only the pages cause
// (viewnotes.go).
func (r *Registry) viewMiddleware(listing bool, notes *pageNotes) mcp.Middleware {
	ownResources := notes.ownResources
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		notes.mu.Lock()
		notes.next = next
		notes.mu.Unlock()
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if rr, ok := req.(*mcp.ReadResourceRequest); ok && method == "resources/read" && rr.Params != nil {
				if t, ok := r.pageOf(rr.Params.URI); ok {
					return r.readPage(ctx, next, rr, t)
				}
			}
			if lr, ok := req.(*mcp.SubscriptionsListenRequest); ok && method == methodSubscriptionsListen && !clientHasUI(lr) {
				req = notes.listen(ctx, next, lr)
			}
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			switch method {
			case "initialize":
				ir, ok1 := res.(*mcp.InitializeResult)
				in, ok2 := req.(*mcp.ServerRequest[*mcp.InitializeParams])
				if !ok1 || !ok2 || in.Params == nil || ir.Capabilities == nil {
					break
				}
				ui := false
				if in.Params.Capabilities != nil {
					_, ui = in.Params.Capabilities.Extensions[view.Extension]
				}
				if !ui {
					notes.remember(ctx, in.Session, ir.Capabilities.Resources == nil)
				}
				if caps := r.capabilitiesFor(ctx, next, in.Session, ir.Capabilities, ui, ownResources); caps != ir.Capabilities {
					c := *ir
					c.Capabilities = caps
					return &c, nil
				}
			case "server/discover":
				dr, ok1 := res.(*mcp.DiscoverResult)
				cr, ok2 := req.(interface {
					ClientCapabilities() *mcp.ClientCapabilities
				})
				ss, _ := req.GetSession().(*mcp.ServerSession)
				if !ok1 || !ok2 || dr.Capabilities == nil {
					break
				}
				if caps := r.capabilitiesFor(ctx, next, ss, dr.Capabilities, clientHasUI(cr), ownResources); caps != dr.Capabilities {
					c := *dr
					c.Capabilities = caps
					return &c, nil
				}
			case "tools/list":
				lr, ok1 := res.(*mcp.ListToolsResult)
				lq, ok2 := req.(*mcp.ListToolsRequest)
				if listing && ok1 && ok2 {
					return r.presentTools(lr, clientHasUI(lq), tokenInfoOf(ctx, lq.Extra)), nil
				}
			case "resources/list":
				lr, ok1 := res.(*mcp.ListResourcesResult)
				lq, ok2 := req.(*mcp.ListResourcesRequest)
				if ok1 && ok2 {
					return r.pagesShown(lr, clientHasUI(lq), tokenInfoOf(ctx, lq.Extra)), nil
				}
			}
			return res, err
		}
	}
}

// isPage reports whether uri is the page of one of the registry's tools.
func (r *Registry) isPage(uri string) bool {
	_, ok := r.pageOf(uri)
	return ok
}

// pageOf returns the tool whose page uri is, if it is one of the
// registry's.
func (r *Registry) pageOf(uri string) (*tool, bool) {
	name, ok := strings.CutPrefix(uri, "ui://mcpgen/")
	if !ok {
		return nil, false
	}
	if name, ok = strings.CutSuffix(name, ".html"); !ok {
		return nil, false
	}
	t, ok := r.lookup(name)
	if !ok || t.view == nil || t.view.uri != uri {
		return nil, false
	}
	return t, true
}

// pageShown reports whether t's page is there for a client that declares
// the extension (ui) or not, with the verified token ti (nil: none): only
// with the extension, and only when it may call t (auth.go: mayCall;
// ListAllTools lists tools, not their pages). A page it may not have is
// neither listed nor read, as if it did not exist.
func pageShown(t *tool, ui bool, ti *auth.TokenInfo) bool {
	return ui && mayCall(t, ti)
}

// byToken reports whether t's page is there for a caller with the
// verified token ti depends on the token: then an answer that holds or
// leaves out the page is the caller's own (cacheScope private), which no
// cache may hand on to another.
func byToken(t *tool, ti *auth.TokenInfo) bool {
	return ti != nil && len(t.pol.scopes) > 0
}

// readPage answers a resources/read of t's page: as for an unknown
// resource to a client pageShown keeps it from.
func (r *Registry) readPage(ctx context.Context, next mcp.MethodHandler, rr *mcp.ReadResourceRequest, t *tool) (mcp.Result, error) {
	ti := tokenInfoOf(ctx, rr.Extra)
	if !pageShown(t, clientHasUI(rr), ti) {
		return nil, mcp.ResourceNotFoundError(rr.Params.URI)
	}
	res, err := next(ctx, "resources/read", rr)
	if rs, ok := res.(*mcp.ReadResourceResult); ok && err == nil && byToken(t, ti) && rs.CacheScope != "private" {
		c := *rs
		c.CacheScope = "private"
		return &c, nil
	}
	return res, err
}

// pagesShown is a page of resources/list without the registry's pages
// that pageShown keeps from the client.
func (r *Registry) pagesShown(lr *mcp.ListResourcesResult, ui bool, ti *auth.TokenInfo) *mcp.ListResourcesResult {
	out := make([]*mcp.Resource, 0, len(lr.Resources))
	private := false
	for _, res := range lr.Resources {
		t, ok := r.pageOf(res.URI)
		if !ok || pageShown(t, ui, ti) {
			out = append(out, res)
		}
		private = private || ok && byToken(t, ti)
	}
	private = private && lr.CacheScope != "private"
	if len(out) == len(lr.Resources) && !private {
		return lr
	}
	c := *lr
	c.Resources = out
	if private {
		c.CacheScope = "private"
	}
	return &c
}

// capabilitiesFor is caps as a client that declares the extension (ui) or
// not sees them: with the extension, or without the resources capability
// when the server holds nothing but the registry's pages (go-sdk declares
// it for any resource it holds).
func (r *Registry) capabilitiesFor(ctx context.Context, next mcp.MethodHandler, ss *mcp.ServerSession, caps *mcp.ServerCapabilities, ui, ownResources bool) *mcp.ServerCapabilities {
	if ui {
		return withUICapability(caps)
	}
	if caps.Resources == nil || ownResources || !r.onlyPages(ctx, next, ss) {
		return caps
	}
	cp := *caps
	cp.Resources = nil
	return &cp
}

// onlyPages reports whether the server (next) holds at least one of the
// registry's pages and no other resource or resource template, asking it
// as a client would (go-sdk has no other way to tell).
func (r *Registry) onlyPages(ctx context.Context, next mcp.MethodHandler, ss *mcp.ServerSession) bool {
	tr, err := next(ctx, "resources/templates/list", &mcp.ListResourceTemplatesRequest{Session: ss, Params: &mcp.ListResourceTemplatesParams{}})
	if lt, ok := tr.(*mcp.ListResourceTemplatesResult); err != nil || !ok || len(lt.ResourceTemplates) > 0 {
		return false
	}
	pages := false
	cursor := ""
	for range 1000 { // bounded: a page holds go-sdk's PageSize resources
		res, err := next(ctx, "resources/list", &mcp.ListResourcesRequest{Session: ss, Params: &mcp.ListResourcesParams{Cursor: cursor}})
		lr, ok := res.(*mcp.ListResourcesResult)
		if err != nil || !ok {
			return false
		}
		for _, x := range lr.Resources {
			if !r.isPage(x.URI) {
				return false
			}
			pages = true
		}
		if cursor = lr.NextCursor; cursor == "" {
			return pages
		}
	}
	return false
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
// the definitions listedTo says for the client, and leaves out those its
// verified token ti may not call, as the dispatcher does (dispatch.go); a
// list for a verified caller is its own (cacheScope private).
func (r *Registry) presentTools(lr *mcp.ListToolsResult, ui bool, ti *auth.TokenInfo) *mcp.ListToolsResult {
	out := make([]*mcp.Tool, 0, len(lr.Tools))
	changed := ti != nil && lr.Cacheable.CacheScope != "private"
	for _, d := range lr.Tools {
		t, ok := r.lookup(d.Name)
		if !ok {
			out = append(out, d)
			continue
		}
		nd, show := t.listedTo(ui)
		show = show && (r.cfg.listAll || mayCall(t, ti))
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
	if ti != nil {
		c.Cacheable.CacheScope = "private"
	}
	return &c
}
