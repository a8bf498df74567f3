package mcptool

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
