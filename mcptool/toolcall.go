package mcptool

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tools/call of the registry, past the user's middleware, is answered by
// one function with the tool it names resolved once. A wire of mcpgen's
// own resolves it when it decodes the call (sessionRequest, modern.request:
// the tool decides whether the wire owns the call) and hands it to the
// dispatcher (dispatcher.serve), which, with no middleware of the user's,
// answers with that tool (toolCall): the tool found at decode is the one
// invoked and whose scopes are checked (authorize reads callState.tool).
// go-sdk's request types have no room for it, and no outcome travels
// through the context, so behind a user's middleware (which sees go-sdk's
// request, and may rename the call) the registry's middleware resolves it
// itself (lookup, then the discovery hook's target), once per middleware of
// the chain go-sdk runs.

// toolCall answers call, a tools/call of t (known: the registry has it),
// as the registry's middleware would: as a task (taskCall), or through the
// call path; a tool the registry does not have gets go-sdk's unknown tool.
// A call of a discovery proxy is first resolved to the tool it names (the
// discovery hook, discoveryHook).
func (d *dispatcher) toolCall(ctx context.Context, t *tool, known bool, call *mcp.CallToolRequest) (mcp.Result, error) {
	t, known = d.disc.target(t, known, call) // a proxy's call: the tool it names (discovery.go)
	if res, handled, err := d.tasks.taskCall(ctx, t, known, call); handled {
		return res, err
	}
	if !known {
		return d.fallback(ctx, "tools/call", call)
	}
	return d.reg.serveCall(ctx, t, call)
}
