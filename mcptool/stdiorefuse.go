package mcptool

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// inFlight marks req, a call read from the client, as in flight until its
// response is written; its id is free again as soon as the response is
// being written, since the client may reuse it once it has read it. A call whose id is already in flight is answered
// here with -32600 naming the id, logged, and not passed on: go-sdk would
// drop it without an answer. It reports whether req was refused.
func (c *stdioConn) inFlight(req *jsonrpc.Request) (refused bool) {
	c.mu.Lock()
	dup := c.pending[req.ID] > c.answering[req.ID]
	if !dup {
		c.pending[req.ID]++
	}
	c.mu.Unlock()
	if !dup {
		return false
	}
	id, _ := json.Marshal(req.ID.Raw())
	c.logger().Warn("mcptool: stdio request refused: its id is already in flight", "session", c.id, "id", string(id), "method", req.Method)
	c.writeError(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: id %s is already in use by a request in flight", id))
	return true
}

func (c *stdioConn) logger() *slog.Logger {
	if c.log != nil {
		return c.log
	}
	return slog.Default()
}

// validCode gives a response error go-sdk made from a plain Go error (which
// it sends with code 0, not a JSON-RPC code) the code it should have: a
// request other than initialize before the session is initialized is an
// invalid request (-32600), as JSON-RPC defines it and MCP names no other
// code for it; anything else is an internal error (-32603).
func validCode(resp *jsonrpc.Response) *jsonrpc.Response {
	if resp.Error == nil {
		return resp
	}
	var we *jsonrpc.Error
	if errors.As(resp.Error, &we) && we.Code != 0 {
		return resp
	}
	msg := resp.Error.Error()
	code := int64(jsonrpc.CodeInternalError)
	if strings.Contains(msg, "invalid during session initialization") {
		code = jsonrpc.CodeInvalidRequest
		msg = "invalid request: " + msg + " (send initialize first)"
	}
	out := *resp
	out.Error = &jsonrpc.Error{Code: code, Message: msg}
	return &out
}
