//lint:file-ignore SA1019 roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol: this path decodes the client's capabilities and log level as go-sdk does.

package mcptool

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/peerctx"
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
//	read       bodyGate.read (httpbody.go): the body, once
//	scan       wire.Scan, in bodyGate.read: one pass; the envelope, params and _meta
//	           as raw sub-slices of the body
//	authorize  authHTTP.permit (authhttp.go), for every tools/call (ServeHTTP),
//	           before anything decodes the arguments
//	wire       statelessWire (ServeHTTP): the 2026-07-28 wire, not a session
//	check      owns: the request is one this path answers exactly as go-sdk
//	           would; anything else (errors included) goes to go-sdk
//	decode     request (request.go): params into go-sdk's request types, from
//	           the slices, then the id and _meta in one pass (idAndMeta,
//	           jsonrpc.go); a call's tool, found once (toolcall.go)
//	dispatch   dispatcher.serve: the user's middleware, then the
//	           registry's (a call: toolCall with that tool), called as
//	           functions: the same call path as through go-sdk
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
	reg *Registry
	d   *dispatcher

	// serverInfo is the _meta member go-sdk gives every result on this
	// wire, `"_meta":{"io.modelcontextprotocol/serverInfo":…}`, encoded
	// once; nil without an identity or when it does not encode.
	serverInfo []byte

	encoders sync.Pool // of *encoder, reused by its responses
}

// newModern returns the path of the server whose dispatcher is d, or nil
// (d nil) when it was not built by Registry.Server.
func newModern(d *dispatcher) *modern {
	if d == nil {
		return nil
	}
	m := &modern{reg: d.reg, d: d}
	m.encoders.New = func() any { return newEncoder() }
	if d.impl != nil {
		if info, err := marshalWire(map[string]any{mcp.MetaKeyServerInfo: d.impl}); err == nil {
			m.serverInfo = append([]byte(`"_meta":`), info...)
		}
	}
	return m
}

// serve answers r when it is a request this path owns, and reports whether
// it did; when not, go-sdk serves it.
func (m *modern) serve(w http.ResponseWriter, r *http.Request, b *wire.Body) bool {
	msg, ok := m.owns(r, b)
	if !ok {
		return false
	}
	f := &frame{out: sseWriter{w: w, encoders: &m.encoders}}
	f.extra = mcp.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context()), Header: r.Header}
	req, id, ok := m.request(msg, f) // request.go
	if !ok {
		return false
	}
	ctx := r.Context()
	if call, ok := req.(*mcp.CallToolRequest); ok {
		f.peer = streamPeer{req: call, out: &f.out}
		ctx = peerctx.With(ctx, &f.peer)
	}
	res, err := m.d.serve(ctx, msg.Method, req, f.tool)
	f.out.reply(id, res, err, m.d.impl, m.serverInfo)
	return true
}

// frame holds what one request on this path allocates, in one allocation:
// the go-sdk request of a tools/call, its params and extra, the stream its
// answer is written on and the peer its tool sees. Nothing reuses it: a
// task's work may hold the request past the response.
type frame struct {
	extra  mcp.RequestExtra
	call   mcp.CallToolRequest
	params mcp.CallToolParamsRaw
	tool   *tool // the tool the call names, found once (toolcall.go)
	out    sseWriter
	peer   streamPeer
}

// owns returns the one message of b when this path answers it exactly as
// go-sdk's stateless handler would: a JSON-RPC 2.0 call of a method it
// serves, on the 2026-07-28 wire, whose headers agree with its body and
// whose _meta carries what go-sdk requires. Everything else, and every
// request go-sdk would refuse (a message of another JSON-RPC version
// among them), is go-sdk's to answer.
func (m *modern) owns(r *http.Request, b *wire.Body) (*wire.Message, bool) {
	if b.Batch || len(b.Messages) != 1 || b.Cost.MaxDepth > sdkMaxDepth {
		return nil, false
	}
	msg := &b.Messages[0]
	if !msg.Version2() || msg.Response || len(msg.ID) == 0 || string(msg.ID) == "null" {
		return nil, false
	}
	switch msg.Method {
	case "tools/call", "tools/list", methodTasksGet, methodTasksUpdate, methodTasksCancel:
	default:
		return nil, false
	}
	hd := r.Header
	// Header keys in canonical form: any other is canonicalized, into a
	// new string, on every request.
	if hd.Get("Mcp-Session-Id") != "" || len(hd.Values("Last-Event-Id")) > 0 || hd.Get("Mcp-Method") != msg.Method {
		return nil, false
	}
	if !jsonContent(hd) {
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
	if !capsDecode(msg.MetaValue(mcp.MetaKeyClientCapabilities)) {
		return nil, false
	}
	if msg.MetaValue(mcp.MetaKeyLogLevel) != nil {
		return nil, false // log notifications: go-sdk's session sends them
	}
	return msg, true
}

// sseWriter writes one request's answer as go-sdk's stateless handler
// does: notifications and the response as SSE events, or an error whose
// code SEP-2575 maps to a status as a plain JSON body with that status.
// Nothing is written once the response is (a task's work outlives it).
type sseWriter struct {
	mu       sync.Mutex
	w        http.ResponseWriter
	encoders *sync.Pool // of *encoder
	started  bool
	done     bool
}

func (s *sseWriter) headers() {
	if s.started {
		return
	}
	s.started = true
	h := s.w.Header()
	h["Cache-Control"], h["Content-Type"], h["Connection"] = noCache, eventStream, keepAlive
}

// The framing of an SSE message event.
var (
	eventStart = []byte("event: message\ndata: ")
	eventEnd   = []byte("\n\n")
)

// event writes one SSE message event, in one Write, and flushes it when
// flush.
func (s *sseWriter) event(data []byte, flush bool) error {
	e := s.encoders.Get().(*encoder)
	defer e.put(s.encoders)
	e.buf.Grow(len(eventStart) + len(data) + len(eventEnd))
	e.buf.Write(eventStart)
	e.buf.Write(data)
	e.buf.Write(eventEnd)
	_, err := s.w.Write(e.buf.Bytes())
	if flush {
		flushStream(s.w)
	}
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
	return s.event(data, true)
}

// reply writes the response to id: res, or err. A result gets the server's
// identity in its _meta, as go-sdk gives every result on this wire (info,
// that member encoded, when impl is the server's).
func (s *sseWriter) reply(id jsonrpc.ID, res mcp.Result, err error, impl *mcp.Implementation, info []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	e := s.encoders.Get().(*encoder)
	defer e.put(s.encoders)
	if err == nil {
		if err = e.response(id, res, impl, info); err != nil {
			err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "cannot encode the result"}
		}
	}
	data := e.buf.Bytes()
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
	// The response ends the stream: net/http sends it with whatever is
	// still buffered when the handler returns, in one write (with a
	// Content-Length when it is small), not a flush and then the closing
	// chunk, as the session wire does (sessionStream.send).
	_ = s.event(data, false)
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
