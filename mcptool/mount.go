package mcptool

import (
	"sync"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A mount: the registry's tools kept in sync on a go-sdk server (the one
// of Registry.Server, or the user's of Registry.Mount) as they change.

// collected reports whether the mount's server was garbage collected: the
// registry then forgets it (forgetGone).
func (m *mount) collected() bool { return m.srv.Value() == nil }

// serves reports whether the mount still follows the registry on srv: it
// was not unmounted, and srv is its server.
func (m *mount) serves(srv *mcp.Server) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return !m.stopped && m.srv.Value() == srv
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
		for _, t := range m.views {
			srv.RemoveResources(t.view.uri)
		}
	}
	m.served, m.views = nil, nil
}

// mount follows one registry on one server.
type mount struct {
	reg      *Registry
	srv      weak.Pointer[mcp.Server]
	dispatch *dispatcher // nil: every tool is added to the server
	cancel   func()
	mu       sync.Mutex
	served   map[string]*tool // the tools added to the server
	views    map[string]*tool // the tools whose view pages the server holds (viewpages.go)
	notes    *pageNotes       // what its sessions without the extension saw of its resources (viewnotes.go)
	stopped  bool
	checked  int // tools compared with the registry: the work of keeping in sync
}

// holds reports whether t goes into the server's own tool set.
func (m *mount) holds(t *tool) bool {
	return m.dispatch == nil || t.headers
}

// live is the server the mount serves, nil once the mount stopped or the
// server was collected (the mount then cancels itself); m.mu is held.
func (m *mount) live() *mcp.Server {
	if m.stopped {
		return nil
	}
	srv := m.srv.Value()
	if srv == nil {
		m.cancel()
	}
	return srv
}

// reconcile makes the server's tools those of the registry. It diffs the
// registry's current snapshot against what it served, so changes that race
// each other always settle on the registry's state.
func (m *mount) reconcile() {
	m.mu.Lock()
	defer m.mu.Unlock()
	srv := m.live()
	if srv == nil {
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
		if m.served[t.name] != t && m.holds(t) {
			srv.AddTool(t.def, m.reg.toolHandler(t))
			m.served[t.name] = t
		}
	}
	for name, t := range m.views {
		m.syncView(srv, name, t, set.byName[name])
	}
	for _, t := range set.sorted {
		m.syncView(srv, t.name, m.views[t.name], t)
	}
}

// syncView keeps the page of the named tool on the server (syncView in
// views.go).
func (m *mount) syncView(srv *mcp.Server, name string, served, cur *tool) {
	if now := syncView(srv, served, cur); now != nil {
		m.views[name] = now
	} else {
		delete(m.views, name)
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
	srv := m.live()
	if srv == nil {
		return
	}
	var gone []string
	check := func(name string) {
		m.checked++
		cur, ok := m.reg.lookup(name)
		if ok {
			m.syncView(srv, name, m.views[name], cur)
		} else {
			m.syncView(srv, name, m.views[name], nil)
		}
		switch served := m.served[name]; {
		case ok && served != cur && m.holds(cur):
			srv.AddTool(cur.def, m.reg.toolHandler(cur))
			m.served[name] = cur
		case served != nil && (!ok || served != cur):
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
	if m.dispatch != nil {
		m.dispatch.changed(srv)
	}
}
