package mcptool

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

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
//	in flight  inFlight (stdiorefuse.go): a duplicate id is refused
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
