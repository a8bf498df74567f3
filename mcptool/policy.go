package mcptool

import (
	"time"

	"github.com/mcpgen/mcpgen/annotations"
)

// Timeout bounds each call of the tool: its context is cancelled at the
// deadline, and the caller gets an isError result then, even if the tool
// ignores its context. On a registry it is the default for every tool (a
// tool's tag or option wins). Tag form: `mcp:"timeout=5s"`. Default: none.
func Timeout(d time.Duration) SharedOption {
	return policyOption(func(p *annotations.Policy) { p.Timeout = d })
}

// RateLimit limits calls of the tool to r per second with bursts of burst,
// across all clients. Over the limit the call gets an isError result saying
// when to retry. Tag form: `mcp:"rate=10/s,burst=5"`. Default: none; burst
// 0 means max(1, r).
func RateLimit(r float64, burst int) Option {
	return policyOption(func(p *annotations.Policy) { p.Rate = annotations.Rate{PerSecond: r, Burst: burst} })
}

// SessionRateLimit limits calls of the tool to r per second with bursts of
// burst for each client session, or for each principal when calls carry a
// verified token ([HTTPOptions.TokenVerifier]), across its sessions (without either,
// as on anonymous stateless HTTP, only [RateLimit] applies). Tag form:
// `mcp:"sessionRate=2/s,sessionBurst=2"`. Default: none.
func SessionRateLimit(r float64, burst int) Option {
	return policyOption(func(p *annotations.Policy) { p.SessionRate = annotations.Rate{PerSecond: r, Burst: burst} })
}

// MaxConcurrency caps the calls of the tool running at once; a call over the
// cap gets an isError result asking to retry. Tag form: `mcp:"concurrency=4"`.
// Default: no cap.
func MaxConcurrency(n int) Option {
	return policyOption(func(p *annotations.Policy) { p.Concurrency = n })
}

// CallerConcurrency caps the calls of the tool running at once for each
// caller: each principal with a verified token ([HTTPOptions.TokenVerifier],
// [Authenticated]), else each session; a call over the cap gets an isError
// result asking to retry. Calls with neither are held only by
// [MaxConcurrency]. Through adapters/redis the cap holds across replicas.
// Tag form: `mcp:"callerConcurrency=2"`. Default: no cap.
func CallerConcurrency(n int) Option {
	return policyOption(func(p *annotations.Policy) { p.CallerConcurrency = n })
}

// Confirm makes the tool ask the user before it runs: through elicitation on
// 2025-era sessions, through an input-required result on 2026-07-28
// requests. When the client can do neither, or the user does not confirm,
// the call gets an isError result and the tool does not run. For tools that
// are not read-only. Tag form: `mcp:"confirm"`.
func Confirm() Option {
	return policyOption(func(p *annotations.Policy) { p.Confirm = true })
}

// MaxArgBytes bounds the size of a call's JSON arguments. Default 1 MiB.
// Tag form: `mcp:"maxArgBytes=4096"`.
func MaxArgBytes(n int) SharedOption {
	return policyOption(func(p *annotations.Policy) { p.MaxArgBytes = n })
}

// MaxDepth bounds the nesting depth of a call's JSON arguments. Default 64.
// Tag form: `mcp:"maxDepth=8"`.
func MaxDepth(n int) SharedOption {
	return policyOption(func(p *annotations.Policy) { p.MaxDepth = n })
}

// ExposeErrors sends the text of every error a tool returns to the model.
// By default only errors made with [UserError] or [Errorf] are shown; others
// become "internal error (ref ...)", with the error logged.
func ExposeErrors() RegistryOption {
	return registryOption(func(c *registryConfig) { c.exposeErrors = true })
}

// ListAllTools lists every tool in tools/list, also those the caller's
// token lacks the scopes of (calling them still fails, and their view
// pages stay hidden). By default a caller with a verified token sees only
// the tools it may call.
func ListAllTools() RegistryOption {
	return registryOption(func(c *registryConfig) { c.listAll = true })
}
