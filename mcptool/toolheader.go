package mcptool

import (
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// credentialHeaders are the request headers that carry the client's
// credentials: the server checks them (auth.go), tools never see them.
var credentialHeaders = []string{"Authorization", "Cookie", "Proxy-Authorization"}

// toolVisibleHeader is the header of a request as tools and adapters may
// see it: h without the headers that carry the client's credentials. A tool
// learns who calls it from [Caller], the verified principal, never from the
// credential, which the MCP authorization specification forbids passing
// through. h itself is returned when it carries none of them; otherwise a
// copy, so the transport's own view of the request is left as it was.
func toolVisibleHeader(h http.Header) http.Header {
	var out http.Header
	for k := range h {
		if !slices.Contains(credentialHeaders, http.CanonicalHeaderKey(k)) {
			continue
		}
		if out == nil {
			out = h.Clone()
		}
		delete(out, k)
	}
	if out == nil {
		return h
	}
	return out
}

// toolVisibleRequest is req as the call path hands it to tools, middleware
// and adapters (Request, Call.Request): its Extra.Header filtered by
// toolVisibleHeader. req is not changed; nil stays nil.
func toolVisibleRequest(req *mcp.CallToolRequest) *mcp.CallToolRequest {
	if req == nil || req.Extra == nil {
		return req
	}
	h := toolVisibleHeader(req.Extra.Header)
	if len(h) == len(req.Extra.Header) {
		return req
	}
	extra := *req.Extra
	extra.Header = h
	r := *req
	r.Extra = &extra
	return &r
}
