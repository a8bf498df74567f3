package mcptool

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/peerctx"
)

// toolVisibleRequest is req as the call path hands it to tools, middleware
// and adapters (Request, Call.Request): its Extra.Header without the
// client's credentials (peerctx.VisibleHeader, the one function that
// decides which headers tools may see; adapter.VisibleHeader for other
// libraries' requests). req is not changed; nil stays nil.
func toolVisibleRequest(req *mcp.CallToolRequest) *mcp.CallToolRequest {
	if req == nil || req.Extra == nil {
		return req
	}
	h := peerctx.VisibleHeader(req.Extra.Header)
	if len(h) == len(req.Extra.Header) {
		return req
	}
	extra := *req.Extra
	extra.Header = h
	r := *req
	r.Extra = &extra
	return &r
}
