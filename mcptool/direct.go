package mcptool

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/mcptool/internal/peerctx"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call of a tool without a transport: Registry.Call, which transport
// adapters and tests use.

// Call calls the named tool with raw JSON arguments (nil or empty means
// none). The error is non-nil only for protocol errors: an unknown tool
// ([CodeUnknownTool]) or arguments that are not JSON
// ([CodeMalformedArguments]). Invalid arguments, errors returned by the
// tool, and panics are results with IsError set.
//
// Called by a transport adapter through
// [github.com/mcpgen/mcpgen/mcptool/adapter.Invoke], the call has the
// adapter's client end: the context helpers reach the client, and on a
// 2026-07-28 request input is asked with input-required results.
func (r *Registry) Call(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	routed := false
	if t, inner, ok := r.route(name, args); ok { // a proxy's call becomes its tool's (discovery.go)
		name, args, routed = t.name, inner, true
	}
	t, ok := r.lookup(name)
	if !ok {
		return nil, &Error{Code: CodeUnknownTool, Tool: name, Err: fmt.Errorf("no such tool")}
	}
	peer := peerctx.From(ctx) // an adapter's (adapter.Invoke); nil for a direct call
	var req *mcp.CallToolRequest
	if rp, ok := peer.(interface{ CallRequest() *mcp.CallToolRequest }); ok {
		req = rp.CallRequest()
	}
	if routed && req != nil && req.Params != nil {
		cp, p := *req, *req.Params
		p.Name, p.Arguments = name, args
		cp.Params = &p
		req = &cp
	}
	cs, err := r.newCallState(ctx, t, req)
	if err != nil {
		return nil, err
	}
	if peer != nil {
		cs.peer = peer
	}
	return r.encode(cs, r.run(ctx, cs, args))
}
