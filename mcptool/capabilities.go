package mcptool

import (
	"maps"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// withExtension is a copy of c that also declares the extension name with
// its settings; c and its Extensions map are left as they are.
func withExtension(c *mcp.ServerCapabilities, name string, settings map[string]any) *mcp.ServerCapabilities {
	cp := *c
	cp.Extensions = maps.Clone(c.Extensions)
	if cp.Extensions == nil {
		cp.Extensions = map[string]any{}
	}
	cp.AddExtension(name, settings)
	return &cp
}

// capabilityDeclarer is a request whose client's capabilities are known:
// from its _meta on a 2026-07-28 request, else from its session's
// initialize.
type capabilityDeclarer interface {
	ClientCapabilities() *mcp.ClientCapabilities
}

// clientDeclares reports whether req's client declares the extension name.
func clientDeclares(req capabilityDeclarer, name string) bool {
	caps := req.ClientCapabilities()
	if caps == nil {
		return false
	}
	_, ok := caps.Extensions[name]
	return ok
}
