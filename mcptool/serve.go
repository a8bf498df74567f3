//lint:file-ignore SA1019 logging is deprecated by the 2026-07-28 revision (SEP-2577) but remains in the protocol, and mcpgen supports it in both eras; ServerOptions.HasResources is go-sdk's older way to declare resources, still honoured.

package mcptool

import (
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server is a go-sdk server a registry serves ([Registry.Server],
// [Registry.Mount]), and the one value it is served from: its HTTP handler
// ([Server.Handler]) and its stdio loop ([Server.Run] with a
// [StdioTransport]) always serve the registry that built the server.
//
// The go-sdk server is embedded: resources, prompts and completion added to
// it are go-sdk's to serve, on every wire, and so is any other transport
// given to Run or Connect.
type Server struct {
	*mcp.Server
	reg *Registry
	d   *dispatcher // nil for a mounted server: go-sdk serves it all
	m   *mount
}

// AddReceivingMiddleware adds middleware of the user's around every
// request the server receives, as [mcp.Server.AddReceivingMiddleware]
// does, the requests mcpgen answers itself included (the last added is
// the outermost).
func (s *Server) AddReceivingMiddleware(mw ...mcp.Middleware) {
	s.Server.AddReceivingMiddleware(mw...)
	if s.d != nil {
		s.d.use(mw...)
	}
}

// Unmount stops serving the registry's tools on a server of [Registry.Mount]
// and removes them from it. On a server built by [Registry.Server] it stops
// following the registry's changes.
func (s *Server) Unmount() { s.m.unmount() }

// Server returns a new server that serves the registry's tools, kept in
// sync as tools are added and removed (clients are told with
// notifications/tools/list_changed). Serve it with [Server.Handler] (HTTP)
// or [Server.Run] (stdio, with a [StdioTransport]).
//
// When opts is nil or sets no Capabilities, the server declares tools (with
// listChanged) and logging, even while the registry is empty; Capabilities
// without Tools get them.
//
// mcpgen answers tools/list, tools/call and tasks/* of the registry's
// tools itself on every wire (dispatch.go), so building a server does no
// per-tool work, and adding a tool to a served registry costs about what
// adding it to one that serves nothing does. The tools are the
// registry's: a tool added to the embedded go-sdk server directly is
// called through go-sdk but not listed. Everything else registered on the
// go-sdk server (resources, prompts, completion) is go-sdk's to serve, and
// middleware added with [Server.AddReceivingMiddleware] sees every
// request, mcpgen's included. The registry holds a server only weakly: one
// that is no longer referenced is garbage collected, and stops following
// the registry at the registry's next change or the next server it serves,
// so one server per request (the stateless pattern) does not leak.
func (r *Registry) Server(impl *mcp.Implementation, opts *mcp.ServerOptions) *Server {
	var o mcp.ServerOptions
	if opts != nil {
		o = *opts
	}
	if o.Capabilities == nil {
		o.Capabilities = &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}}
	}
	o.Capabilities = withTasksCapability(o.Capabilities)
	if o.Capabilities.Tools == nil {
		o.Capabilities.Tools = &mcp.ToolCapabilities{ListChanged: true}
	}
	if o.PageSize == 0 {
		o.PageSize = mcp.DefaultPageSize
	}
	s := mcp.NewServer(impl, &o)
	s.AddSendingMiddleware(onStream) // the innermost (sessionstream.go)
	d := &dispatcher{reg: r, tasks: r.taskExtension(), disc: r.discoveryExtension(), pageSize: o.PageSize, impl: impl, versions: mcp.SupportedProtocolVersions(), cacheable: o.SetCacheable}
	if len(o.SupportedProtocolVersions) > 0 {
		d.versions = o.SupportedProtocolVersions
	}
	s.AddReceivingMiddleware(d.middleware)
	d.use()
	d.ownResources = o.HasResources || o.Capabilities.Resources != nil
	return &Server{Server: s, reg: r, d: d, m: r.mountWith(s, d)}
}

// discoveryExtension is the registry's discovery, as a server's dispatcher
// plugs it in (discoveryHook; discovery.go).
func (r *Registry) discoveryExtension() discoveryHook {
	if r.disc == nil {
		return noDiscovery{}
	}
	return r.disc
}

// Mount serves the registry's tools on s, a go-sdk server of the user's,
// next to its own tools, and keeps them in sync until [Server.Unmount] is
// called or s is garbage collected (then at the registry's next change or
// the next server it serves). Each tool is added through the low-level
// [mcp.Server.AddTool] with mcpgen's own decoding, validation and result
// mapping, so each costs go-sdk's AddTool (it re-marshals the schemas); a
// server built by [Registry.Server] does not pay it. A tool of s with the
// name of a registry tool is replaced. go-sdk serves every request of a
// mounted server; [Server.Handler] adds mcpgen's guards in front (bounds,
// origins, tokens and the registry tools' scopes).
func (r *Registry) Mount(s *mcp.Server) *Server {
	return &Server{Server: s, reg: r, m: r.mount(s)}
}

// mount follows the registry on s, a server of the user's (Mount).
func (r *Registry) mount(s *mcp.Server) *mount {
	return r.mountWith(s, nil)
}

// mountWith follows the registry on s; with a dispatcher, only the tools
// go-sdk must hold itself (tool.headers) are added to s.
func (r *Registry) mountWith(s *mcp.Server, d *dispatcher) *mount {
	r.forgetGone()
	m := &mount{reg: r, srv: weak.Make(s), dispatch: d, served: map[string]*tool{}, views: map[string]*tool{}}
	_, m.cancel = r.subscribe(m.apply, m.collected)
	m.reconcile()
	m.notes = &pageNotes{reg: r, ownResources: d != nil && d.ownResources}
	s.AddReceivingMiddleware(r.viewMiddleware(d == nil, m.notes)) // inside the tasks' (coreInit)
	s.AddSendingMiddleware(m.notes.sending())
	r.taskExtension().serveTasks(s)
	s.AddReceivingMiddleware(r.calls.trackCalls) // outermost: it cancels everything under it
	return m
}
