package mcptool

import (
	"slices"

	"github.com/mcpgen/mcpgen/annotations"
)

// Scopes says which OAuth scopes a caller's token must all carry to call
// the tool, and to see it in tools/list. On a registry it is the default
// for every tool; a tool's tag (`mcp:"scopes=notes:read notes:write"`) or
// option replaces it, and Scopes() with none says the tool needs none. Each
// scope must be a scope-token of RFC 6749 §3.3 (printable ASCII without
// spaces, '"' or '\'). Scopes are checked only for calls that carry a
// verified token; see docs/auth.md. Default: none.
func Scopes(scopes ...string) SharedOption {
	s := append([]string{}, scopes...) // non-nil: Scopes() says none
	return policyOption(func(p *annotations.Policy) { p.Scopes = slices.Clone(s) })
}
