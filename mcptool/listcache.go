package mcptool

import (
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ListTTL sets the ttlMs of the registry's tools/list answers: how long a
// client may keep the list before asking again. The list changes only when
// a tool is added or removed ([Registry.Add], [Registry.Remove]), and then
// the server sends notifications/tools/list_changed to every client it
// can reach (sessions, stdio, 2026-07-28 listeners), so a client that hears them
// may keep it longer. A list that depends on the caller's token is
// marked cacheScope "private" whatever the TTL (docs/auth.md). Default 0:
// stale at once, asked again each time. Negative is 0.
func ListTTL(d time.Duration) RegistryOption {
	return registryOption(func(c *registryConfig) { c.listTTL = max(d, 0) })
}

// toolListCache is the cache hint of a tools/list answer for a caller with
// the verified token ti (nil: none), in every era and on every serving
// path: ttlMs is the registry's [ListTTL]; cacheScope is "private" when
// the list may differ from one caller to another — any verified token,
// since tools/list shows each caller only the tools its scopes allow
// (and a token's principal is the caller's alone) — so that no
// intermediary hands one user's list to another, else "public".
func (r *Registry) toolListCache(ti *auth.TokenInfo) mcp.Cacheable {
	c := mcp.Cacheable{TTLMs: int(r.cfg.listTTL.Milliseconds()), CacheScope: "public"}
	if ti != nil {
		c.CacheScope = "private"
	}
	return c
}
