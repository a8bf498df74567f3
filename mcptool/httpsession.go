//lint:file-ignore SA1019 sampling and roots are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the 2025-era sessions this wire serves.

package mcptool

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// The 2025-era session wire (streamable HTTP with Mcp-Session-Id), served
// by mcpgen for what the dispatcher owns: a session's tools/call of a
// registry tool and tools/list. The session itself stays go-sdk's
// (initialize, the client's capabilities and log level, GET, DELETE, every
// other method); mcpgen answers the POST from the body it read and
// scanned, on a stream of its own written as go-sdk writes one, and what
// the session sends the client while such a call runs (progress, log
// messages, elicitation, sampling, roots) reaches that stream through
// go-sdk's public sending middleware (onStream), so go-sdk still decides
// what is sent (the log level, the client's capabilities, the checks of
// the answers) and mcpgen only carries it.
//
// One POST, in the order the code runs it:
//
//	read       bodyGate.read (httpbody.go): the body, once, scanned
//	authorize  authHTTP.permit (authhttp.go), for every tools/call
//	session    serveSession (below): known, not being evicted, its idle
//	           timer stopped while the request is served
//	answer     a client's answer to a request of this wire's own (answers)
//	           is delivered here: 202, as go-sdk answers a body of responses
//	check      ownsSessionPOST: the headers and the session's user as
//	           go-sdk requires them; else go-sdk answers (its errors included)
//	decode     sessionRequest (request.go): the go-sdk request of the call
//	in flight  the session's calls of this wire: a duplicate id gets 400
//	stream     sessionStream: go-sdk's headers, the priming event, every
//	           event stored in the EventStore for Last-Event-ID
//	dispatch   dispatcher.serve, the stream in the context (onStream)
//	encode     encodeResponse: the response, the stream's last event

// serveOwnSession answers r, a POST on session id whose scanned body is b,
// when the dispatcher owns it; it reports whether it did. It calls done
// once the call is answered, before the response is written: from then on
// the session is idle (a client that reads the answer and goes on finds
// it so).
func (t *sessionTable) serveOwnSession(w http.ResponseWriter, r *http.Request, s *sessionUse, id string, b *wire.Body, done func()) bool {
	if t.d == nil || b.Batch || len(b.Messages) != 1 || b.Cost.MaxDepth > sdkMaxDepth || !t.ownsSessionPOST(r, s) {
		return false
	}
	own := &s.own
	own.mu.Lock()
	ss := own.ss
	own.mu.Unlock()
	if ss == nil {
		if ss = t.session(id); ss == nil {
			return false // go-sdk's 404
		}
		own.mu.Lock()
		own.ss = ss
		own.mu.Unlock()
	}
	msg := &b.Messages[0]
	if msg.Response {
		return own.answer(w, msg)
	}
	if msg.Method == "notifications/cancelled" && len(msg.ID) == 0 {
		own.calls.cancel(msg.Param("requestId")) // and go-sdk is told too
		return false
	}
	extra := &mcp.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context()), Header: r.Header, CloseSSEStream: func(mcp.CloseSSEStreamArgs) {}}
	req, tl, rid, ok := t.d.sessionRequest(msg, ss, extra)
	if !ok {
		return false
	}
	ctx, c := t.calls.start(r.Context(), ss, r.Header)
	defer t.calls.done(ss, c)
	if !own.calls.start(rid, c.cancel) {
		h := w.Header() // as go-sdk has set them when it finds the duplicate
		h["Cache-Control"], h["Connection"] = noCache, keepAlive
		writeJSONRPCError(w, http.StatusBadRequest, rid, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: fmt.Sprintf("duplicate in-flight request ID %v", rid.Raw())})
		return true
	}
	defer own.calls.done(rid)

	version := r.Header.Get("Mcp-Protocol-Version")
	if version == "" {
		version = "2025-03-26" // as go-sdk assumes it
	}
	st := &sessionStream{w: w, own: own, store: t.o.eventStore, session: id, id: rand.Text(), idx: -1, encoders: t.encoders}
	if err := st.open(ctx, version); err != nil {
		http.Error(w, fmt.Sprintf("storing stream: %v", err), http.StatusInternalServerError)
		return true
	}
	defer st.close()
	res, err := t.d.serve(context.WithValue(ctx, streamKey{}, st), msg.Method, req, tl)
	done()
	st.reply(ctx, rid, res, err)
	return true
}

// ownsSessionPOST reports whether r's headers are as go-sdk requires of a
// POST on an existing session, and r comes from the session's user;
// anything else is go-sdk's to refuse.
func (t *sessionTable) ownsSessionPOST(r *http.Request, s *sessionUse) bool {
	hd := r.Header
	if len(hd.Values("Last-Event-Id")) > 0 || hd.Get("Mcp-Method") != "" || hd.Get("Mcp-Name") != "" {
		return false
	}
	if v := hd.Get("Mcp-Protocol-Version"); v != "" && (v >= modernVersion || !slices.Contains(t.d.versions, v)) {
		return false
	}
	if !jsonContent(hd) {
		return false
	}
	if !acceptsBoth(hd.Values("Accept")) {
		return false
	}
	if s.user != "" {
		ti := auth.TokenInfoFromContext(r.Context())
		if ti == nil || ti.UserID != s.user {
			return false // go-sdk's 403
		}
	}
	return true
}

// sessionTable is the 2025-era sessions of a handler (all but Stateless):
// go-sdk's stateful handler, which keeps each session, and what the
// handler keeps of them, so it can evict the idlest past MaxSessions. The
// calls in flight on a session are the registry's to cancel
// (sessioncalls.go): when the HTTP request that carried them ends early,
// and before the session is closed, which go-sdk does only once its calls
// are done. A session is evicted by closing it (mcp.ServerSession.Close),
// after which go-sdk's handler no longer knows it.
type sessionTable struct {
	o        *httpConfig
	srv      *mcp.Server
	stateful http.Handler
	d        *dispatcher   // nil: go-sdk serves every request of a session
	encoders *sync.Pool    // of *encoder, the handler's (modern.encoders)
	calls    *sessionCalls // the registry's; nil: go-sdk serves every request

	mu sync.Mutex
	m  map[string]*sessionUse // by Mcp-Session-Id
}

// serve serves r, a request of the 2025-era wire whose POST body was
// scanned as b (env: what it carries): an initialize opens a session, a
// DELETE ends one, and the rest is served on its session (serveSession).
func (t *sessionTable) serve(w http.ResponseWriter, r *http.Request, env envelope, b *wire.Body) {
	id := r.Header.Get("Mcp-Session-Id")
	switch {
	case id == "":
		if env.method != "initialize" {
			t.stateful.ServeHTTP(w, r)
			break
		}
		// The new session is known before its client reads the answer and
		// can use it: its requests are then always tracked, and sessions
		// are counted against MaxSessions in the order their clients see.
		sw := &statusWriter{ResponseWriter: w}
		sw.before = func() {
			if id := w.Header().Get("Mcp-Session-Id"); id != "" {
				t.opened(id, r)
			}
		}
		t.stateful.ServeHTTP(sw, r)
	case r.Method == http.MethodDelete:
		// Cancel first: go-sdk closes a session only once its calls are
		// done. Only the session's own user's: go-sdk refuses the others.
		done := func() {}
		if t.ownedBy(id, r) {
			t.ending(id)
			if ss := t.session(id); ss != nil {
				done = t.endCalls(ss)
			}
		}
		sw := &statusWriter{ResponseWriter: w}
		t.stateful.ServeHTTP(sw, r)
		done()
		if sw.code == http.StatusNoContent || sw.code == http.StatusNotFound {
			t.forget(id)
		}
	default:
		t.serveSession(w, r, id, env.calls, b)
	}
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

// serveSession serves a request of session id (b: its scanned body), by
// mcpgen's own session wire when the dispatcher owns it (httpsession.go),
// else by go-sdk, and cancels the calls it carried if its client went away
// before they were answered. While it is served, the session is not idle.
func (t *sessionTable) serveSession(w http.ResponseWriter, r *http.Request, id string, calls bool, b *wire.Body) {
	if r.Method != http.MethodPost {
		// A standalone stream (GET) is held open for the session's life:
		// it is no activity, as for go-sdk's SessionTimeout, or every
		// session of a client that listens would look busy and MaxSessions
		// could not tell the idlest.
		t.stateful.ServeHTTP(w, r)
		return
	}
	t.mu.Lock()
	s := t.m[id]
	if s != nil && s.evict {
		// The session is being deleted: go-sdk could still take this
		// request and end its stream unanswered when the session closes.
		// Its client is told now, as for a session already gone.
		t.mu.Unlock()
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
	t.mu.Unlock()
	if s == nil {
		t.stateful.ServeHTTP(w, r)
		return
	}
	served := false
	done := func() { // the request is answered: the session is idle again
		t.mu.Lock()
		defer t.mu.Unlock()
		if served {
			return
		}
		served = true
		s.active--
		s.last = time.Now()
		if s.active == 0 && s.idle != nil && !s.evict {
			s.idle.Reset(t.o.sessionTimeout)
		}
	}
	if !t.serveOwnSession(w, r, s, id, b, done) {
		t.stateful.ServeHTTP(w, r)
	}
	done()
	if r.Context().Err() != nil && calls && t.calls != nil {
		// The client went away before its calls were answered: cancel the
		// ones still running, found by the request go-sdk handed them.
		if ss := t.session(id); ss != nil {
			t.calls.cancelCarried(ss, r.Header)
		}
	}
}

// opened registers a new session, and evicts the one idle longest when there
// are more than MaxSessions.
func (t *sessionTable) opened(id string, r *http.Request) {
	t.mu.Lock()
	s := &sessionUse{last: time.Now()}
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		s.user = ti.UserID
	}
	if d := t.o.sessionTimeout; d > 0 {
		s.idle = time.AfterFunc(d, func() { t.expire(id, s) })
	}
	t.m[id] = s
	var ids []string
	if t.o.maxSessions > 0 {
		for len(t.m)-t.evicting() > t.o.maxSessions {
			v := t.idlest(id)
			if v == "" {
				break
			}
			t.m[v].evict = true
			ids = append(ids, v)
		}
	}
	t.mu.Unlock()
	for _, v := range ids {
		go t.evict(v)
	}
}

// expire closes session id (s) when its idle timer fires and it is still
// idle, as go-sdk's SessionTimeout would; its handler then answers its
// requests with 404.
func (t *sessionTable) expire(id string, s *sessionUse) {
	t.mu.Lock()
	if t.m[id] != s || s.evict || s.active > 0 {
		t.mu.Unlock()
		return
	}
	s.evict = true
	t.mu.Unlock()
	t.evict(id)
}

// evicting counts the sessions being evicted; t.mu is held.
func (t *sessionTable) evicting() int {
	n := 0
	for _, s := range t.m {
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
// client while the others are busy. t.mu is held.
func (t *sessionTable) idlest(opened string) string {
	var best string
	var bs *sessionUse
	for id, s := range t.m {
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
func (t *sessionTable) evict(id string) {
	t.ending(id)
	if ss := t.session(id); ss != nil {
		done := t.endCalls(ss)
		_ = ss.Close() // it waits for the calls, cancelled
		done()
	}
	t.forget(id)
}

// ending tells mcpgen's own session wire that session id is being closed.
func (t *sessionTable) ending(id string) {
	t.mu.Lock()
	s := t.m[id]
	t.mu.Unlock()
	if s != nil {
		s.own.end()
	}
}

// forget drops session id, which go-sdk closed.
func (t *sessionTable) forget(id string) {
	t.mu.Lock()
	if s := t.m[id]; s != nil && s.idle != nil {
		s.idle.Stop()
	}
	delete(t.m, id)
	t.mu.Unlock()
}

// endCalls cancels the calls in flight on ss and those that start until
// done is called, as ss is being closed (sessionCalls); without a
// registry, nothing.
func (t *sessionTable) endCalls(ss *mcp.ServerSession) (done func()) {
	if t.calls == nil {
		return func() {}
	}
	return t.calls.endCalls(ss)
}

// ownedBy reports whether the session id is r's user's, as go-sdk checks
// before it deletes a session: opened without a token's UserID, or with
// r's.
func (t *sessionTable) ownedBy(id string, r *http.Request) bool {
	t.mu.Lock()
	s := t.m[id]
	t.mu.Unlock()
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
func (t *sessionTable) session(id string) *mcp.ServerSession {
	for ss := range t.srv.Sessions() {
		if ss.ID() == id {
			return ss
		}
	}
	return nil
}
