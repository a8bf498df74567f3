package mcptool

import (
	"context"
	"encoding/base64"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
)

// A server built by Registry.Server answers tools/list and tools/call for
// the registry's tools from receiving middleware (dispatch): mcpgen's own
// tool-surface layer, through go-sdk's public middleware API, instead of
// holding a copy of each tool: go-sdk's Server.AddTool re-marshals every
// schema it is given (~35 KiB and tens of µs per tool), which made adding
// tools to a served registry cost 15x adding them to one that serves
// nothing, and building a server cost as much as adding all its tools.
//
// Only tools whose input schema mirrors arguments into Mcp-Param headers
// are also added to go-sdk: its HTTP transport checks those headers against
// the tool it holds, before any middleware runs. Tools added to the server
// itself (Server.AddTool) are listed and called as before; a registry tool
// of the same name wins.

// dispatcher serves a registry's tools on one server.
type dispatcher struct {
	reg      *Registry
	tasks    taskHook      // the tasks extension (taskserve.go)
	disc     discoveryHook // discovery (discovery.go), or noDiscovery
	pageSize int
	poking   atomic.Bool

	// What the 2026-07-28 path (httpmodern.go) answers as go-sdk's server
	// would, from the server's options.
	impl      *mcp.Implementation
	versions  []string // the protocol versions the server speaks
	cacheable func(context.Context, mcp.Request, *mcp.Cacheable)

	ownResources bool // the options declare resources (views.go)

	// chain is the one dispatcher of the requests mcpgen's own wires
	// answer (stdio.go, httpsession.go, httpmodern.go): the middleware the
	// user added through Server.AddReceivingMiddleware, then the
	// registry's (a tools/call: toolCall; the rest: taskMiddleware, then
	// middleware), called as functions, past which nothing is reached
	// (fallback). It is rebuilt when the user adds middleware, under mu.
	mu    sync.Mutex
	outer []mcp.Middleware
	chain atomic.Pointer[dispatchChain]
}

// dispatchChain is the dispatcher's chain, and whether any of it is the
// user's.
type dispatchChain struct {
	h    mcp.MethodHandler
	user bool
}

// discoveryHook is the one point where discovery plugs into a server's
// dispatcher: the tool a call of t reaches (target: a proxy's call becomes
// the named tool's own, call rewritten), the tools tools/list shows
// (listed), and the tools a tools/list with a query finds (query, SEP-1821;
// ok false: the query is ignored). The registry's discovery implements it
// (discovery.go); a registry without Discovery plugs in noDiscovery.
type discoveryHook interface {
	target(t *tool, known bool, call *mcp.CallToolRequest) (*tool, bool)
	listed(set *toolSet) []*tool
	query(ctx context.Context, set *toolSet, q string, limit int, ti *auth.TokenInfo) (found []*tool, ok bool)
}

// noDiscovery is a registry without discovery: every tool called by its
// own name and listed, a list query ignored.
type noDiscovery struct{}

func (noDiscovery) target(t *tool, known bool, _ *mcp.CallToolRequest) (*tool, bool) {
	return t, known
}

func (noDiscovery) listed(set *toolSet) []*tool { return set.sorted }

func (noDiscovery) query(context.Context, *toolSet, string, int, *auth.TokenInfo) ([]*tool, bool) {
	return nil, false
}

// serve answers one request a wire of mcpgen's own decoded: the same
// middleware go-sdk would run for it, in the same order. t is the tool of
// a tools/call as the wire found it when it decoded the call, else nil:
// with no middleware of the user's, it is the tool invoked (toolcall.go),
// not looked up again.
func (d *dispatcher) serve(ctx context.Context, method string, req mcp.Request, t *tool) (mcp.Result, error) {
	c := d.chain.Load()
	if t != nil && !c.user {
		if call, ok := req.(*mcp.CallToolRequest); ok {
			return d.toolCall(ctx, t, true, call)
		}
	}
	return c.h(ctx, method, req)
}

// use adds receiving middleware of the user's to the chain, outermost
// last, as go-sdk's AddReceivingMiddleware does; nil mw only builds it.
func (d *dispatcher) use(mw ...mcp.Middleware) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.outer = append(d.outer, mw...)
	h := d.registry(d.tasks.taskMiddleware(d.middleware(d.fallback)))
	for _, m := range d.outer {
		h = m(h)
	}
	d.chain.Store(&dispatchChain{h: h, user: len(d.outer) > 0})
}

// registry is the registry's part of the chain, behind the user's
// middleware: a tools/call is resolved once, by the name the user's
// middleware left it (toolCall); any other request goes to inner.
func (d *dispatcher) registry(inner mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/call" {
			if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil {
				t, known := d.reg.lookup(call.Params.Name)
				return d.toolCall(ctx, t, known, call)
			}
		}
		return inner(ctx, method, req)
	}
}

// fallback is what go-sdk's server answers past the registry's middleware,
// for the methods mcpgen's wires serve: for tools/list, its own tools, of
// which a server built by Registry.Server has none but those it holds for
// the registry (which the registry lists itself); for a tools/call, which
// reaches it only when a user's middleware renamed it, or its tool was
// removed before the registry looked it up, go-sdk's unknown tool; for tasks/*, what the handlers serveTasks
// registers answer.
func (d *dispatcher) fallback(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
	switch method {
	case "tools/call":
		if call, ok := req.(*mcp.CallToolRequest); ok {
			return nil, unknownTool(call.Params.Name)
		}
	case methodTasksResult, methodTasksList: // as serveTasks registers them
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: method + " belongs to the 2025-11-25 tasks; this session uses the tasks extension"}
	}
	if method != "tools/list" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: method + " reached no task middleware"}
	}
	res := &mcp.ListToolsResult{Tools: []*mcp.Tool{}}
	if ss, _ := req.GetSession().(*mcp.ServerSession); ss == nil { // 2026-07-28: no session, a result type
		res = sdkpatch.CompleteToolsList()
	}
	if d.cacheable != nil {
		d.cacheable(ctx, req, &res.Cacheable)
	}
	if res.CacheScope == "" {
		res.CacheScope = "public" // as go-sdk normalizes it
	}
	return res, nil
}

// middleware answers tools/list and the registry's tools/call; anything
// else goes to next.
func (d *dispatcher) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/call":
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || call.Params == nil {
				break
			}
			t, known := d.reg.lookup(call.Params.Name)
			if t, ok := d.disc.target(t, known, call); ok {
				return d.call(ctx, t, call)
			}
		case "tools/list":
			if lr, ok := req.(*mcp.ListToolsRequest); ok {
				return d.list(ctx, lr, next)
			}
		}
		return next(ctx, method, req)
	}
}

// call runs the registry's call path, which answers as go-sdk's own
// tools/call would (call.go: encode).
func (d *dispatcher) call(ctx context.Context, t *tool, req *mcp.CallToolRequest) (mcp.Result, error) {
	return d.reg.serveCall(ctx, t, req)
}

// list answers tools/list: the registry's tools merged by name with the
// server's own, in pages of the server's page size. go-sdk answers first,
// without the cursor, for its own tools and for the result's other fields
// (the cache hint, the result type).
func (d *dispatcher) list(ctx context.Context, req *mcp.ListToolsRequest, next mcp.MethodHandler) (mcp.Result, error) {
	after, err := "", error(nil)
	if req.Params != nil && req.Params.Cursor != "" {
		if after, err = decodeCursor(req.Params.Cursor); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
		}
	}
	res, err := next(ctx, "tools/list", atCursor(req, ""))
	if err != nil {
		return res, err
	}
	lr, ok := res.(*mcp.ListToolsResult)
	if !ok {
		return res, nil
	}
	own, err := d.ownTools(ctx, req, lr, next)
	if err != nil {
		return nil, err
	}
	set := d.reg.snapshot()
	listAll, ti, ui := d.reg.cfg.listAll, tokenInfoOf(ctx, req.Extra), clientHasUI(req)
	if q, ok := listQuery(req); ok {
		// SEP-1821 (experimental): the tools matching the query, from the
		// index search_tools uses; one page.
		if found, ok := d.disc.query(ctx, set, q, min(d.pageSize, listQueryLimit), ti); ok {
			lr.Tools, lr.NextCursor = []*mcp.Tool{}, ""
			for _, t := range found {
				def, _ := t.listedTo(ui) // shown: search finds no app-only tool
				lr.Tools = append(lr.Tools, def)
			}
			lr.Cacheable = d.reg.toolListCache(ti)
			return lr, nil
		}
	}
	listed := d.disc.listed(set)
	ours := listed[sort.Search(len(listed), func(i int) bool { return listed[i].name > after }):]
	page := make([]*mcp.Tool, 0, min(d.pageSize, len(ours)+len(own)))
	more := false
	for len(ours) > 0 || len(own) > 0 {
		var t *mcp.Tool
		switch {
		case len(own) == 0 || len(ours) > 0 && ours[0].name <= own[0].Name:
			if len(own) > 0 && ours[0].name == own[0].Name {
				own = own[1:] // the registry's tool wins
			}
			ot := ours[0]
			ours = ours[1:]
			def, shown := ot.listedTo(ui) // views.go
			if !shown || !listAll && !mayCall(ot, ti) {
				continue // app-only, or the caller's token lacks its scopes (auth.go)
			}
			t = def
		default:
			t, own = own[0], own[1:]
			if t.Name <= after || set.byName[t.Name] != nil || t.Name == sdkpatch.ListChangedTool {
				continue
			}
		}
		if len(page) == d.pageSize {
			more = true
			break
		}
		page = append(page, t)
	}
	lr.Tools, lr.NextCursor = page, ""
	lr.Cacheable = d.reg.toolListCache(ti)
	if more {
		lr.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(page[len(page)-1].Name))
	}
	return lr, nil
}

// ownTools returns the tools the server holds itself, sorted by name,
// reading every page of go-sdk's answer (first is its first page).
func (d *dispatcher) ownTools(ctx context.Context, req *mcp.ListToolsRequest, first *mcp.ListToolsResult, next mcp.MethodHandler) ([]*mcp.Tool, error) {
	own := first.Tools
	for cursor := first.NextCursor; cursor != ""; {
		res, err := next(ctx, "tools/list", atCursor(req, cursor))
		if err != nil {
			return nil, err
		}
		lr, ok := res.(*mcp.ListToolsResult)
		if !ok {
			break
		}
		own = append(own[:len(own):len(own)], lr.Tools...)
		cursor = lr.NextCursor
	}
	return own, nil
}

// atCursor returns a copy of req that asks for the page at cursor.
func atCursor(req *mcp.ListToolsRequest, cursor string) *mcp.ListToolsRequest {
	r := *req
	var p mcp.ListToolsParams
	if req.Params != nil {
		p = *req.Params
	}
	p.Cursor = cursor
	r.Params = &p
	return &r
}

func decodeCursor(c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	return string(b), err
}

// changed tells the server's clients that its tool list changed
// (sdkpatch.ToolsChanged: go-sdk sends the notification only for its own
// tools). Changes within 10 ms of each other share one; a server without
// sessions skips it.
func (d *dispatcher) changed(srv *mcp.Server) {
	for range srv.Sessions() {
		if d.poking.Swap(true) {
			return
		}
		time.AfterFunc(notifyDelay, func() {
			d.poking.Store(false)
			sdkpatch.ToolsChanged(srv)
		})
		return
	}
}

// notifyDelay is how long changes are gathered into one notification.
const notifyDelay = 10 * time.Millisecond
