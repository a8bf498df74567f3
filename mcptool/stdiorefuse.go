package mcptool

import (
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

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
