package mcptool

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// newHTTPHandler is Server.Handler; without own, go-sdk serves the
// 2026-07-28 wire and the sessions too (the differential tests' reference).
func newHTTPHandler(s *Server, opts *HTTPOptions, own bool) http.Handler {
	srv, reg := s.Server, s.reg
	o := newHTTPConfig(opts)
	log := o.logger
	if log == nil {
		log = slog.Default()
	}
	switch {
	case srv == nil:
		return misconfigured(log, errors.New("no server"))
	case s.m != nil && !s.m.serves(srv):
		return misconfigured(log, errors.New("the registry does not serve the server: build it with Registry.Server, or mount the registry on it with Registry.Mount"))
	}
	get := func(*http.Request) *mcp.Server { return srv }
	h := &httpHandler{reg: reg, body: bodyGate{o: &o, reg: reg}}
	h.stateless = mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		Logger:                       o.logger,
		MaxRequestBodyBytes:          o.maxRequestBodyBytes,
		PropagateRequestCancellation: true,
	})
	if o.maxBodyBytesInFlight > 0 {
		h.body.budget = newBodyBudget(o.maxBodyBytesInFlight)
	}
	cop := http.NewCrossOriginProtection()
	for _, origin := range o.trustedOrigins {
		if err := cop.AddTrustedOrigin(origin); err != nil {
			return misconfigured(log, fmt.Errorf("TrustedOrigins: %w", err))
		}
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		refuse(w, http.StatusForbidden, "cross-origin request refused", "cross-origin request from an untrusted origin "+r.Header.Get("Origin"))
	}))
	if own {
		h.modern = newModern(s.d)
	}
	if !o.stateless {
		h.sessions = &sessionTable{o: &o, srv: srv, m: map[string]*sessionUse{}}
		if h.modern != nil {
			h.sessions.d, h.sessions.encoders = h.modern.d, &h.modern.encoders
		}
		if reg != nil {
			h.sessions.calls = &reg.calls
		}
		h.sessions.stateful = mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			Logger: o.logger,
			// Idle sessions are closed by the table (expire), which sees
			// the requests mcpgen answers itself too.
			MaxRequestBodyBytes: o.maxRequestBodyBytes,
			EventStore:          o.eventStore,
		})
	}
	var next http.Handler = h
	if o.auth != nil {
		a, err := newAuthHTTP(o.auth, srv, reg, o.logger)
		if err != nil {
			return misconfigured(log, err)
		}
		h.auth = a
		next = a.wrap(h)
	}
	return refusalLog{next: cop.Handler(next), log: log}
}

// misconfigured is the handler Server.Handler returns when an option is
// misused: it logs err now, and answers every request with 500 (the
// details stay in the log).
func misconfigured(log *slog.Logger, err error) http.Handler {
	err = fmt.Errorf("mcptool: Server.Handler: %w", err)
	log.Error("mcptool: the HTTP handler is misconfigured: it answers every request with 500", "err", err)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.ErrorContext(r.Context(), "mcptool: request refused: the HTTP handler is misconfigured", "err", err, "remote", r.RemoteAddr)
		http.Error(w, "the MCP server is misconfigured (see its log)", http.StatusInternalServerError)
	})
}

// httpHandler is the handler of [Server.Handler]: it reads each body once
// (bodyGate, httpbody.go), authorizes a call (authHTTP.permit), answers
// what mcpgen's own path owns (httpmodern.go), and routes the rest to
// go-sdk's stateless handler or to the 2025-era sessions (sessionTable,
// httpsession.go).
type httpHandler struct {
	reg       *Registry // serving the server; nil: go-sdk serves every request
	body      bodyGate
	stateless http.Handler
	sessions  *sessionTable // nil when Stateless
	modern    *modern       // nil: go-sdk serves the 2026-07-28 wire too (httpmodern.go)
	auth      *authHTTP     // nil without TokenVerifier
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var env envelope
	var scanned wire.Body
	var body []byte
	if r.Method == http.MethodPost {
		// The body read and scanned once, routed, and a call authorized
		// before anything decodes its arguments.
		var hold bodyHold
		var ok bool
		if body, scanned, hold, ok = h.body.read(w, r); !ok {
			return
		}
		defer hold.release()
		env = envelopeOf(r, &scanned)
		if env.method == "tools/call" && h.auth != nil && !h.auth.permit(w, r, env.name, env.args) {
			return
		}
	}
	// The wire: 2026-07-28, answered by mcpgen's own path when it owns the
	// request, else by go-sdk's stateless handler; or a 2025-era session.
	stateless := h.sessions == nil || statelessWire(r, env)
	if stateless && h.modern != nil && h.modern.serve(w, r, &scanned) {
		return
	}
	if r.Method == http.MethodPost {
		// For go-sdk, the body as read, with what it would drop lifted.
		switch {
		case env.task:
			body = liftTaskParam(body) // the 2025-11-25 task param, which go-sdk drops
		case env.method == "tools/list":
			body = liftQuery(body) // SEP-1821's query, which go-sdk drops
		}
		if env.method == methodSubscriptionsListen {
			var served func()
			r, served = withListen(r, w, body)
			defer served()
		}
		r.Body = &bodyReader{b: body}
		r.ContentLength = int64(len(body))
	}
	if stateless {
		h.stateless.ServeHTTP(w, r)
		return
	}
	h.sessions.serve(w, r, env, &scanned)
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
	return newHTTPHandler(s, opts, true)
}
