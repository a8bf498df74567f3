package mcptool

import (
	"context"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool/view"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Pages as resources: which tools are pages, reading them, and the
// capabilities and listings that show them to a client.

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
	return withExtension(c, view.Extension, map[string]any{"mimeTypes": []string{view.MIMEType}})
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
