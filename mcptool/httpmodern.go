//lint:file-ignore SA1019 roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol: this path decodes the client's capabilities and log level as go-sdk does.

package mcptool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/peerctx"
	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// The 2026-07-28 stateless wire, served by mcpgen itself for the methods a
// registry owns: tools/call (plain, input-required rounds, task-augmented),
// tools/list, tasks/get, tasks/update and tasks/cancel. A request of that
// wire is self-contained, so it is served the way connect-go serves a unary
// call: read, decode, dispatch, encode, in one function (serve, below),
// instead of go-sdk's stateless handler building a session, a jsonrpc2
// connection and its goroutines per request and parsing the body twice.
//
// One request, in the order the code runs it:
//
//	read       httpHandler.readBody (httpbody.go): the body, once
//	scan       wire.Scan, in readBody: one pass; the envelope, params and _meta as raw
//	           sub-slices of the body
//	authorize  authHTTP.permit (auth.go), for every tools/call (ServeHTTP),
//	           before anything decodes the arguments
//	check      owns: the request is one this path answers exactly as go-sdk
//	           would; anything else (errors included) goes to go-sdk
//	decode     request: params into go-sdk's request types, from the slices
//	dispatch   the registry's receiving middleware as Registry.Server
//	           installed it (taskMiddleware, then dispatcher.middleware),
//	           called as functions: the same call path as through go-sdk
//	encode     reply: one JSON-RPC response, as go-sdk writes it (an SSE
//	           event, or application/json with the status SEP-2575 gives
//	           an error); progress notifications stream before it
//
// Only a server built by Registry.Server is served this way (newModern):
// its tool surface is the registry's. A server of the user's that a
// registry is mounted on (Mount) is served wholly by go-sdk, its own
// tools and middleware included. On a server built by Registry.Server,
// receiving middleware and tools added to it directly do not see the
// requests this path answers (tools/call of a tool the registry does not
// hold goes to go-sdk); middleware of the registry (Use) runs on every path.

// modern answers the 2026-07-28 requests of one server's registry.
type modern struct {
	reg   *Registry
	d     *dispatcher
	chain mcp.MethodHandler // the registry's middleware, past which nothing is reached
}

// newModern returns the path for srv, or nil when srv was not built by
// Registry.Server (reg is the registry serving it, or nil).
func newModern(srv *mcp.Server, reg *Registry) *modern {
	if reg == nil {
		return nil
	}
	d := reg.dispatcherOf(srv)
	if d == nil {
		return nil
	}
	m := &modern{reg: reg, d: d}
	m.chain = reg.taskMiddleware(d.middleware(m.server))
	return m
}

// server is what go-sdk's server answers past the registry's middleware,
// for the methods this path serves: for tools/list, its own tools, of
// which a server built by Registry.Server has none but those it holds for
// the registry (which the registry lists itself).
func (m *modern) server(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
	if method != "tools/list" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: method + " reached no handler"}
	}
	res := sdkpatch.CompleteToolsList()
	if m.d.cacheable != nil {
		m.d.cacheable(ctx, req, &res.Cacheable)
	}
	if res.CacheScope == "" {
		res.CacheScope = "public" // as go-sdk normalizes it
	}
	return res, nil
}

// serve answers r when it is a request this path owns, and reports whether
// it did; when not, go-sdk serves it.
func (m *modern) serve(w http.ResponseWriter, r *http.Request, b *wire.Body) bool {
	msg, req, id, ok := m.accept(r, b)
	if !ok {
		return false
	}
	ctx := r.Context()
	out := &sseWriter{w: w}
	if call, ok := req.(*mcp.CallToolRequest); ok {
		ctx = peerctx.With(ctx, &streamPeer{req: call, out: out})
	}
	res, err := m.chain(ctx, msg.Method, req)
	out.reply(id, res, err, m.d.impl)
	return true
}

// accept returns the request r carries when this path answers it: its
// message, the go-sdk request its params decode to, and its id.
func (m *modern) accept(r *http.Request, b *wire.Body) (*wire.Message, mcp.Request, jsonrpc.ID, bool) {
	msg, ok := m.owns(r, b)
	if !ok {
		return nil, nil, jsonrpc.ID{}, false
	}
	extra := &mcp.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context()), Header: r.Header}
	req, ok := m.request(msg, extra)
	if !ok {
		return nil, nil, jsonrpc.ID{}, false
	}
	id, ok := messageID(msg.ID)
	return msg, req, id, ok
}

// owns returns the one message of b when this path answers it exactly as
// go-sdk's stateless handler would: a call of a method it serves, on the
// 2026-07-28 wire, whose headers agree with its body and whose _meta
// carries what go-sdk requires. Everything else, and every request go-sdk
// would refuse, is go-sdk's to answer.
func (m *modern) owns(r *http.Request, b *wire.Body) (*wire.Message, bool) {
	if b.Batch || len(b.Messages) != 1 || b.Cost.MaxDepth > sdkMaxDepth {
		return nil, false
	}
	msg := &b.Messages[0]
	if msg.Response || len(msg.ID) == 0 || string(msg.ID) == "null" {
		return nil, false
	}
	switch msg.Method {
	case "tools/call", "tools/list", methodTasksGet, methodTasksUpdate, methodTasksCancel:
	default:
		return nil, false
	}
	hd := r.Header
	if hd.Get("Mcp-Session-Id") != "" || len(hd.Values("Last-Event-ID")) > 0 || hd.Get("Mcp-Method") != msg.Method {
		return nil, false
	}
	if ct, _, err := mime.ParseMediaType(hd.Get("Content-Type")); err != nil || ct != "application/json" {
		return nil, false
	}
	if !acceptsBoth(hd.Values("Accept")) {
		return nil, false
	}
	version := hd.Get("Mcp-Protocol-Version")
	if version < modernVersion || !slices.Contains(m.d.versions, version) {
		return nil, false
	}
	if !jsonStringIs(msg.MetaValue(mcp.MetaKeyProtocolVersion), version) {
		return nil, false
	}
	var caps *struct { // as go-sdk decodes them
		mcp.ClientCapabilities
		Roots *mcp.RootCapabilities `json:"roots,omitempty"`
	}
	if json.Unmarshal(msg.MetaValue(mcp.MetaKeyClientCapabilities), &caps) != nil || caps == nil {
		return nil, false
	}
	if raw := msg.MetaValue(mcp.MetaKeyClientInfo); raw != nil {
		var info *mcp.Implementation
		if json.Unmarshal(raw, &info) != nil {
			return nil, false
		}
	}
	if msg.MetaValue(mcp.MetaKeyLogLevel) != nil {
		return nil, false // log notifications: go-sdk's session sends them
	}
	return msg, true
}

// jsonStringIs reports whether raw is the JSON string s.
func jsonStringIs(raw json.RawMessage, s string) bool {
	if len(raw) == len(s)+2 && raw[0] == '"' && string(raw[1:len(raw)-1]) == s {
		return true // no escapes: the common case, without decoding
	}
	var v string
	return json.Unmarshal(raw, &v) == nil && v == s
}

// sdkMaxDepth is the nesting go-sdk v1.8.0 refuses a body beyond, as
// malformed (its internal/json's defaultMaxDepth).
const sdkMaxDepth = 1000

// acceptsBoth reports whether an Accept header takes both JSON and SSE, as
// go-sdk's handler requires.
func acceptsBoth(values []string) bool {
	jsonOK, streamOK := false, false
	for _, value := range values {
		for _, raw := range strings.Split(value, ",") {
			base, _, _ := strings.Cut(strings.TrimSpace(raw), ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK && streamOK
}

// request decodes msg's params into the go-sdk request its method takes,
// each member from its slice of the body. ok is false when a member does not decode (go-sdk answers that),
// or a tools/call names a tool the registry does not serve here.
func (m *modern) request(msg *wire.Message, extra *mcp.RequestExtra) (mcp.Request, bool) {
	var meta mcp.Meta
	for _, p := range msg.Params {
		if p.Key == "_meta" && json.Unmarshal(p.Value, &meta) != nil {
			return nil, false
		}
	}
	switch msg.Method {
	case "tools/call":
		p := &mcp.CallToolParamsRaw{Meta: meta}
		for _, mb := range msg.Params {
			var err error
			switch mb.Key {
			case "name":
				err = json.Unmarshal(mb.Value, &p.Name)
			case "arguments":
				p.Arguments = mb.Value
			case "inputResponses":
				err = json.Unmarshal(mb.Value, &p.InputResponses)
			case "requestState":
				err = json.Unmarshal(mb.Value, &p.RequestState)
			}
			if err != nil {
				return nil, false
			}
		}
		t, ok := m.reg.lookup(p.Name)
		if !ok || mirrorsHeaders(t) || extra.Header.Get("Mcp-Name") != p.Name {
			return nil, false // go-sdk's: its tools, its Mcp-Name and Mcp-Param checks
		}
		return &mcp.CallToolRequest{Params: p, Extra: extra}, true
	case "tools/list":
		p := &mcp.ListToolsParams{Meta: meta}
		if raw := msg.Param("cursor"); raw != nil && json.Unmarshal(raw, &p.Cursor) != nil {
			return nil, false
		}
		if raw := msg.Param("query"); raw != nil { // SEP-1821, as liftQuery lifts it for go-sdk
			var q string
			if json.Unmarshal(raw, &q) != nil {
				return nil, false
			}
			if p.Meta == nil {
				p.Meta = mcp.Meta{}
			}
			p.Meta[queryMetaKey] = q
		}
		return &mcp.ListToolsRequest{Params: p, Extra: extra}, true
	}
	p := &taskParams{}
	p.Meta = meta
	for _, mb := range msg.Params {
		var err error
		switch mb.Key {
		case "taskId":
			err = json.Unmarshal(mb.Value, &p.TaskID)
		case "inputResponses":
			err = json.Unmarshal(mb.Value, &p.InputResponses)
		case "cursor":
			err = json.Unmarshal(mb.Value, &p.Cursor)
		}
		if err != nil {
			return nil, false
		}
	}
	return &mcp.ServerRequest[*taskParams]{Params: p, Extra: extra}, true
}

// messageID is the request's id as go-sdk decodes it.
func messageID(raw json.RawMessage) (jsonrpc.ID, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(v)
	return id, err == nil && id.IsValid()
}

// sseWriter writes one request's answer as go-sdk's stateless handler
// does: notifications and the response as SSE events, or an error whose
// code SEP-2575 maps to a status as a plain JSON body with that status.
// Nothing is written once the response is (a task's work outlives it).
type sseWriter struct {
	mu      sync.Mutex
	w       http.ResponseWriter
	started bool
	done    bool
}

// The headers of go-sdk's event streams, shared by every response (net/http
// only reads them).
var (
	noCache     = []string{"no-cache, no-transform"}
	eventStream = []string{"text/event-stream"}
	keepAlive   = []string{"keep-alive"}
)

func (s *sseWriter) headers() {
	if s.started {
		return
	}
	s.started = true
	h := s.w.Header()
	h["Cache-Control"], h["Content-Type"], h["Connection"] = noCache, eventStream, keepAlive
}

// event writes one SSE message event.
func (s *sseWriter) event(data []byte) error {
	var b bytes.Buffer
	b.Grow(len("event: message\ndata: \n\n") + len(data))
	b.WriteString("event: message\ndata: ")
	b.Write(data)
	b.WriteString("\n\n")
	_, err := s.w.Write(b.Bytes())
	_ = http.NewResponseController(s.w).Flush()
	return err
}

// notify writes a notification on the stream, unless it was answered.
func (s *sseWriter) notify(method string, params any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return errors.New("the request was answered")
	}
	raw, err := marshalWire(params)
	if err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(&jsonrpc.Request{Method: method, Params: raw})
	if err != nil {
		return err
	}
	s.headers()
	return s.event(data)
}

// reply writes the response to id: res, or err. A result gets the server's
// identity in its _meta, as go-sdk gives every result on this wire.
func (s *sseWriter) reply(id jsonrpc.ID, res mcp.Result, err error, impl *mcp.Implementation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	var data []byte
	if err == nil {
		if impl != nil {
			meta := res.GetMeta()
			if meta == nil {
				meta = map[string]any{}
			}
			if _, ok := meta[mcp.MetaKeyServerInfo]; !ok {
				meta[mcp.MetaKeyServerInfo] = impl
				res.SetMeta(meta)
			}
		}
		if data, err = resultMessage(id, res); err != nil {
			err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "cannot encode the result"}
		}
	}
	if err != nil {
		var eerr error
		if data, eerr = jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: err}); eerr != nil {
			http.Error(s.w, "cannot encode the response", http.StatusInternalServerError)
			return
		}
	}
	s.headers()
	if code := errorStatus(err); code != 0 {
		s.w.Header().Set("Content-Type", "application/json")
		s.w.WriteHeader(code)
		_, _ = s.w.Write(data)
		return
	}
	_ = s.event(data)
}

// resultMessage encodes the response to id carrying res, as
// jsonrpc.EncodeMessage would, encoding res once.
func resultMessage(id jsonrpc.ID, res mcp.Result) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(id.Raw()); err != nil {
		return nil, err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	b.WriteString(`,"result":`)
	if err := enc.Encode(res); err != nil {
		return nil, err
	}
	b.Truncate(b.Len() - 1)
	b.WriteByte('}')
	return b.Bytes(), nil
}

// errorStatus is the HTTP status SEP-2575 gives a JSON-RPC error on the
// 2026-07-28 wire, 0 for an error that travels as any response.
func errorStatus(err error) int {
	var je *jsonrpc.Error
	if err == nil || !errors.As(err, &je) {
		return 0
	}
	switch je.Code {
	case jsonrpc.CodeMethodNotFound:
		return http.StatusNotFound
	case jsonrpc.CodeInvalidParams, mcp.CodeUnsupportedProtocolVersion, mcp.CodeMissingRequiredClientCapabilities:
		return http.StatusBadRequest
	}
	return 0
}

// marshalWire encodes v as go-sdk puts values on the wire: without HTML
// escaping.
func marshalWire(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// streamPeer is the client end of a tools/call on this path: progress
// notifications go out on the request's stream before its response;
// input is asked with input-required results (the call path does that for
// every 2026-07-28 request), never with requests of the server's own.
type streamPeer struct {
	req *mcp.CallToolRequest
	out *sseWriter
}

func (p *streamPeer) SessionID() string { return "" }

func (p *streamPeer) ProgressToken() any { return p.req.Params.GetProgressToken() }

func (p *streamPeer) NotifyProgress(_ context.Context, token any, progress, total float64, message string) error {
	return p.out.notify("notifications/progress", &mcp.ProgressNotificationParams{
		ProgressToken: token, Progress: progress, Total: total, Message: message,
	})
}

func (p *streamPeer) LogHandler(context.Context, string) slog.Handler { return nil }

func (p *streamPeer) Ask(context.Context, mcp.InputRequest) (mcp.InputResponse, error) {
	return nil, ErrInputUnsupported
}
