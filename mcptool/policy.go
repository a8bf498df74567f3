package mcptool

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool/cluster"
)

// Handler handles one call of one tool. The error is a protocol error; what
// the model should read is a result with IsError set.
type Handler func(ctx context.Context, call *Call) (*mcp.CallToolResult, error)

// Middleware wraps a Handler: for policies of your own (authorization from
// the request's token info, tracing, ...). See [Use].
type Middleware func(next Handler) Handler

// policy is a tool's resolved runtime policy.
type policy struct {
	timeout      time.Duration
	rate         rate.Limit // 0: none
	burst        int
	sessionRate  rate.Limit
	sessionBurst int
	concurrency  int
	callerConc   int // calls at once per caller (principal, else session)
	confirm      bool
	maxArgBytes  int
	maxDepth     int
	scopes       []string // OAuth scopes a caller's token must all carry (auth.go)
	middleware   []Middleware
}

// policyOption sets a policy field: on a tool it overrides the tag, on a
// registry it is the default its tools' tags and options override.
type policyOption func(*annotations.Policy)

func (o policyOption) applyTool(c *toolConfig)         { o(&c.ann.Policy) }
func (o policyOption) applyRegistry(c *registryConfig) { o(&c.defaults) }

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

type useOption []Middleware

func (o useOption) applyTool(c *toolConfig) { c.middleware = append(c.middleware, o...) }
func (o useOption) applyRegistry(c *registryConfig) {
	c.middleware = append(c.middleware, o...)
}

// Use adds middleware: on a registry it wraps every tool (outermost, in
// order), on a tool just that tool (inside the registry's).
func Use(mw ...Middleware) SharedOption { return useOption(mw) }

// ExposeErrors sends the text of every error a tool returns to the model.
// By default only errors made with [UserError] or [Errorf] are shown; others
// become "internal error (ref ...)", with the error logged.
func ExposeErrors() RegistryOption {
	return registryOption(func(c *registryConfig) { c.exposeErrors = true })
}

// resolvePolicy turns a tool's merged `mcp` tag and options into its
// runtime policy.
func resolvePolicy(p annotations.Policy, middleware []Middleware) policy {
	p = p.Resolved()
	return policy{
		timeout:      p.Timeout,
		rate:         rate.Limit(p.Rate.PerSecond),
		burst:        p.Rate.Burst,
		sessionRate:  rate.Limit(p.SessionRate.PerSecond),
		sessionBurst: p.SessionRate.Burst,
		concurrency:  p.Concurrency,
		callerConc:   p.CallerConcurrency,
		confirm:      p.Confirm,
		maxArgBytes:  p.MaxArgBytes,
		maxDepth:     p.MaxDepth,
		scopes:       p.Scopes,
		middleware:   middleware,
	}
}

// chain composes the tool's middleware: the registry's outermost, in
// order, then the tool's, around the call path. It is nil when there is no
// middleware: the path runs directly.
func (r *Registry) chain(t *tool) Handler {
	mw := slices.Concat(r.cfg.middleware, t.pol.middleware)
	if len(mw) == 0 {
		return nil
	}
	h := t.inner
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// Limits sets where the registry keeps its tools' rate limits and
// concurrency caps (the keys it uses: see [cluster.Limiter]). The default
// (and Limits(nil)) keeps them in this process; adapters/redis has one that
// holds across replicas.
func Limits(l cluster.Limiter) RegistryOption {
	return registryOption(func(c *registryConfig) { c.limiter = l })
}

// localLimiter is the in-process [cluster.Limiter].
type localLimiter struct {
	buckets sync.Map // key → *rate.Limiter
	slots   sync.Map // key → *semaphore
	ops     atomic.Uint32
}

func (l *localLimiter) Allow(_ context.Context, key string, perSecond float64, burst int) (bool, time.Duration, error) {
	v, ok := l.buckets.Load(key)
	if !ok {
		v, _ = l.buckets.LoadOrStore(key, rate.NewLimiter(rate.Limit(perSecond), burst))
	}
	b := v.(*rate.Limiter)
	if b.Limit() != rate.Limit(perSecond) || b.Burst() != burst { // the tool was registered again
		b.SetLimit(rate.Limit(perSecond))
		b.SetBurst(burst)
	}
	// Now and then drop buckets that are full again: their sessions are
	// idle or gone, and a fresh bucket behaves the same.
	if l.ops.Add(1)%1024 == 0 {
		l.buckets.Range(func(k, v any) bool {
			if bl := v.(*rate.Limiter); k != key && bl.Tokens() >= float64(bl.Burst()) {
				l.buckets.CompareAndDelete(k, v)
			}
			return true
		})
	}
	if b.Allow() {
		return true, 0, nil
	}
	r := b.Reserve()
	d := r.Delay()
	r.Cancel()
	return false, d, nil
}

func (l *localLimiter) Acquire(_ context.Context, key string, n int) (func(), bool, error) {
	v, ok := l.slots.Load(key)
	if !ok || cap(v.(*semaphore).ch) != n {
		s := &semaphore{ch: make(chan struct{}, n)}
		s.release = func() { <-s.ch }
		if ok {
			l.slots.CompareAndSwap(key, v, s) // the tool was registered again
		} else {
			l.slots.LoadOrStore(key, s)
		}
		v, _ = l.slots.Load(key)
	}
	s := v.(*semaphore)
	select {
	case s.ch <- struct{}{}:
		return s.release, true, nil
	default:
		return nil, false, nil
	}
}

// semaphore is n slots; release gives one back.
type semaphore struct {
	ch      chan struct{}
	release func()
}
