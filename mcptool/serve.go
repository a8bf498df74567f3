package mcptool

import (
	"context"
	"net/http"

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

// Handler returns the server's streamable HTTP handler, configured by opts
// (nil: every default).
//
// Requests of the 2026-07-28 revision are served statelessly, as that
// revision requires; 2025-era clients get sessions (unless
// [HTTPOptions].Stateless), so tools can elicit and sample through them.
// On a server built by [Registry.Server], mcpgen answers the registry's
// tools/call, tools/list and tasks/* itself on both, reading and parsing
// each body once; everything else is go-sdk's. Requests whose Host is not
// loopback are refused when the server listens on loopback (DNS-rebinding
// protection), and cross-origin browser requests are refused unless their
// origin is trusted ([HTTPOptions].TrustedOrigins). With a
// [HTTPOptions].TokenVerifier, the registry's tools give the scopes a call
// needs, refused with 403 before anything decodes its arguments. A call's
// context is cancelled when its client goes away: when the HTTP request
// carrying it ends early (the connection dropped) or its session is
// deleted or evicted.
//
// The handler bounds what a client can hold: each body must arrive within
// BodyReadTimeout, the bodies served at once within MaxBodyBytesInFlight
// (counted as they arrive), and the 2025-era sessions within MaxSessions.
// Refused requests (403, 408, 413, 503) are logged with the reason and the
// remote address, never the body (to [HTTPOptions].Logger). The
// http.Server serving it should set ReadHeaderTimeout and IdleTimeout, but
// no ReadTimeout or WriteTimeout shorter than the longest call (they would
// cut calls and event streams short); see the README's Serving section.
//
// Misuse (a trusted origin that is no scheme://host[:port], a TokenVerifier
// without ResourceMetadata or with incomplete metadata, a server unmounted)
// is no panic, and is not ignored either: the handler logs the error (to
// Logger, else slog.Default) when it is built and answers every request
// with 500, so that a misconfigured server fails on its first request
// instead of serving without what it was given.
func (s *Server) Handler(opts *HTTPOptions) http.Handler {
	return newHTTPHandler(s.reg, s.Server, opts, true)
}

// Run serves one session over t until the client ends it or ctx is done,
// as [mcp.Server.Run] does. Over a [StdioTransport], the registry's
// tools/call and tools/list are answered by mcpgen from the line it read.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	ss, err := s.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case <-ctx.Done():
		_ = ss.Close()
		<-done
		return ctx.Err()
	case err := <-done:
		return err
	}
}

// Connect starts a session over t, as [mcp.Server.Connect] does; over a
// [StdioTransport] with mcpgen answering the registry's requests.
func (s *Server) Connect(ctx context.Context, t mcp.Transport, opts *mcp.ServerSessionOptions) (*mcp.ServerSession, error) {
	st, ok := t.(*StdioTransport)
	if !ok || s.d == nil {
		return s.Server.Connect(ctx, t, opts)
	}
	own := &ownedStdio{t: st, d: s.d}
	ss, err := s.Server.Connect(ctx, own, opts)
	if err != nil {
		return nil, err
	}
	own.conn.session.Store(ss)
	return ss, nil
}

// ownedStdio connects a StdioTransport whose connection answers what the
// dispatcher owns.
type ownedStdio struct {
	t    *StdioTransport
	d    *dispatcher
	conn *stdioConn
}

func (o *ownedStdio) Connect(ctx context.Context) (mcp.Connection, error) {
	o.conn = o.t.connect(ctx, o.d)
	return o.conn, nil
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
