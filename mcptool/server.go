//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them in both eras.

package mcptool

import (
	"runtime"
	"sync"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server returns a new go-sdk server that serves the registry's tools, kept
// in sync as tools are added and removed (clients are told with
// notifications/tools/list_changed).
//
// When opts is nil or sets no Capabilities, the server declares tools (with
// listChanged) and logging, even while the registry is empty.
//
// Building a server does no schema work: the registry's schemas are compiled
// and marshaled once, at registration. A server that is no longer referenced
// stops following the registry and is garbage collected, so one server per
// request (the stateless pattern) does not leak.
func (r *Registry) Server(impl *mcp.Implementation, opts *mcp.ServerOptions) *mcp.Server {
	var o mcp.ServerOptions
	if opts != nil {
		o = *opts
	}
	if o.Capabilities == nil {
		o.Capabilities = &mcp.ServerCapabilities{
			Tools:   &mcp.ToolCapabilities{ListChanged: true},
			Logging: &mcp.LoggingCapabilities{},
		}
	}
	o.Capabilities = withTasksCapability(o.Capabilities)
	s := mcp.NewServer(impl, &o)
	r.Mount(s)
	noteServed(s, r, impl)
	return s
}

// Mount serves the registry's tools on s, and keeps them in sync until the
// returned function is called or s is garbage collected. Each tool is added
// through the low-level [mcp.Server.AddTool] with mcpgen's own decoding,
// validation and result mapping. A tool of s with the name of a registry tool
// is replaced.
func (r *Registry) Mount(s *mcp.Server) (unmount func()) {
	return r.mount(s).unmount
}

func (r *Registry) mount(s *mcp.Server) *mount {
	noteServed(s, r, nil)
	m := &mount{reg: r, srv: weak.Make(s), served: map[string]*tool{}}
	_, m.cancel = r.subscribe(m.apply)
	m.reconcile()
	r.serveTasks(s)
	runtime.AddCleanup(s, func(c func()) { c() }, m.cancel)
	return m
}

// unmount stops following the registry and removes its tools from the server.
func (m *mount) unmount() {
	m.cancel()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stopped = true
	if srv := m.srv.Value(); srv != nil {
		names := make([]string, 0, len(m.served))
		for n := range m.served {
			names = append(names, n)
		}
		srv.RemoveTools(names...)
	}
	m.served = nil
}

// mount follows one registry on one server.
type mount struct {
	reg     *Registry
	srv     weak.Pointer[mcp.Server]
	cancel  func()
	mu      sync.Mutex
	served  map[string]*tool
	stopped bool
	checked int // tools compared with the registry: the work of keeping in sync
}

// reconcile makes the server's tools those of the registry. It diffs the
// registry's current snapshot against what it served, so changes that race
// each other always settle on the registry's state.
func (m *mount) reconcile() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return
	}
	srv := m.srv.Value()
	if srv == nil {
		m.cancel()
		return
	}
	set := m.reg.snapshot()
	m.checked += len(m.served) + len(set.sorted)
	var gone []string
	for name, t := range m.served {
		if set.byName[name] != t {
			gone = append(gone, name)
			delete(m.served, name)
		}
	}
	if len(gone) > 0 {
		srv.RemoveTools(gone...)
	}
	for _, t := range set.sorted {
		if m.served[t.name] != t {
			srv.AddTool(t.def, m.reg.toolHandler(t))
			m.served[t.name] = t
		}
	}
}

// apply brings the named tools of one change up to date on the server. Each
// is compared with the registry as it is now, not as the change says, so
// changes whose notifications race each other settle on the registry's
// state; and the work per change is the size of the change, not of the
// registry, so adding N tools to a served registry costs O(N).
func (m *mount) apply(added []*tool, removed []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return
	}
	srv := m.srv.Value()
	if srv == nil {
		m.cancel()
		return
	}
	var gone []string
	check := func(name string) {
		m.checked++
		cur, ok := m.reg.lookup(name)
		switch served := m.served[name]; {
		case ok && served != cur:
			srv.AddTool(cur.def, m.reg.toolHandler(cur))
			m.served[name] = cur
		case !ok && served != nil:
			gone = append(gone, name)
			delete(m.served, name)
		}
	}
	for _, t := range added {
		check(t.name)
	}
	for _, name := range removed {
		check(name)
	}
	if len(gone) > 0 {
		srv.RemoveTools(gone...)
	}
}
