package mcptool

import (
	"runtime"
	"sync"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewHTTPHandler takes two shortcuts past go-sdk for a server a registry
// serves (argstash.go, taskpoll.go). Both need to know which registry that
// is; answering tasks/get also needs the server's Implementation, which
// only Registry.Server knows. served keeps that per server, with weak keys:
// an entry goes with its server.

// servedBy is what NewHTTPHandler knows of a server.
type servedBy struct {
	reg  *Registry           // nil: more than one registry serves on it
	impl *mcp.Implementation // nil unless Registry.Server built it
}

var (
	servedMu sync.Mutex // serializes updates; lookups need no lock
	served   sync.Map   // weak.Pointer[mcp.Server] → *servedBy
)

// noteServed records that r serves on s (and, from Registry.Server, that s
// is impl).
func noteServed(s *mcp.Server, r *Registry, impl *mcp.Implementation) {
	key := weak.Make(s)
	servedMu.Lock()
	defer servedMu.Unlock()
	v, ok := served.Load(key)
	switch {
	case !ok:
		served.Store(key, &servedBy{reg: r, impl: impl})
		runtime.AddCleanup(s, func(k weak.Pointer[mcp.Server]) { served.Delete(k) }, key)
	case v.(*servedBy).reg != r:
		served.Store(key, &servedBy{})
	case impl != nil:
		served.Store(key, &servedBy{reg: r, impl: impl})
	}
}

// servedOn returns what is known of s; its reg is nil unless exactly one
// registry serves on s.
func servedOn(s *mcp.Server) servedBy {
	if v, ok := served.Load(weak.Make(s)); ok {
		return *v.(*servedBy)
	}
	return servedBy{}
}
