package peerctx

import (
	"net/http"
	"slices"
)

// credentialHeaders are the request headers that carry the client's
// credentials: the server checks them, tools never see them.
var credentialHeaders = []string{"Authorization", "Cookie", "Proxy-Authorization"}

// VisibleHeader is the header of a request as tools, middleware and
// adapters may see it: h without the headers that carry the client's
// credentials (any case). A tool learns who calls it from the verified
// principal (mcptool.Caller), never from the credential, which the MCP
// authorization specification forbids passing through. h itself is
// returned when it carries none of them; otherwise a copy, so that the
// transport's own view of the request is left as it was.
func VisibleHeader(h http.Header) http.Header {
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
