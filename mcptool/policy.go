package mcptool

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"

	"github.com/mcpgen/mcpgen/annotations"
)

// Handler handles one call of one tool. The error is a protocol error; what
// the model should read is a result with IsError set.
type Handler func(ctx context.Context, call *Call) (*mcp.CallToolResult, error)

// Middleware wraps a Handler: for policies of your own (authorization from
// the request's token info, tracing, ...). See [Use].
type Middleware func(next Handler) Handler

// Defaults of the registry-wide limits.
const (
	DefaultMaxArgBytes = annotations.DefaultMaxArgBytes
	DefaultMaxDepth    = annotations.DefaultMaxDepth
)

// policy is a tool's resolved runtime policy.
type policy struct {
	timeout      time.Duration
	rate         rate.Limit // 0: none
	burst        int
	sessionRate  rate.Limit
	sessionBurst int
	concurrency  int
	confirm      bool
	maxArgBytes  int
	maxDepth     int
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
// burst for each client session (transports without sessions, such as
// stateless HTTP, are limited only by [RateLimit]). Tag form:
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
		confirm:      p.Confirm,
		maxArgBytes:  p.MaxArgBytes,
		maxDepth:     p.MaxDepth,
		middleware:   middleware,
	}
}

// chain composes the tool's handler: registry middleware, tool middleware,
// then the built-in policies around the tool itself.
func (r *Registry) chain(t *tool) Handler {
	h := t.invoke
	p := t.pol
	if p.timeout > 0 {
		h = timeoutStage(p.timeout, h)
	}
	if p.confirm {
		h = confirmStage(t, h)
	}
	if p.concurrency > 0 {
		h = concurrencyStage(p.concurrency, h)
	}
	if p.sessionRate > 0 {
		h = sessionRateStage(p.sessionRate, p.sessionBurst, h)
	}
	if p.rate > 0 {
		h = rateStage(rate.NewLimiter(p.rate, p.burst), h)
	}
	h = sizeStage(p.maxArgBytes, h)
	for i := len(p.middleware) - 1; i >= 0; i-- {
		h = p.middleware[i](h)
	}
	for i := len(r.cfg.middleware) - 1; i >= 0; i-- {
		h = r.cfg.middleware[i](h)
	}
	return h
}

// refuse reports a policy refusal: an isError result the model reads.
func refuse(ctx context.Context, outcome, msg string) (*mcp.CallToolResult, error) {
	if cs := stateFrom(ctx); cs != nil {
		cs.setOutcome(outcome)
	}
	return ErrorResult(msg), nil
}

func sizeStage(limit int, next Handler) Handler {
	return func(ctx context.Context, call *Call) (*mcp.CallToolResult, error) {
		if len(call.Arguments) > limit {
			return refuse(ctx, "invalid_arguments", fmt.Sprintf("invalid arguments: they are %d bytes, more than the %d allowed", len(call.Arguments), limit))
		}
		return next(ctx, call)
	}
}

func rateStage(l *rate.Limiter, next Handler) Handler {
	return func(ctx context.Context, call *Call) (*mcp.CallToolResult, error) {
		if !l.Allow() {
			return refuse(ctx, "rate_limited", fmt.Sprintf("rate limit exceeded for tool %s: retry in %s", call.Name, retryIn(l)))
		}
		return next(ctx, call)
	}
}

func retryIn(l *rate.Limiter) time.Duration {
	r := l.Reserve()
	d := r.Delay()
	r.Cancel()
	if d < time.Millisecond {
		d = time.Millisecond
	}
	return d.Round(time.Millisecond)
}

// sessionLimiters keeps one limiter per live session.
type sessionLimiters struct {
	mu  sync.Mutex
	m   map[string]*rate.Limiter
	r   rate.Limit
	b   int
	ops int
}

func sessionRateStage(r rate.Limit, burst int, next Handler) Handler {
	sl := &sessionLimiters{m: map[string]*rate.Limiter{}, r: r, b: burst}
	return func(ctx context.Context, call *Call) (*mcp.CallToolResult, error) {
		var id string
		if cs := stateFrom(ctx); cs != nil && cs.peer != nil {
			id = cs.peer.SessionID()
		}
		if id == "" {
			// No session (direct call, or stateless HTTP): per-tool limits only.
			return next(ctx, call)
		}
		if l := sl.get(id); !l.Allow() {
			return refuse(ctx, "rate_limited", fmt.Sprintf("rate limit exceeded for tool %s in this session: retry in %s", call.Name, retryIn(l)))
		}
		return next(ctx, call)
	}
}

func (sl *sessionLimiters) get(ss string) *rate.Limiter {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	l, ok := sl.m[ss]
	if !ok {
		l = rate.NewLimiter(sl.r, sl.b)
		sl.m[ss] = l
	}
	// Now and then drop limiters that are full again: their sessions are
	// idle or gone, and a fresh limiter behaves the same.
	if sl.ops++; sl.ops%1024 == 0 {
		for k, v := range sl.m {
			if v.Tokens() >= float64(sl.b) && k != ss {
				delete(sl.m, k)
			}
		}
	}
	return l
}

func concurrencyStage(n int, next Handler) Handler {
	sem := make(chan struct{}, n)
	return func(ctx context.Context, call *Call) (*mcp.CallToolResult, error) {
		select {
		case sem <- struct{}{}:
			defer func() { <-sem }()
			return next(ctx, call)
		default:
			return refuse(ctx, "busy", fmt.Sprintf("tool %s is already running %d calls: retry in a moment", call.Name, n))
		}
	}
}

// panicErr carries a panic out of a goroutine the timeout stage started.
type panicErr struct {
	v     any
	stack []byte
}

func (p panicErr) Error() string { return fmt.Sprintf("panic: %v", p.v) }

func timeoutStage(d time.Duration, next Handler) Handler {
	return func(ctx context.Context, call *Call) (*mcp.CallToolResult, error) {
		tctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		type out struct {
			res *mcp.CallToolResult
			err error
		}
		ch := make(chan out, 1)
		go func() {
			defer func() {
				if p := recover(); p != nil {
					ch <- out{nil, panicErr{p, debug.Stack()}}
				}
			}()
			res, err := next(tctx, call)
			ch <- out{res, err}
		}()
		select {
		case o := <-ch:
			return o.res, o.err
		case <-tctx.Done():
			if ctx.Err() != nil {
				return refuse(ctx, "cancelled", "the call was cancelled")
			}
			return refuse(ctx, "timeout", fmt.Sprintf("tool %s timed out after %s", call.Name, d))
		}
	}
}

// confirmKey is the input request key of the confirmation question.
const confirmKey = "mcpgen.confirm"

func confirmStage(t *tool, next Handler) Handler {
	label := t.def.Title
	if label == "" {
		label = t.name
	}
	return func(ctx context.Context, call *Call) (*mcp.CallToolResult, error) {
		args := string(call.Arguments)
		if args == "" {
			args = "{}"
		}
		if len(args) > 500 {
			args = args[:500] + "…"
		}
		res, err := Elicit(ctx, confirmKey, &mcp.ElicitParams{
			Message: fmt.Sprintf("Allow %q to run? It may change or delete data. Arguments: %s", label, args),
			RequestedSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"confirm": map[string]any{"type": "boolean", "title": "Run " + label, "description": "Check to let the tool run."},
				},
				"required": []string{"confirm"},
			},
		})
		switch {
		case errors.Is(err, ErrInputRequired):
			return nil, err
		case errors.Is(err, ErrInputUnsupported):
			return refuse(ctx, "declined", fmt.Sprintf("tool %s needs the user's confirmation before it runs, and this client cannot ask the user (no elicitation support); nothing was done", call.Name))
		case err != nil:
			return nil, internalErr{err}
		case res.Action != "accept" || res.Content["confirm"] != true:
			return refuse(ctx, "declined", fmt.Sprintf("the user did not confirm (%s); %s was not run", res.Action, call.Name))
		}
		return next(ctx, call)
	}
}
