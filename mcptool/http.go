package mcptool

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// newHTTPHandler is Server.Handler; without own, go-sdk serves the
// 2026-07-28 wire and the sessions too (the differential tests' reference).
func newHTTPHandler(reg *Registry, srv *mcp.Server, opts *HTTPOptions, own bool) http.Handler {
	o := newHTTPConfig(opts)
	log := o.logger
	if log == nil {
		log = slog.Default()
	}
	switch {
	case srv == nil:
		return misconfigured(log, errors.New("no server"))
	case reg != nil && !reg.serves(srv):
		return misconfigured(log, errors.New("the registry does not serve the server: build it with Registry.Server, or mount the registry on it with Registry.Mount"))
	}
	get := func(*http.Request) *mcp.Server { return srv }
	h := &httpHandler{o: o, srv: srv, reg: reg, sessions: map[string]*sessionUse{}}
	h.stateless = mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		Logger:                       o.logger,
		MaxRequestBodyBytes:          o.maxRequestBodyBytes,
		PropagateRequestCancellation: true,
	})
	if !o.stateless {
		h.stateful = mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			Logger: o.logger,
			// Idle sessions are closed by the handler (idle), which sees the
			// requests mcpgen answers itself too.
			MaxRequestBodyBytes: o.maxRequestBodyBytes,
			EventStore:          o.eventStore,
		})
	}
	if o.maxBodyBytesInFlight > 0 {
		h.bodies = newBodyBudget(o.maxBodyBytesInFlight)
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
		h.modern = newModern(srv, reg)
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

// httpHandler is the handler of [Server.Handler]: it reads each body once,
// answers what mcpgen's own path owns (httpmodern.go), routes the rest to
// go-sdk's stateless or stateful handler, and keeps track of the 2025-era
// sessions, so it can evict the idlest past MaxSessions. The calls in
// flight on a session are the registry's to cancel (sessioncalls.go): when
// the HTTP request that carried them ends early, and before the session is
// closed, which go-sdk does only once its calls are done. A session is
// evicted by closing it (mcp.ServerSession.Close), after which go-sdk's
// handler no longer knows it.
type httpHandler struct {
	o         httpConfig
	srv       *mcp.Server
	reg       *Registry // serving srv; nil: go-sdk serves every request
	stateless http.Handler
	stateful  http.Handler // nil when o.stateless
	modern    *modern      // nil: go-sdk serves the 2026-07-28 wire too (httpmodern.go)
	bodies    *bodyBudget  // nil: MaxBodyBytesInFlight off
	auth      *authHTTP    // nil without TokenVerifier

	mu       sync.Mutex
	sessions map[string]*sessionUse // by Mcp-Session-Id
}

// sessionUse is what the handler knows of one 2025-era session.
type sessionUse struct {
	last   time.Time   // when its latest request started or ended
	active int         // its requests being served
	user   string      // the UserID of the token that opened it, as go-sdk binds it
	evict  bool        // being evicted
	idle   *time.Timer // closes it after SessionTimeout without a request; nil: never
	own    sessionOwn  // what mcpgen's own session wire keeps of it (httpsession.go)
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var env envelope
	var scanned wire.Body
	if r.Method == http.MethodPost {
		body, b, hold, ok := h.readBody(w, r)
		scanned = b
		if !ok {
			return
		}
		defer hold.release()
		env = envelopeOf(r, &scanned)
		if env.method == "tools/call" && h.auth != nil && !h.auth.permit(w, r, env.name, env.args) {
			return
		}
		if h.modern != nil && h.modern.serve(w, r, &scanned) {
			return
		}
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
	if h.stateful == nil || statelessWire(r, env) {
		h.stateless.ServeHTTP(w, r)
		return
	}
	id := r.Header.Get("Mcp-Session-Id")
	switch {
	case id == "":
		if env.method != "initialize" {
			h.stateful.ServeHTTP(w, r)
			break
		}
		// The new session is known before its client reads the answer and
		// can use it: its requests are then always tracked, and sessions
		// are counted against MaxSessions in the order their clients see.
		sw := &statusWriter{ResponseWriter: w}
		sw.before = func() {
			if id := w.Header().Get("Mcp-Session-Id"); id != "" {
				h.opened(id, r)
			}
		}
		h.stateful.ServeHTTP(sw, r)
	case r.Method == http.MethodDelete:
		// Cancel first: go-sdk closes a session only once its calls are
		// done. Only the session's own user's: go-sdk refuses the others.
		done := func() {}
		if h.ownedBy(id, r) {
			h.ending(id)
			if ss := h.session(id); ss != nil {
				done = h.endCalls(ss)
			}
		}
		sw := &statusWriter{ResponseWriter: w}
		h.stateful.ServeHTTP(sw, r)
		done()
		if sw.code == http.StatusNoContent || sw.code == http.StatusNotFound {
			h.forget(id)
		}
	default:
		h.serveSession(w, r, id, env.calls, &scanned)
	}
}

// bodyReader hands a body already read to go-sdk, and lets it go once read.
type bodyReader struct{ b []byte }

func (r *bodyReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		r.b = nil
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

func (r *bodyReader) Close() error { r.b = nil; return nil }

// envelope is what the handler needs of a POST body to route it to go-sdk:
// whether it carries calls, and whether it belongs to the 2026-07-28 wire.
type envelope struct {
	method string // of a single message
	name   string // the tool a single tools/call names: Mcp-Name, else params.name
	args   []byte // its arguments as in the body (a discovery proxy's name its tool)
	meta   bool   // a single message with per-request protocol metadata
	task   bool   // a single tools/call with the 2025-11-25 task param
	calls  bool   // requests (with an id), whose client may go away before their answer
}

// envelopeOf is what b carries. A message that is not JSON-RPC 2.0
// carries nothing: go-sdk refuses it whole.
func envelopeOf(r *http.Request, b *wire.Body) envelope {
	var env envelope
	if len(b.Messages) == 1 && !b.Batch && b.Messages[0].Version2() {
		m := &b.Messages[0]
		env.method = m.Method
		env.meta = m.MetaValue(mcp.MetaKeyProtocolVersion) != nil
		if m.Method == "tools/call" {
			env.task = m.Param("task") != nil
			if env.name = r.Header.Get("Mcp-Name"); env.name == "" {
				// A variable of this branch: taking env's address would
				// move every request's envelope to the heap.
				var name string
				_ = unmarshalString(m.Param("name"), &name)
				env.name = name
			}
			env.args = m.Param("arguments")
		}
	}
	for _, m := range b.Messages {
		if m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
			env.calls = true
			break
		}
	}
	return env
}

// statelessWire reports whether r belongs to the 2026-07-28 stateless wire:
// its protocol version header says so, or, without one, its body carries
// per-request protocol metadata.
func statelessWire(r *http.Request, env envelope) bool {
	if r.Header.Get("Mcp-Session-Id") != "" {
		return false
	}
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" {
		return v >= modernVersion || !isKnownVersion(v)
	}
	if r.Method != http.MethodPost || env.method == "initialize" {
		return false
	}
	return env.meta || env.method == "server/discover"
}

func isKnownVersion(v string) bool {
	for _, s := range mcp.SupportedProtocolVersions() {
		if s == v {
			return true
		}
	}
	return false
}

// serveSession serves a request of session id (b: its scanned body), by
// mcpgen's own session wire when the dispatcher owns it (httpsession.go),
// else by go-sdk, and cancels the calls it carried if its client went away
// before they were answered. While it is served, the session is not idle.
func (h *httpHandler) serveSession(w http.ResponseWriter, r *http.Request, id string, calls bool, b *wire.Body) {
	if r.Method != http.MethodPost {
		// A standalone stream (GET) is held open for the session's life:
		// it is no activity, as for go-sdk's SessionTimeout, or every
		// session of a client that listens would look busy and MaxSessions
		// could not tell the idlest.
		h.stateful.ServeHTTP(w, r)
		return
	}
	h.mu.Lock()
	s := h.sessions[id]
	if s != nil && s.evict {
		// The session is being deleted: go-sdk could still take this
		// request and end its stream unanswered when the session closes.
		// Its client is told now, as for a session already gone.
		h.mu.Unlock()
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	if s != nil {
		s.active++
		s.last = time.Now()
		if s.idle != nil {
			s.idle.Stop()
		}
	}
	h.mu.Unlock()
	if s == nil {
		h.stateful.ServeHTTP(w, r)
		return
	}
	served := false
	done := func() { // the request is answered: the session is idle again
		h.mu.Lock()
		defer h.mu.Unlock()
		if served {
			return
		}
		served = true
		s.active--
		s.last = time.Now()
		if s.active == 0 && s.idle != nil && !s.evict {
			s.idle.Reset(h.o.sessionTimeout)
		}
	}
	if !h.serveOwnSession(w, r, s, id, b, done) {
		h.stateful.ServeHTTP(w, r)
	}
	done()
	if r.Context().Err() != nil && calls && h.reg != nil {
		// The client went away before its calls were answered: cancel the
		// ones still running, found by the request go-sdk handed them.
		if ss := h.session(id); ss != nil {
			h.reg.calls.cancelCarried(ss, r.Header)
		}
	}
}

// opened registers a new session, and evicts the one idle longest when there
// are more than MaxSessions.
func (h *httpHandler) opened(id string, r *http.Request) {
	h.mu.Lock()
	s := &sessionUse{last: time.Now()}
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		s.user = ti.UserID
	}
	if t := h.o.sessionTimeout; t > 0 {
		s.idle = time.AfterFunc(t, func() { h.expire(id, s) })
	}
	h.sessions[id] = s
	var ids []string
	if h.o.maxSessions > 0 {
		for len(h.sessions)-h.evicting() > h.o.maxSessions {
			v := h.idlest(id)
			if v == "" {
				break
			}
			h.sessions[v].evict = true
			ids = append(ids, v)
		}
	}
	h.mu.Unlock()
	for _, v := range ids {
		go h.evict(v)
	}
}

// expire closes session id (s) when its idle timer fires and it is still
// idle, as go-sdk's SessionTimeout would; its handler then answers its
// requests with 404.
func (h *httpHandler) expire(id string, s *sessionUse) {
	h.mu.Lock()
	if h.sessions[id] != s || s.evict || s.active > 0 {
		h.mu.Unlock()
		return
	}
	s.evict = true
	h.mu.Unlock()
	h.evict(id)
}

// evicting counts the sessions being evicted; h.mu is held.
func (h *httpHandler) evicting() int {
	n := 0
	for _, s := range h.sessions {
		if s.evict {
			n++
		}
	}
	return n
}

// idlest returns the session to evict other than the one just opened: one
// with no request being served if there is one, and of those the one whose
// last request is oldest. The new session is never the victim: its client
// has just initialized and would fail at once, and so would every new
// client while the others are busy. h.mu is held.
func (h *httpHandler) idlest(opened string) string {
	var best string
	var bs *sessionUse
	for id, s := range h.sessions {
		if s.evict || id == opened {
			continue
		}
		if bs == nil || (s.active == 0) != (bs.active == 0) && s.active == 0 ||
			(s.active == 0) == (bs.active == 0) && s.last.Before(bs.last) {
			best, bs = id, s
		}
	}
	return best
}

// evict cancels the calls in flight on session id, closes it (go-sdk's
// handler then answers its requests with 404), and forgets it.
func (h *httpHandler) evict(id string) {
	h.ending(id)
	if ss := h.session(id); ss != nil {
		done := h.endCalls(ss)
		_ = ss.Close() // it waits for the calls, cancelled
		done()
	}
	h.forget(id)
}

// ending tells mcpgen's own session wire that session id is being closed.
func (h *httpHandler) ending(id string) {
	h.mu.Lock()
	s := h.sessions[id]
	h.mu.Unlock()
	if s != nil {
		s.own.end()
	}
}

// forget drops session id, which go-sdk closed.
func (h *httpHandler) forget(id string) {
	h.mu.Lock()
	if s := h.sessions[id]; s != nil && s.idle != nil {
		s.idle.Stop()
	}
	delete(h.sessions, id)
	h.mu.Unlock()
}

// endCalls cancels the calls in flight on ss and those that start until
// done is called, as ss is being closed (sessionCalls); without a
// registry, nothing.
func (h *httpHandler) endCalls(ss *mcp.ServerSession) (done func()) {
	if h.reg == nil {
		return func() {}
	}
	return h.reg.calls.endCalls(ss)
}

// ownedBy reports whether the session id is r's user's, as go-sdk checks
// before it deletes a session: opened without a token's UserID, or with
// r's.
func (h *httpHandler) ownedBy(id string, r *http.Request) bool {
	h.mu.Lock()
	s := h.sessions[id]
	h.mu.Unlock()
	if s == nil {
		return false
	}
	if s.user == "" {
		return true
	}
	ti := auth.TokenInfoFromContext(r.Context())
	return ti != nil && ti.UserID == s.user
}

// session returns go-sdk's session id of srv, or nil when there is none
// (it closed).
func (h *httpHandler) session(id string) *mcp.ServerSession {
	for ss := range h.srv.Sessions() {
		if ss.ID() == id {
			return ss
		}
	}
	return nil
}

// statusWriter records the status code of a response, and calls before
// (when set) once, just before the header is sent.
type statusWriter struct {
	http.ResponseWriter
	before func()
	once   sync.Once
	code   int
}

func (w *statusWriter) header(code int) {
	w.once.Do(func() {
		w.code = code
		if w.before != nil {
			w.before()
		}
	})
}

func (w *statusWriter) WriteHeader(code int) {
	w.header(code)
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	w.header(http.StatusOK)
	return w.ResponseWriter.Write(p)
}

// Flush sends the header too: http.ResponseController would otherwise
// flush the writer underneath, past before.
func (w *statusWriter) Flush() {
	w.header(http.StatusOK)
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
