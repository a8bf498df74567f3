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
