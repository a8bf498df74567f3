//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them in both eras.

package mcptool

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"

	"github.com/mcpgen/mcpgen/mcptool/internal/peerctx"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callState is one call's state: what the call path, the context helpers
// and the middleware chain ([Call]) share.
type callState struct {
	reg  *Registry
	tool *tool
	req  *mcp.CallToolRequest // the go-sdk request, when served by go-sdk
	peer peerctx.Peer         // the client end; nil for direct calls
	ti   *auth.TokenInfo      // the verified caller (tokenInfoOf), nil without one

	mu           sync.Mutex
	lastProgress float64
	progressSent bool
	logger       *slog.Logger

	answers map[string]json.RawMessage // input answers: replayed from requestState, plus this round's
	pending mcp.InputRequestMap        // input this run asked for and has no answer to

	out outcome // the path's outcome, once ran (bound.handler)
	ran bool
}

func (cs *callState) setPathOutcome(o outcome) {
	cs.mu.Lock()
	cs.out, cs.ran = o, true
	cs.mu.Unlock()
}

func (cs *callState) pathOutcome() (outcome, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.out, cs.ran
}

// withCallState puts the call's state in the context of its tool, under
// the key of an adapter's peer (peerctx): a Registry.Call the tool makes in
// turn is a direct call.
func withCallState(ctx context.Context, cs *callState) context.Context {
	return context.WithValue(ctx, peerctx.Key{}, cs)
}

func stateFrom(ctx context.Context) *callState {
	cs, _ := ctx.Value(peerctx.Key{}).(*callState)
	return cs
}

// Request returns the MCP request of the tool call ctx belongs to. Use it
// for per-request data: the HTTP headers and token info in Extra, the
// client's capabilities, the protocol version, and the go-sdk session
// (Session), which lives as long as the client's connection on stdio, in
// memory and on 2025-era HTTP sessions. It is nil when the tool was called
// directly through [Registry.Call], and when an adapter serves a 2025-era
// call (adapters/mcpgo: mcp-go's own request is mcpgo.Request); the
// Session of a request an adapter made is nil, and so is that of a
// 2026-07-28 request [Server.Handler] serves itself (a stateless request
// has no session).
func Request(ctx context.Context) *mcp.CallToolRequest {
	if cs := stateFrom(ctx); cs != nil {
		return cs.req
	}
	return nil
}

// Progress reports progress of the current call to the client, as
// notifications/progress. It does nothing when the client sent no progress
// token or the tool was called directly. Progress must increase: a value not
// greater than the last one sent is dropped. total is 0 when unknown.
func Progress(ctx context.Context, progress, total float64, message string) {
	cs := stateFrom(ctx)
	if cs == nil || cs.peer == nil {
		return
	}
	tok := cs.peer.ProgressToken()
	if tok == nil {
		return
	}
	cs.mu.Lock()
	if cs.progressSent && progress <= cs.lastProgress {
		cs.mu.Unlock()
		return
	}
	cs.lastProgress, cs.progressSent = progress, true
	cs.mu.Unlock()
	if err := cs.peer.NotifyProgress(ctx, tok, progress, total, message); err != nil {
		cs.reg.cfg.logger.DebugContext(ctx, "mcptool: progress not delivered", "tool", cs.tool.name, "err", err)
	}
}

// Log returns a logger for the current call. On an MCP session its records
// become notifications/message to the client, at or above the level the
// client asked for (nothing is sent until it asks), named after the tool.
// Called directly, it is the registry's logger. The logger is bound to the
// call: its plain methods (Info, Warn, ...) behave like the Context ones.
func Log(ctx context.Context) *slog.Logger {
	cs := stateFrom(ctx)
	if cs == nil {
		return slog.Default()
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.logger != nil {
		return cs.logger
	}
	var inner slog.Handler
	if cs.peer != nil {
		inner = cs.peer.LogHandler(ctx, cs.tool.name)
	}
	if inner == nil {
		cs.logger = cs.reg.cfg.logger.With("tool", cs.tool.name)
		return cs.logger
	}
	cs.logger = slog.New(boundHandler{inner: inner, ctx: ctx})
	return cs.logger
}

// boundHandler passes the call's context to the session's handler, which
// needs it to route records onto the call's response stream and, on
// 2026-07-28 requests, to know the level the request asked for.
type boundHandler struct {
	inner slog.Handler
	ctx   context.Context
}

func (h boundHandler) Enabled(_ context.Context, l slog.Level) bool { return h.inner.Enabled(h.ctx, l) }
func (h boundHandler) Handle(_ context.Context, r slog.Record) error {
	return h.inner.Handle(h.ctx, r)
}
func (h boundHandler) WithAttrs(a []slog.Attr) slog.Handler {
	return boundHandler{inner: h.inner.WithAttrs(a), ctx: h.ctx}
}
func (h boundHandler) WithGroup(n string) slog.Handler {
	return boundHandler{inner: h.inner.WithGroup(n), ctx: h.ctx}
}

// sessionName names the session a request came on: "" for stateless HTTP.
func sessionName(ss *mcp.ServerSession, extra *mcp.RequestExtra) string {
	if ss == nil {
		return ""
	}
	if id := ss.ID(); id != "" {
		return id
	}
	if extra != nil {
		return "" // stateless HTTP: a throw-away session per request
	}
	return fmt.Sprintf("conn-%p", ss) // stdio, in-memory: one session per connection
}

// tokenInfo is the call's verified token, or nil.
func (cs *callState) tokenInfo() *auth.TokenInfo { return cs.ti }
