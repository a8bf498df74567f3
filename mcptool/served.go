package mcptool

import (
	"context"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Which registry serves a server: [NewHTTPHandler] with [Authorization]
// needs it before go-sdk sees a request (the scopes a 401 names, the
// metadata's scopes_supported, the 403 of a call whose token lacks its
// tool's scopes). It asks the server itself, once, through go-sdk's public
// API: a ping on a connection of its own (servedProbe), whose context every
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
	t := newProbeTransport()
	ss, err := srv.Connect(ctx, t, nil)
	if err != nil {
		return nil
	}
	defer func() { _ = ss.Close() }()
	id, err := jsonrpc.MakeID("io.mcpgen/probe")
	if err != nil {
		return nil
	}
	select {
	case t.conn.in <- &jsonrpc.Request{ID: id, Method: "ping", Params: []byte("{}")}:
	case <-ctx.Done():
		return nil
	}
	select {
	case <-t.conn.out:
	case <-ctx.Done():
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

// probeTransport is the one connection of a probe: messages in and out
// through channels, never encoded.
type probeTransport struct{ conn *probeConn }

func newProbeTransport() *probeTransport {
	return &probeTransport{conn: &probeConn{
		in:     make(chan jsonrpc.Message),
		out:    make(chan jsonrpc.Message, 1),
		closed: make(chan struct{}),
	}}
}

func (t *probeTransport) Connect(context.Context) (mcp.Connection, error) { return t.conn, nil }

type probeConn struct {
	in     chan jsonrpc.Message
	out    chan jsonrpc.Message
	once   sync.Once
	closed chan struct{}
}

func (c *probeConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.in:
		return m, nil
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *probeConn) Write(_ context.Context, m jsonrpc.Message) error {
	select {
	case c.out <- m:
	default: // only the ping's answer is awaited
	}
	return nil
}

func (c *probeConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *probeConn) SessionID() string { return "" }
