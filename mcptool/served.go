package mcptool

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Which registry serves a server: [NewHTTPHandler] with [HTTPOptions.TokenVerifier]
// needs it before go-sdk sees a request (the scopes a 401 names, the
// metadata's scopes_supported, the 403 of a call whose token lacks its
// tool's scopes). It asks the server itself, once, through go-sdk's public
// API: a ping from a client of its own over go-sdk's in-memory transports (servedProbe), whose context every
// registry that serves the server (its middleware answerProbe, installed
// by Registry.Server and Mount) marks. Nothing is kept outside the server
// and the handler.

// probeTimeout bounds the probe; a server whose middleware holds a ping
// longer is taken to be served by no registry.
const probeTimeout = 5 * time.Second

// servedProbe collects the registries that serve a server.
type servedProbe struct {
	mu   sync.Mutex
	regs []*Registry
}

type probeKey struct{}

// answerProbe marks a probe's ping with r.
func (r *Registry) answerProbe(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "ping" {
			if p, ok := ctx.Value(probeKey{}).(*servedProbe); ok {
				p.mu.Lock()
				p.regs = append(p.regs, r)
				p.mu.Unlock()
			}
		}
		return next(ctx, method, req)
	}
}

// registryOf returns the registry that serves srv, or nil when none or
// more than one does (or the probe could not reach srv's middleware).
func registryOf(srv *mcp.Server) *Registry {
	p := &servedProbe{}
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), probeKey{}, p), probeTimeout)
	defer cancel()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return nil
	}
	defer func() { _ = ss.Close() }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpgen-probe", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil
	}
	defer func() { _ = cs.Close() }()
	if cs.Ping(ctx, nil) != nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.regs) == 0 {
		return nil
	}
	for _, r := range p.regs[1:] {
		if r != p.regs[0] {
			return nil
		}
	}
	return p.regs[0]
}
