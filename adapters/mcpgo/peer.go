//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them.

package mcpgo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"

	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/adapter"
)

// peer is the client end of one tool call on an mcp-go server.
type peer struct {
	srv     *server.MCPServer
	session server.ClientSession // nil when the transport has none (mcp-go's in-process transport without handlers)
	req     *gomcp.CallToolRequest
	// info is the request's protocol metadata on 2026-07-28 requests
	// (client capabilities and log level travel with each request), nil on
	// requests of a 2025-era session.
	info *server.RequestProtocolInfo
	// sdkReq is the call in go-sdk's form on 2026-07-28 requests, for
	// [adapter.Invoke]: input is asked with input-required results.
	sdkReq *mcp.CallToolRequest
}

var _ adapter.Peer = (*peer)(nil)

func newPeer(ctx context.Context, srv *server.MCPServer, req *gomcp.CallToolRequest, args json.RawMessage) (*peer, error) {
	p := &peer{srv: srv, session: server.ClientSessionFromContext(ctx), req: req}
	info := server.RequestProtocolInfoFromContext(ctx)
	if info == nil || !info.Modern {
		return p, nil
	}
	p.info = info
	// The parts of the request mcpgen reads on 2026-07-28: _meta (protocol
	// version, client capabilities), the answers and the request state.
	params := &mcp.CallToolParamsRaw{Name: req.Params.Name, Arguments: args, RequestState: req.Params.RequestState}
	if m := req.Params.Meta; m != nil {
		// go-sdk reads its _meta keys from JSON values or typed ones alike.
		params.Meta = make(mcp.Meta, len(m.AdditionalFields)+1)
		maps.Copy(params.Meta, m.AdditionalFields)
		if m.ProgressToken != nil {
			params.Meta["progressToken"] = m.ProgressToken
		}
	}
	if len(req.Params.InputResponses) > 0 {
		if err := roundTrip(req.Params.InputResponses, &params.InputResponses); err != nil {
			return nil, fmt.Errorf("inputResponses: %w", err)
		}
	}
	p.sdkReq = &mcp.CallToolRequest{Params: params}
	return p, nil
}

// CallRequest is the call in go-sdk's form on a 2026-07-28 request, nil on a
// 2025-era session: [adapter.Invoke] then asks for input with
// input-required results, which mcp-go sends to the client.
func (p *peer) CallRequest() *mcp.CallToolRequest { return p.sdkReq }

// sessionContext returns ctx routed to the call's session, for mcp-go's
// sending functions, which find the session in the context.
func (p *peer) sessionContext(ctx context.Context) context.Context {
	if p.srv == nil || p.session == nil {
		return ctx
	}
	return p.srv.WithContext(ctx, p.session)
}

func (p *peer) SessionID() string {
	if p.session == nil {
		return ""
	}
	return p.session.SessionID()
}

func (p *peer) ProgressToken() any {
	if p.req.Params.Meta == nil {
		return nil
	}
	return p.req.Params.Meta.ProgressToken
}

// NotifyProgress sends notifications/progress with go-sdk's fields: total
// and message are left out when zero.
func (p *peer) NotifyProgress(ctx context.Context, token any, progress, total float64, message string) error {
	if p.srv == nil || p.session == nil {
		return errors.New("mcpgo: no client session to notify")
	}
	params := map[string]any{"progressToken": token, "progress": progress}
	if total != 0 {
		params["total"] = total
	}
	if message != "" {
		params["message"] = message
	}
	return p.srv.SendNotificationToClient(p.sessionContext(ctx), "notifications/progress", params)
}

// LogHandler returns a handler that sends records as notifications/message
// at or above the level the client asked for: on a 2026-07-28 request the
// level in its _meta (none: no records), on a 2025-era session the session's
// (mcp-go's SessionWithLogging). It is nil when the call cannot log.
func (p *peer) LogHandler(_ context.Context, name string) slog.Handler {
	if p.srv == nil || p.session == nil {
		return nil
	}
	if p.info != nil {
		if p.info.LogLevel == "" {
			return nil
		}
		level := p.info.LogLevel
		return newLogHandler(p, func() gomcp.LoggingLevel { return level }, name)
	}
	sl, ok := p.session.(server.SessionWithLogging)
	if !ok {
		return nil
	}
	return newLogHandler(p, sl.GetLogLevel, name)
}

// Levels, as go-sdk maps them between slog and MCP.
var slogToMCP = map[slog.Level]gomcp.LoggingLevel{
	mcp.LevelDebug:     gomcp.LoggingLevelDebug,
	mcp.LevelInfo:      gomcp.LoggingLevelInfo,
	mcp.LevelNotice:    gomcp.LoggingLevelNotice,
	mcp.LevelWarning:   gomcp.LoggingLevelWarning,
	mcp.LevelError:     gomcp.LoggingLevelError,
	mcp.LevelCritical:  gomcp.LoggingLevelCritical,
	mcp.LevelAlert:     gomcp.LoggingLevelAlert,
	mcp.LevelEmergency: gomcp.LoggingLevelEmergency,
}

// mcpLevel maps a record's level to MCP as go-sdk does: exact levels to
// their names, any other to debug.
func mcpLevel(l slog.Level) gomcp.LoggingLevel {
	if ml, ok := slogToMCP[l]; ok {
		return ml
	}
	return gomcp.LoggingLevelDebug
}

// logHandler formats records as go-sdk's LoggingHandler does (the JSON of
// the record, without its level, as data) and sends them through mcp-go.
type logHandler struct {
	p     *peer
	level func() gomcp.LoggingLevel // the client's level
	name  string
	mu    *sync.Mutex // shared by clones: guards buf
	buf   *bytes.Buffer
	inner slog.Handler
}

func newLogHandler(p *peer, level func() gomcp.LoggingLevel, name string) *logHandler {
	buf := new(bytes.Buffer)
	inner := slog.NewJSONHandler(buf, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.LevelKey {
				return slog.Attr{}
			}
			return a
		},
	})
	return &logHandler{p: p, level: level, name: name, mu: new(sync.Mutex), buf: buf, inner: inner}
}

func (h *logHandler) Enabled(_ context.Context, l slog.Level) bool {
	return mcpLevel(l).ShouldSendTo(h.level())
}

func (h *logHandler) Handle(ctx context.Context, r slog.Record) error {
	level := mcpLevel(r.Level)
	if !level.ShouldSendTo(h.level()) {
		return nil
	}
	h.mu.Lock()
	h.buf.Reset()
	err := h.inner.Handle(ctx, r)
	data := slices.Clone(bytes.TrimSpace(h.buf.Bytes()))
	h.mu.Unlock()
	if err != nil {
		return err
	}
	n := gomcp.NewLoggingMessageNotification(level, h.name, jsonData(data))
	return h.p.srv.SendLogMessageToClient(h.p.sessionContext(ctx), n)
}

func (h *logHandler) WithAttrs(as []slog.Attr) slog.Handler {
	h2 := *h
	h2.inner = h.inner.WithAttrs(as)
	return &h2
}

func (h *logHandler) WithGroup(name string) slog.Handler {
	h2 := *h
	h2.inner = h.inner.WithGroup(name)
	return &h2
}

// jsonData is a record's JSON, sent as it is.
type jsonData []byte

func (d jsonData) MarshalJSON() ([]byte, error) { return d, nil }

// Ask sends one input request to the client through mcp-go and waits for the
// answer, converting between go-sdk's types and mcp-go's. It fails with
// [mcptool.ErrInputUnsupported] when the session cannot carry the request or
// the client did not declare the capability, in the go-sdk path's words.
func (p *peer) Ask(ctx context.Context, r mcp.InputRequest) (mcp.InputResponse, error) {
	var what string
	switch r.(type) {
	case *mcp.ElicitParams:
		what = "elicitation"
	case *mcp.CreateMessageParams, *mcp.CreateMessageWithToolsParams:
		what = "sampling"
	case *mcp.ListRootsParams:
		what = "roots"
	default:
		return nil, fmt.Errorf("%w: unknown input request %T", mcptool.ErrInputUnsupported, r)
	}
	if p.srv == nil || p.session == nil {
		// No session: mcp-go's in-process client has one exactly when it
		// has a handler for server requests, and so declared none.
		return nil, notDeclared(what)
	}
	var caps gomcp.ClientCapabilities
	if ci, ok := p.session.(server.SessionWithClientInfo); ok {
		caps = ci.GetClientCapabilities()
	}
	ctx = p.sessionContext(ctx)
	switch v := r.(type) {
	case *mcp.ElicitParams:
		if caps.Elicitation == nil {
			return nil, notDeclared(what)
		}
		if _, ok := p.session.(server.SessionWithElicitation); !ok {
			return nil, cannotCarry()
		}
		return elicit(ctx, p.srv, caps.Elicitation, v)
	case *mcp.CreateMessageParams:
		if caps.Sampling == nil {
			return nil, notDeclared(what)
		}
		return sample(ctx, p.srv, v)
	case *mcp.CreateMessageWithToolsParams:
		if caps.Sampling == nil {
			return nil, notDeclared(what)
		}
		if len(v.Tools) > 0 || v.ToolChoice != nil {
			return nil, fmt.Errorf("%w: mcp-go cannot send sampling requests with tools", mcptool.ErrInputUnsupported)
		}
		return sample(ctx, p.srv, v)
	case *mcp.ListRootsParams:
		if caps.Roots == nil {
			return nil, notDeclared(what)
		}
		if _, ok := p.session.(server.SessionWithRoots); !ok {
			return nil, cannotCarry()
		}
		return listRoots(ctx, p.srv, v)
	}
	return nil, nil // unreachable: every kind is handled above
}

func cannotCarry() error {
	return fmt.Errorf("%w: this session cannot carry requests from the server", mcptool.ErrInputUnsupported)
}

// notDeclared is the go-sdk path's error for a missing client capability.
func notDeclared(what string) error {
	return fmt.Errorf("%w: the client did not declare the %s capability", mcptool.ErrInputUnsupported, what)
}
