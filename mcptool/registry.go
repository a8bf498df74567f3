package mcptool

import (
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool/cluster"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// Registry holds a set of tools. Its methods are safe for concurrent use:
// tools may be added and removed while calls are running. Calls see a
// consistent snapshot of the tool set.
type Registry struct {
	cfg registryConfig

	mu      sync.Mutex // serializes writers
	tools   sync.Map   // name → *tool: lock-free lookups for calls
	count   atomic.Int64
	snap    atomic.Pointer[toolSet] // the sorted snapshot; nil after a change
	subs    map[uint64]subscription
	nextSub uint64
	tasks   taskRuntime
	calls   sessionCalls // the requests in flight on its sessions (sessioncalls.go)
	disc    *discovery   // the discovery tools; nil unless Discovery (discovery.go)
	// optErr is the misuse of the registry's options NewRegistry found,
	// returned by every registration (see optionError).
	optErr error
}

// toolSet is an immutable snapshot of a registry's tools.
type toolSet struct {
	byName map[string]*tool
	sorted []*tool
	index  catalogIndex // discovery mode's listing and search index, built on first use
}

// lookup finds a tool by name: a registered one, or one of discovery
// mode's own.
func (r *Registry) lookup(name string) (*tool, bool) {
	v, ok := r.tools.Load(name)
	if !ok {
		return r.disc.proxy(name)
	}
	return v.(*tool), true
}

// snapshot returns the tools, sorted by name. It is rebuilt once after a
// batch of changes, so registering N tools costs O(N), not O(N²).
func (r *Registry) snapshot() *toolSet {
	if s := r.snap.Load(); s != nil {
		return s
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.snapshotLocked()
}

func (r *Registry) snapshotLocked() *toolSet {
	if s := r.snap.Load(); s != nil {
		return s
	}
	s := &toolSet{byName: make(map[string]*tool, r.count.Load())}
	r.tools.Range(func(k, v any) bool {
		t := v.(*tool)
		s.byName[t.name] = t
		s.sorted = append(s.sorted, t)
		return true
	})
	slices.SortFunc(s.sorted, func(a, b *tool) int { return strings.Compare(a.name, b.name) })
	r.snap.Store(s)
	return s
}

// NewRegistry returns an empty registry configured by opts. A misused option
// (a nil option, a [StateKey] that is not 32 bytes, a nil handler given to
// [Types]) does not panic: every registration on the registry (Add,
// [Add], AddMethods) then fails with an [*Error] of [CodeInvalidDefinition]
// naming the option, so the mistake surfaces where registration errors are
// checked, and the registry serves no tool.
func NewRegistry(opts ...RegistryOption) *Registry {
	r := &Registry{subs: map[uint64]subscription{}}
	r.tasks.reg = r
	r.cfg.cache = mcpreflect.DefaultCache()
	var misuse []error
	for i, o := range opts {
		if o == nil {
			misuse = append(misuse, fmt.Errorf("option %d is nil", i+1))
			continue
		}
		o.applyRegistry(&r.cfg)
	}
	if r.cfg.logger == nil {
		r.cfg.logger = slog.Default()
	}
	if r.cfg.limiter == nil {
		r.cfg.limiter = &localLimiter{}
	}
	if r.cfg.spent == nil {
		r.cfg.spent = cluster.LocalSpent(0)
	}
	if r.cfg.stateKey != nil && len(r.cfg.stateKey) != 32 {
		misuse = append(misuse, fmt.Errorf("StateKey: the key is %d bytes; an AES-256 key is 32", len(r.cfg.stateKey)))
		r.cfg.stateKey = nil
	}
	if r.cfg.stateKey == nil {
		r.cfg.stateKey = make([]byte, 32)
		_, _ = rand.Read(r.cfg.stateKey)
	}
	for i, h := range r.cfg.types {
		if h == nil {
			misuse = append(misuse, fmt.Errorf("Types: type handler %d is nil", i+1))
		}
	}
	if r.cfg.group != "" {
		if err := annotations.CheckGroup(r.cfg.group); err != nil {
			misuse = append(misuse, fmt.Errorf("Group: %w", err))
		}
	}
	if r.cfg.discoveryOn && len(misuse) == 0 {
		d, err := r.newDiscovery()
		if err != nil {
			misuse = append(misuse, fmt.Errorf("Discovery: %w", err))
		}
		r.disc = d
	}
	if len(misuse) > 0 {
		r.cfg.types = slices.DeleteFunc(r.cfg.types, func(h mcpreflect.TypeHandler) bool { return h == nil })
		r.optErr = fmt.Errorf("the registry's options: %w", errors.Join(misuse...))
	}
	return r
}

// optionError returns the registry's option misuse as the error of
// registering tool (empty for AddMethods), or nil.
func (r *Registry) optionError(tool string) error {
	if r.optErr == nil {
		return nil
	}
	return &Error{Code: CodeInvalidDefinition, Tool: tool, Err: r.optErr}
}

// checkName reports whether name is a valid MCP tool name: 1 to 128
// characters of A-Z, a-z, 0-9, underscore, hyphen and dot. (A loop, not a
// regexp: `{1,128}` compiles to 128 copies of the class, 40 KB that every
// process importing mcptool would keep on its heap.)
func checkName(name string) error {
	ok := len(name) >= 1 && len(name) <= 128
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
	}
	if !ok {
		return &Error{Code: CodeInvalidName, Tool: name, Err: fmt.Errorf("a tool name is 1 to 128 characters of A-Z, a-z, 0-9, underscore, hyphen and dot")}
	}
	return nil
}

// Remove unregisters the named tools. Unknown names are ignored.
func (r *Registry) Remove(names ...string) {
	r.mu.Lock()
	var removed []string
	for _, n := range names {
		if _, ok := r.tools.LoadAndDelete(n); ok {
			removed = append(removed, n)
			r.count.Add(-1)
		}
	}
	if len(removed) == 0 {
		r.mu.Unlock()
		return
	}
	r.snap.Store(nil)
	subs := r.snapshotSubs()
	r.mu.Unlock()
	for _, s := range subs {
		s(nil, removed)
	}
}

func (r *Registry) snapshotSubs() []func([]*tool, []string) {
	out := make([]func([]*tool, []string), 0, len(r.subs))
	for _, s := range r.subs {
		out = append(out, s.fn)
	}
	return out
}

// Watch calls fn after every change of the registry's tools (Add, Remove),
// synchronously, with the names of the tools the change added or removed,
// until stop is called. An adapter for another MCP library looks each name
// up ([Registry.Tool]) to bring its server up to date, so keeping a served
// registry in sync costs the size of each change, not of the registry.
func (r *Registry) Watch(fn func(changed []string)) (stop func()) {
	_, stop = r.subscribe(func(added []*tool, removed []string) {
		changed := removed
		if len(added) > 0 {
			changed = make([]string, 0, len(added)+len(removed))
			for _, t := range added {
				changed = append(changed, t.name)
			}
			changed = append(changed, removed...)
		}
		fn(changed)
	}, nil)
	return stop
}

// subscription follows the registry's changes: fn is called after each;
// gone, when set, says whether the follower is no more (a server garbage
// collected), and forgetGone then drops it.
type subscription struct {
	fn   func(added []*tool, removed []string)
	gone func() bool
}

// subscribe calls fn after every change, until the returned function stops
// it or gone (nil: never) reports the follower gone (forgetGone). It also
// returns the tool set at the time of subscription.
func (r *Registry) subscribe(fn func(added []*tool, removed []string), gone func() bool) (*toolSet, func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	id := r.nextSub
	r.nextSub++
	r.subs[id] = subscription{fn: fn, gone: gone}
	return r.snapshotLocked(), func() {
		r.mu.Lock()
		delete(r.subs, id)
		r.mu.Unlock()
	}
}

// forgetGone drops the followers that are gone (servers garbage collected
// since the last change): a server per request would otherwise leave a
// subscription per request until the registry next changes.
func (r *Registry) forgetGone() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, s := range r.subs {
		if s.gone != nil && s.gone() {
			delete(r.subs, id)
		}
	}
}

// Tools returns the registered tools' definitions, sorted by name. The
// definitions are shared: do not modify them.
func (r *Registry) Tools() []*mcp.Tool {
	s := r.snapshot()
	out := make([]*mcp.Tool, len(s.sorted))
	for i, t := range s.sorted {
		out[i] = t.def
	}
	return out
}

// Tool returns the definition of the named tool.
func (r *Registry) Tool(name string) (*mcp.Tool, bool) {
	t, ok := r.lookup(name)
	if !ok {
		return nil, false
	}
	return t.def, true
}
