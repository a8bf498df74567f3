package mcptool

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The chain every call runs through: Call, Handler and Middleware.

// Call is one call of a tool, as the handler chain sees it.
type Call struct {
	// Name is the tool's name.
	Name string
	// Arguments are the raw JSON arguments (nil when none were sent).
	Arguments json.RawMessage
	// Request is the MCP request, when the call came through an MCP server
	// (nil for direct calls of [Registry.Call]).
	Request *mcp.CallToolRequest

	cs *callState // the call's state, where the path records its outcome
}

// Outcome says how the call ended, for a [Middleware] once next has
// returned: "ok", "tool_error", "invalid_arguments", "input_required",
// "internal_error", "protocol_error", or, when a policy refused the call,
// the refusal: "rate_limited", "busy" (the concurrency cap), "declined"
// (not confirmed), "timeout", "cancelled" or "forbidden" (the token lacks
// the tool's scopes: a protocol error). The audit log uses the same
// words. It is "" before next returns.
func (c *Call) Outcome() string {
	if c.cs == nil {
		return ""
	}
	o, ok := c.cs.pathOutcome()
	if !ok {
		return ""
	}
	return o.word()
}

// Handler handles one call of one tool. The error is a protocol error; what
// the model should read is a result with IsError set.
type Handler func(ctx context.Context, call *Call) (*mcp.CallToolResult, error)

// Middleware wraps a Handler: for policies of your own (authorization from
// the request's token info, tracing, ...). See [Use].
type Middleware func(next Handler) Handler
