package mcptool

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
)

// The requests in flight on each session with an id (a 2025-era HTTP
// session), which [Server.Handler] cancels when their client went away:
// when the HTTP request that carried them ends early, and when the session
// is deleted or evicted. go-sdk runs them on the session's context, not on
// the HTTP request's, and closing a session waits for them
// (sdkpatch.SameHeader), so the registry serving the session keeps a cancel
// func for each (trackCalls, installed by Registry.Server and Mount): the
// registry's state, kept while the requests run.

// sessionCalls are the requests in flight on a registry's sessions.
type sessionCalls struct {
	mu   sync.Mutex
	sess map[*mcp.ServerSession]*callSet // sessions with requests in flight, or ending
}

// callSet is one session's.
type callSet struct {
	calls  map[*inflight]struct{}
	ending int // ends under way (endCalls): requests start cancelled
}

// inflight is one request being served.
type inflight struct {
	header http.Header // of the HTTP request that carried it; nil off HTTP
	cancel context.CancelFunc
}

// trackCalls is receiving middleware that runs each request of a session
// with an id on a context the registry can cancel (in s).
func (s *sessionCalls) trackCalls(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, _ := req.GetSession().(*mcp.ServerSession)
		if ss == nil || strings.HasPrefix(method, "notifications/") || ss.ID() == "" {
			return next(ctx, method, req)
		}
		var header http.Header
		if x := req.GetExtra(); x != nil {
			header = x.Header
		}
		ctx, c := s.start(ctx, ss, header)
		defer s.done(ss, c)
		return next(ctx, method, req)
	}
}

func (s *sessionCalls) start(ctx context.Context, ss *mcp.ServerSession, header http.Header) (context.Context, *inflight) {
	ctx, cancel := context.WithCancel(ctx)
	c := &inflight{header: header, cancel: cancel}
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.set(ss)
	set.calls[c] = struct{}{}
	if set.ending > 0 {
		cancel()
	}
	return ctx, c
}

func (s *sessionCalls) done(ss *mcp.ServerSession, c *inflight) {
	c.cancel()
	s.mu.Lock()
	defer s.mu.Unlock()
	if set := s.sess[ss]; set != nil {
		delete(set.calls, c)
		s.forget(ss, set)
	}
}

// set returns ss's, made if need be; s.mu is held.
func (s *sessionCalls) set(ss *mcp.ServerSession) *callSet {
	set := s.sess[ss]
	if set == nil {
		if s.sess == nil {
			s.sess = map[*mcp.ServerSession]*callSet{}
		}
		set = &callSet{calls: map[*inflight]struct{}{}}
		s.sess[ss] = set
	}
	return set
}

// forget drops ss's set once it holds nothing; s.mu is held.
func (s *sessionCalls) forget(ss *mcp.ServerSession, set *callSet) {
	if len(set.calls) == 0 && set.ending == 0 {
		delete(s.sess, ss)
	}
}

// cancelCarried cancels the requests of ss that the HTTP request with
// header carried.
func (s *sessionCalls) cancelCarried(ss *mcp.ServerSession, header http.Header) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if set := s.sess[ss]; set != nil {
		for c := range set.calls {
			if sdkpatch.SameHeader(c.header, header) {
				c.cancel()
			}
		}
	}
}

// endCalls cancels every request of ss, and those that start until done
// is called: ss is being closed, which waits for them.
func (s *sessionCalls) endCalls(ss *mcp.ServerSession) (done func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.set(ss)
	set.ending++
	for c := range set.calls {
		c.cancel()
	}
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		set.ending--
		s.forget(ss, set)
	}
}
