package mcptool

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// StdioTransport is an [mcp.Transport] for serving over stdin and stdout
// (or any reader and writer) with newline-delimited JSON-RPC, built to
// survive its peer:
//
//   - A line that is not a JSON-RPC message is answered with a JSON-RPC
//     error, and the next line is served: -32700 (parse error, id null) for
//     invalid JSON, JSON nested deeper than 1000 levels, or a line longer
//     than [mcp.DefaultMaxLineLength] bytes; -32600 (invalid request, with
//     the line's id when it has a usable one) for valid JSON that is not a
//     JSON-RPC 2.0 message.
//   - A batch (a JSON array of messages) is served as go-sdk's own stdio
//     transport serves it while the session's protocol revision is older
//     than 2025-06-18: each member as a line would be, and the responses
//     to its calls together as one array. From 2025-06-18 on (and for
//     requests with per-request protocol metadata) a batch gets -32600,
//     and so does a batch of more than 16 messages.
//   - A call whose id is already in flight (read, not yet answered) gets
//     -32600 naming the id, and is logged to Logger; go-sdk would drop it
//     unanswered. A request before initialize gets -32600 too (go-sdk
//     sends its error with code 0, which is no JSON-RPC code).
//   - When the input ends (the client closed stdin), every request already
//     read is still answered: the connection ends only once the last
//     response is written. Requests the server sent the client and that are
//     still unanswered (sampling, elicitation, roots) fail with
//     [mcp.ErrConnectionClosed], since no answer can arrive.
//
// A connection is one session, and its [mcp.Connection.SessionID] is
// "stdio-" and a random token, which per-session policies (rate limits,
// audit) and go-sdk's logs see.
//
// go-sdk's [mcp.StdioTransport] instead ends the session at the first bad
// line, and at end of input cancels the requests in flight and drops their
// responses.
//
// Serve with [mcp.Server.Run], which returns once the input has ended and
// every response is written:
//
//	err := srv.Run(ctx, &mcptool.StdioTransport{})
type StdioTransport struct {
	// Reader is the input; nil means os.Stdin. If it is an io.Closer, it is
	// closed with the connection.
	Reader io.Reader
	// Writer is the output; nil means os.Stdout. It is never closed.
	Writer io.Writer
	// Logger gets the requests the transport refuses (a call whose id is
	// already in flight); nil means slog.Default(), which writes to
	// stderr.
	Logger *slog.Logger
}

// Connect implements [mcp.Transport]. Call it once. ([Server.Run] and
// [Server.Connect] call it for you.)
func (t *StdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	return t.connect(ctx, nil), nil
}

// connect makes the connection; with d, it answers what d owns (own).
func (t *StdioTransport) connect(ctx context.Context, d *dispatcher) *stdioConn {
	r, w := t.Reader, t.Writer
	if r == nil {
		r = os.Stdin
	}
	if w == nil {
		w = os.Stdout
	}
	c := &stdioConn{
		id:        stdioSessionPrefix + rand.Text(),
		log:       t.Logger,
		in:        r,
		out:       w,
		incoming:  make(chan jsonrpc.Message),
		changed:   make(chan struct{}),
		closed:    make(chan struct{}),
		pending:   map[jsonrpc.ID]int{},
		answering: map[jsonrpc.ID]int{},
		calls:     map[jsonrpc.ID]struct{}{},
		d:         d,
	}
	if d != nil {
		c.base, c.stop = context.WithCancel(ctx)
		c.encoders.New = func() any { return newEncoder() }
	}
	go c.readLoop()
	return c
}

// errPeerClosed answers the server's own requests still waiting for the
// client when its input ends. Its code is go-sdk's "client is closing",
// which go-sdk reports to the caller as [mcp.ErrConnectionClosed].
var errPeerClosed = &jsonrpc.Error{Code: -32003, Message: "the client closed its input"}

// stdioConn is the [mcp.Connection] of a [StdioTransport].
//
// A goroutine reads lines, answers the malformed ones itself, and hands the
// messages to Read. Read keeps track of the calls it returned (pending)
// until Write sends their responses, and of the calls Write sent (calls)
// until Read returns their responses; at end of input it answers the calls
// itself and reports io.EOF only once nothing is pending, because go-sdk
// cancels the requests in flight and writes no more responses once Read
// fails.
type stdioConn struct {
	id  string // the session's ID: stdioSessionPrefix and a random token
	log *slog.Logger
	in  io.Reader
	wmu sync.Mutex // serializes writes to out, one line each
	out io.Writer

	incoming chan jsonrpc.Message // from readLoop to Read

	mu        sync.Mutex
	pending   map[jsonrpc.ID]int      // calls read, not yet answered, by id
	answering map[jsonrpc.ID]int      // of those, the ones whose response is being written
	calls     map[jsonrpc.ID]struct{} // calls written, not yet answered
	eof       bool                    // readLoop is done
	readErr   error                   // why, if not end of input
	changed   chan struct{}           // closed and replaced on each change of the above

	closeOnce sync.Once
	closed    chan struct{}

	// mcpgen's own dispatcher (serveOwn, below), when the connection was made
	// by Server.Connect: the session go-sdk runs on it (once Connect has
	// returned), the context of the calls it answers (cancelled at Close),
	// and those calls, by id (owncalls.go).
	d        *dispatcher
	session  atomic.Pointer[mcp.ServerSession]
	base     context.Context
	stop     context.CancelFunc
	own      ownCalls
	encoders sync.Pool // of *encoder

	// The subscriptions/listen naming taskIds being served, by the token
	// attachListen gave each (guarded by mu): their notifications come
	// wrapped (sdkpatch.Notify), and at end of input each is cancelled.
	listens map[string]jsonrpc.ID

	// Batches (protocol revisions before 2025-06-18), guarded by mu: the
	// negotiated version, read from the answer to initialize, and the
	// batch each call of a batch belongs to until it is answered.
	version string
	initID  jsonrpc.ID
	batches map[jsonrpc.ID]*stdioBatch
}

// stdioBatch collects the responses to one batch, written as one array once
// its last call is answered.
type stdioBatch struct {
	out     []json.RawMessage
	waiting int
}

// signal wakes a Read waiting for a change of state; c.mu is held.
func (c *stdioConn) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *stdioConn) readLoop() {
	br := bufio.NewReader(c.in) // readLine joins a longer line from chunks
	for {
		line, tooLong, err := readLine(br, mcp.DefaultMaxLineLength)
		switch {
		case tooLong:
			c.writeError(nil, jsonrpc.CodeParseError, fmt.Sprintf("parse error: line longer than %d bytes", mcp.DefaultMaxLineLength))
		case c.d != nil && c.serveOwn(line):
			// answered by mcpgen's dispatcher (serveOwn, below)
		case len(bytes.TrimSpace(line)) > 0:
			var msgs []jsonrpc.Message
			if trimmed := bytes.TrimSpace(line); trimmed[0] == '[' {
				msgs = c.readBatch(trimmed)
			} else if msg, id, code, reason := parseLine(line); msg == nil {
				c.writeError(id, code, reason)
			} else if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && c.inFlight(req.ID, req.Method) {
				// answered: its id is in use
			} else {
				if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "initialize" && req.IsCall() {
					c.mu.Lock()
					c.initID = req.ID // its answer names the protocol version
					c.mu.Unlock()
				}
				msgs = []jsonrpc.Message{msg}
			}
			for _, msg := range msgs {
				if req, ok := msg.(*jsonrpc.Request); ok && req.Method == methodSubscriptionsListen && req.IsCall() {
					c.attachListen(req)
				}
				select {
				case c.incoming <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			c.endListens()
			c.mu.Lock()
			c.eof = true
			if !errors.Is(err, io.EOF) {
				c.readErr = err
			}
			c.signal()
			c.mu.Unlock()
			return
		}
	}
}

// writeError answers a line that is no message. A failed write is left to
// the next Write to find.
func (c *stdioConn) writeError(id json.RawMessage, code int64, message string) {
	_ = c.writeLine(errorMessage(id, code, message))
}

// Read implements [mcp.Connection].
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		if c.eof {
			for id := range c.calls {
				delete(c.calls, id)
				c.mu.Unlock()
				return &jsonrpc.Response{ID: id, Error: errPeerClosed}, nil
			}
			if len(c.pending) == 0 {
				err := c.readErr
				c.mu.Unlock()
				if err != nil {
					return nil, err
				}
				return nil, io.EOF
			}
		}
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case <-changed:
		case msg := <-c.incoming:
			c.mu.Lock()
			switch m := msg.(type) {
			case *jsonrpc.Response:
				delete(c.calls, m.ID)
			}
			c.mu.Unlock()
			return msg, nil
		}
	}
}

// Write implements [mcp.Connection].
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		msg = sdkpatch.ResponseCode(resp) // go-sdk sends code 0 for some
	}
	if inner, ok := sdkpatch.Unwrap(msg, c.listening); ok {
		return c.writeLine(inner)
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("mcptool: encoding a message: %w", err)
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		c.calls[req.ID] = struct{}{}
		c.signal()
		c.mu.Unlock()
	}
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp {
		c.mu.Lock()
		c.answering[resp.ID]++ // its id may be used again from now on
		c.mu.Unlock()
		if done, held := c.batchResponse(resp, data); held {
			if data = done; data == nil {
				c.answered(resp.ID)
				return nil // the batch waits for more answers
			}
		}
	}
	err = c.writeLine(data)
	if isResp {
		c.answered(resp.ID)
	}
	return err
}

// answered forgets a call read from the client once its response is out.
func (c *stdioConn) answered(id jsonrpc.ID) {
	c.mu.Lock()
	if c.pending[id]--; c.pending[id] <= 0 {
		delete(c.pending, id)
	}
	if c.answering[id]--; c.answering[id] <= 0 {
		delete(c.answering, id)
	}
	for token, lid := range c.listens {
		if lid == id {
			delete(c.listens, token)
		}
	}
	c.signal()
	c.mu.Unlock()
}

// batchResponse files resp (encoded as data) with its batch, if it belongs
// to one: held is true, and done is the whole batch's response once resp
// was its last call's. It also learns the negotiated protocol version from
// the answer to initialize.
func (c *stdioConn) batchResponse(resp *jsonrpc.Response, data []byte) (done []byte, held bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.initID.IsValid() && resp.ID == c.initID {
		var res struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if resp.Error == nil && json.Unmarshal(resp.Result, &res) == nil {
			c.version = res.ProtocolVersion
		}
		c.initID = jsonrpc.ID{}
	}
	b, ok := c.batches[resp.ID]
	if !ok {
		return nil, false
	}
	delete(c.batches, resp.ID)
	b.out = append(b.out, data)
	if b.waiting--; b.waiting > 0 {
		return nil, true
	}
	all, _ := json.Marshal(b.out)
	return all, true
}

// readBatch reads a JSON-RPC batch: allowed before 2025-06-18 (as go-sdk's
// own stdio transport allows it), refused with -32600 from then on, and
// beyond maxBatch messages (httpbatch.go). Each
// member is a message as a line would be, answered alone when it is not
// one; the calls' responses go out together, as one array.
func (c *stdioConn) readBatch(line []byte) []jsonrpc.Message {
	var le *wire.LimitError
	if _, err := wire.Scan(line, wire.Limits{MaxBatch: maxBatch}); errors.As(err, &le) {
		// Before decoding it: each call's answer is held until the last.
		c.writeError(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: a batch holds at most %d messages", maxBatch))
		return nil
	}
	var members []json.RawMessage
	if json.Unmarshal(line, &members) != nil {
		// Invalid JSON, or nested past encoding/json: as for a line.
		c.writeError(nil, jsonrpc.CodeParseError, "parse error: invalid JSON")
		return nil
	}
	c.mu.Lock()
	version := c.version
	c.mu.Unlock()
	switch {
	case version >= "2025-06-18" || bytes.Contains(line, []byte(mcp.MetaKeyProtocolVersion)):
		c.writeError(nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported in 2025-06-18 and later")
		return nil
	case len(members) == 0:
		c.writeError(nil, jsonrpc.CodeInvalidRequest, "invalid request: empty batch")
		return nil
	}
	b := &stdioBatch{}
	var msgs []jsonrpc.Message
	c.mu.Lock()
	for _, raw := range members {
		msg, id, code, reason := parseLine(raw)
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			_, inBatch := c.batches[req.ID]
			inFlight := c.pending[req.ID] > 0
			if inBatch || inFlight || req.Method == "initialize" {
				idJSON, _ := json.Marshal(req.ID.Raw())
				msg, id, code, reason = nil, idJSON, jsonrpc.CodeInvalidRequest, "invalid request: an id already in use, or initialize, in a batch"
			} else {
				if c.batches == nil {
					c.batches = map[jsonrpc.ID]*stdioBatch{}
				}
				c.batches[req.ID] = b
				c.pending[req.ID]++
				b.waiting++
			}
		}
		if msg == nil {
			b.out = append(b.out, errorMessage(id, code, reason))
			continue
		}
		msgs = append(msgs, msg)
	}
	c.mu.Unlock()
	if b.waiting == 0 && len(b.out) > 0 {
		all, _ := json.Marshal(b.out)
		_ = c.writeLine(all)
	}
	return msgs
}

// Close implements [mcp.Connection]: a blocked Read returns, and the reader
// is closed if it can be.
func (c *stdioConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		if c.stop != nil {
			c.stop()
		}
		close(c.closed)
		if rc, ok := c.in.(io.Closer); ok {
			err = rc.Close()
		}
	})
	return err
}

// SessionID implements [mcp.Connection]: a connection is one session, named
// by a random token.
func (c *stdioConn) SessionID() string { return c.id }

// attachListen hands a subscriptions/listen naming taskIds to the task
// middleware: go-sdk would drop the taskIds, so they go into the request's
// _meta (listenMetaKey) with the request's id and a fresh token, under
// which the middleware's notifications come back to Write wrapped
// (sdkpatch.Notify). A listenMetaKey the client sent itself is dropped.
func (c *stdioConn) attachListen(req *jsonrpc.Request) {
	var params map[string]json.RawMessage
	if json.Unmarshal(req.Params, &params) != nil {
		return
	}
	sdkpatch.DropMeta(params, listenMetaKey)
	var n struct {
		TaskIDs json.RawMessage `json:"taskIds"`
	}
	if json.Unmarshal(params["notifications"], &n) == nil && len(n.TaskIDs) > 0 {
		id, err := json.Marshal(req.ID.Raw())
		if err != nil {
			return
		}
		token := rand.Text()
		h, err := json.Marshal(stdioListen{Token: token, ID: id, TaskIDs: n.TaskIDs})
		if err != nil || !sdkpatch.SetMeta(params, listenMetaKey, h) {
			return
		}
		c.mu.Lock()
		if c.listens == nil {
			c.listens = map[string]jsonrpc.ID{}
		}
		c.listens[token] = req.ID
		c.mu.Unlock()
	}
	if raw, err := json.Marshal(params); err == nil {
		req.Params = raw
	}
}

// listening reports whether token names one of the connection's listens.
func (c *stdioConn) listening(token string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.listens[token]
	return ok
}

// endListens cancels the connection's listens at end of input, as their
// client would: each then answers at once, instead of keeping the process
// until its tasks end.
func (c *stdioConn) endListens() {
	c.mu.Lock()
	ids := slices.Collect(maps.Values(c.listens))
	c.mu.Unlock()
	for _, id := range ids {
		params, err := json.Marshal(map[string]any{"requestId": id.Raw(), "reason": "the client closed its input"})
		if err != nil {
			continue
		}
		select {
		case c.incoming <- &jsonrpc.Request{Method: "notifications/cancelled", Params: params}:
		case <-c.closed:
			return
		}
	}
}

// writeLine writes one message the server did not get from go-sdk.
func (c *stdioConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// The stdio wire's own path: a line the connection of [Server.Connect]
// reads is scanned once; a call the dispatcher owns on the session
// (sessionRequest: tools/call of a registry tool, tools/list) is answered
// from that scan, through the same middleware go-sdk would run, on a
// goroutine of its own, and its response written as go-sdk's session would
// write it. Everything else goes to go-sdk's session as before (stdio.go).
// The session itself stays go-sdk's: initialize, the client's
// capabilities and log level, and every request the server sends the
// client (elicitation, sampling, roots, progress and log notifications go
// through the session, whose writes reach this connection).
//
// One line, in the order the code runs it:
//
//	scan       wire.Scan: one pass, the envelope, params and _meta as raw
//	           sub-slices of the line
//	cancel     notifications/cancelled naming a call of this path cancels
//	           it (and goes on to go-sdk, which knows no such call)
//	decode     sessionRequest (request.go): the go-sdk request of the call,
//	           and the tool it names, found once (toolcall.go)
//	in flight  inFlight (below): a duplicate id is refused
//	dispatch   dispatcher.serve: the user's middleware, the registry's
//	encode     encodeResponse: the JSON-RPC response, one line

// serveOwn answers line when the dispatcher owns it and reports whether
// it did; a line it does not answer goes to go-sdk.
func (c *stdioConn) serveOwn(line []byte) bool {
	ss := c.session.Load()
	if ss == nil {
		return false // Connect has not returned: go-sdk's, in order
	}
	b, err := wire.Scan(line, wire.Limits{})
	if err != nil || b.Batch || len(b.Messages) != 1 || b.Cost.MaxDepth > maxStdioDepth {
		return false
	}
	msg := &b.Messages[0]
	if msg.Method == "notifications/cancelled" && len(msg.ID) == 0 {
		c.own.cancel(msg.Param("requestId"))
		return false
	}
	req, t, id, ok := c.d.sessionRequest(msg, ss, nil)
	if !ok {
		return false
	}
	if c.inFlight(id, msg.Method) {
		return true // answered: its id is in use
	}
	ctx, cancel := context.WithCancel(c.base)
	c.own.start(id, cancel) // inFlight refused a second call of id
	go func() {
		defer cancel()
		res, err := c.d.serve(ctx, msg.Method, req, t)
		e := c.encoders.Get().(*encoder)
		defer e.put(&c.encoders)
		if eerr := encodeResponse(e, id, res, err, true); eerr != nil {
			e.buf.Reset()
			_ = encodeResponse(e, id, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "cannot encode the response"}, true)
		}
		c.own.done(id)
		c.mu.Lock()
		c.answering[id]++ // its id may be used again from now on
		c.mu.Unlock()
		_ = c.writeLine(e.buf.Bytes())
		c.answered(id)
	}()
	return true
}

// inFlight marks req, a call read from the client, as in flight until its
// response is written; its id is free again as soon as the response is
// being written, since the client may reuse it once it has read it. A call whose id is already in flight is answered
// here with -32600 naming the id, logged, and not passed on: go-sdk would
// drop it without an answer (pinned by sdkpatch's
// TestGoSDKDropsDuplicateCallID). It reports whether req was refused.
func (c *stdioConn) inFlight(rid jsonrpc.ID, method string) (refused bool) {
	c.mu.Lock()
	dup := c.pending[rid] > c.answering[rid]
	if !dup {
		c.pending[rid]++
	}
	c.mu.Unlock()
	if !dup {
		return false
	}
	id, _ := json.Marshal(rid.Raw())
	c.logger().Warn("mcptool: stdio request refused: its id is already in flight", "session", c.id, "id", string(id), "method", method)
	c.writeError(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: id %s is already in use by a request in flight", id))
	return true
}

func (c *stdioConn) logger() *slog.Logger {
	if c.log != nil {
		return c.log
	}
	return slog.Default()
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
