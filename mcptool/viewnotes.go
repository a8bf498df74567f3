package mcptool

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"sync"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

// notifications/resources/list_changed and the pages. go-sdk tells every
// session that the server's resources changed when a page comes or goes
// (sdkpatch.Drop); a client without the extension sees no page, so it is
// told only when the resources it sees changed: pageNotes remembers, for
// each such session, what they were when it last heard of them (or when it
// initialized, or opened its 2026-07-28 listen), and drops a notification
// that finds them unchanged. A 2026-07-28 client without the extension
// that was declared no resources capability on the pages' account cannot
// listen for resources/list_changed either, as without the pages.

const notificationResourcesListChanged = "notifications/resources/list_changed"

// pageNotes is what one server's view middleware knows of its sessions
// without the extension.
type pageNotes struct {
	reg          *Registry
	ownResources bool // the server's options declare resources

	mu      sync.Mutex
	next    mcp.MethodHandler // the receiving handler under the view middleware
	heard   map[weak.Pointer[mcp.ServerSession]]resourcesSeen
	sweepAt int // len(heard) at which collected sessions are forgotten
}

// resourcesSeen is a digest of the resources and templates a client
// without the extension sees.
type resourcesSeen [sha256.Size]byte

// sessionUI reports whether ss's client declared the extension (at
// initialize, or in the _meta of its first 2026-07-28 request).
func sessionUI(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil {
		return false
	}
	_, ok := p.Capabilities.Extensions[view.Extension]
	return ok
}

// seen is the digest of what ss's client sees of the server's resources
// (next, asked as a client would: go-sdk has no other way to tell); ok is
// false when the server did not answer.
func (n *pageNotes) seen(ctx context.Context, next mcp.MethodHandler, ss *mcp.ServerSession) (d resourcesSeen, ok bool) {
	h := sha256.New()
	if next == nil { // a server that holds no resource
		h.Write([]byte("resources\n"))
		h.Sum(d[:0])
		return d, true
	}
	tr, err := next(ctx, "resources/templates/list", &mcp.ListResourceTemplatesRequest{Session: ss, Params: &mcp.ListResourceTemplatesParams{}})
	lt, isList := tr.(*mcp.ListResourceTemplatesResult)
	if err != nil || !isList {
		return d, false
	}
	for _, x := range lt.ResourceTemplates {
		b, _ := json.Marshal(x)
		h.Write(append(b, '\n'))
	}
	h.Write([]byte("resources\n"))
	cursor := ""
	for range 1000 { // bounded, as onlyPages
		res, err := next(ctx, "resources/list", &mcp.ListResourcesRequest{Session: ss, Params: &mcp.ListResourcesParams{Cursor: cursor}})
		lr, isList := res.(*mcp.ListResourcesResult)
		if err != nil || !isList {
			return d, false
		}
		for _, x := range lr.Resources {
			if !n.reg.isPage(x.URI) {
				b, _ := json.Marshal(x)
				h.Write(append(b, '\n'))
			}
		}
		if cursor = lr.NextCursor; cursor == "" {
			h.Sum(d[:0])
			return d, true
		}
	}
	return d, false
}

// remember records what ss's client, which does not declare the extension,
// sees of the resources now (none when empty: the server holds none); it
// reports whether that differs from what it was last told of.
func (n *pageNotes) remember(ctx context.Context, ss *mcp.ServerSession, empty bool) (changed bool) {
	n.mu.Lock()
	next := n.next
	n.mu.Unlock()
	if next == nil {
		return true
	}
	if empty {
		next = nil
	}
	d, ok := n.seen(ctx, next, ss)
	if !ok {
		return true
	}
	key := weak.Make(ss)
	n.mu.Lock()
	defer n.mu.Unlock()
	prev, known := n.heard[key]
	if !known {
		if n.heard == nil {
			n.heard = map[weak.Pointer[mcp.ServerSession]]resourcesSeen{}
		}
		if len(n.heard) >= n.sweepAt {
			n.sweep()
		}
	}
	n.heard[key] = d
	return !known || prev != d
}

// sweep forgets the sessions that were garbage collected, and sets when to
// sweep again: when the sessions remembered have doubled, so that
// remembering costs O(1) amortized and a server of many short sessions
// does not keep one entry for each.
func (n *pageNotes) sweep() {
	for k := range n.heard {
		if k.Value() == nil {
			delete(n.heard, k)
		}
	}
	n.sweepAt = 2*len(n.heard) + 64
}

// sending is the server's sending middleware: no resources/list_changed to
// a client without the extension when only pages came or went.
func (n *pageNotes) sending() mcp.Middleware {
	return sdkpatch.Drop(notificationResourcesListChanged, func(ctx context.Context, ss *mcp.ServerSession) bool {
		return !sessionUI(ss) && !n.remember(ctx, ss, false)
	})
}

// listen is req, a subscriptions/listen of a client without the extension,
// without resourcesListChanged when the client was declared no resources
// capability (capabilitiesFor): without the pages, go-sdk would not agree
// to it.
func (n *pageNotes) listen(ctx context.Context, next mcp.MethodHandler, req *mcp.SubscriptionsListenRequest) *mcp.SubscriptionsListenRequest {
	if req.Params == nil || req.Params.Notifications == nil || !req.Params.Notifications.ResourcesListChanged {
		return req
	}
	if n.ownResources || !n.reg.onlyPages(ctx, next, req.Session) {
		n.remember(ctx, req.Session, false)
		return req
	}
	subs := *req.Params.Notifications
	subs.ResourcesListChanged = false
	p := *req.Params
	p.Notifications = &subs
	c := *req
	c.Params = &p
	return &c
}
