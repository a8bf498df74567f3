package mcptool

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"

	"github.com/mcpgen/mcpgen/annotations"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// Handler handles one call of one tool. The error is a protocol error; what
// the model should read is a result with IsError set.
type Handler func(ctx context.Context, call *Call) (*mcp.CallToolResult, error)

// Middleware wraps a Handler: for policies of your own (authorization from
// the request's token info, tracing, ...). See [Use].
type Middleware func(next Handler) Handler

// Defaults of the registry-wide limits.
const (
	DefaultMaxArgBytes = 1 << 20
	DefaultMaxDepth    = mcpreflect.DefaultMaxDepth
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

func init() {
	mcpreflect.PolicyKeys = []string{"timeout", "rate", "burst", "sessionRate", "sessionBurst", "concurrency", "confirm", "maxArgBytes", "maxDepth"}
}

// Timeout bounds each call of the tool: its context is cancelled at the
// deadline, and the caller gets an isError result then, even if the tool
// ignores its context. On a registry it is the default for every tool (a
// tool's tag or option wins). Tag form: `mcp:"timeout=5s"`. Default: none.
func Timeout(d time.Duration) SharedOption {
	return sharedOption{
		tool: func(c *toolConfig) { c.pol.timeout = d; c.set["timeout"] = true },
		reg:  func(c *registryConfig) { c.timeout = d },
	}
}

// RateLimit limits calls of the tool to r per second with bursts of burst,
// across all clients. Over the limit the call gets an isError result saying
// when to retry. Tag form: `mcp:"rate=10/s,burst=5"`. Default: none.
func RateLimit(r float64, burst int) Option {
	return toolOption(func(c *toolConfig) {
		c.pol.rate, c.pol.burst = rate.Limit(r), burst
		c.set["rate"], c.set["burst"] = true, true
	})
}

// SessionRateLimit limits calls of the tool to r per second with bursts of
// burst for each client session (transports without sessions, such as
// stateless HTTP, are limited only by [RateLimit]). Tag form:
// `mcp:"sessionRate=2/s,sessionBurst=2"`. Default: none.
func SessionRateLimit(r float64, burst int) Option {
	return toolOption(func(c *toolConfig) {
		c.pol.sessionRate, c.pol.sessionBurst = rate.Limit(r), burst
		c.set["sessionRate"], c.set["sessionBurst"] = true, true
	})
}

// MaxConcurrency caps the calls of the tool running at once; a call over the
// cap gets an isError result asking to retry. Tag form: `mcp:"concurrency=4"`.
// Default: no cap.
func MaxConcurrency(n int) Option {
	return toolOption(func(c *toolConfig) { c.pol.concurrency = n; c.set["concurrency"] = true })
}

// Confirm makes the tool ask the user before it runs: through elicitation on
// 2025-era sessions, through an input-required result on 2026-07-28
// requests. When the client can do neither, or the user does not confirm,
// the call gets an isError result and the tool does not run. For tools that
// are not read-only. Tag form: `mcp:"confirm"`.
func Confirm() Option {
	return toolOption(func(c *toolConfig) { c.pol.confirm = true; c.set["confirm"] = true })
}

// maxArgBytes and maxDepth options work on a registry and on a tool.
type limitOption struct {
	key string
	n   int
}

func (o limitOption) applyTool(c *toolConfig) {
	c.set[o.key] = true
	if o.key == "maxArgBytes" {
		c.pol.maxArgBytes = o.n
	} else {
		c.pol.maxDepth = o.n
	}
}

func (o limitOption) applyRegistry(c *registryConfig) {
	if o.key == "maxArgBytes" {
		c.maxArgBytes = o.n
	} else {
		c.maxDepth = o.n
	}
}

// MaxArgBytes bounds the size of a call's JSON arguments. Default 1 MiB.
// Tag form: `mcp:"maxArgBytes=4096"`.
func MaxArgBytes(n int) SharedOption { return limitOption{"maxArgBytes", n} }

// MaxDepth bounds the nesting depth of a call's JSON arguments. Default 64.
// Tag form: `mcp:"maxDepth=8"`.
func MaxDepth(n int) SharedOption { return limitOption{"maxDepth", n} }

type useOption []Middleware

func (o useOption) applyTool(c *toolConfig) { c.pol.middleware = append(c.pol.middleware, o...) }
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

// resolvePolicy merges the `mcp` tag's policy items with the options (which
// win) and the registry's defaults.
func (r *Registry) resolvePolicy(typeName string, items []annotations.Item, cfg *toolConfig, hints annotations.Hints) (policy, error) {
	p := policy{maxArgBytes: r.cfg.maxArgBytes, maxDepth: r.cfg.maxDepth, timeout: r.cfg.timeout}
	for _, it := range items {
		fail := func(msg string) error {
			return &mcpreflect.DefinitionError{Type: typeName, Field: "_", Tag: "mcp:" + strconv.Quote(it.Key+"="+it.Value), Msg: msg}
		}
		needValue := it.Key != "confirm"
		if needValue && (!it.HasValue || it.Value == "") {
			return p, fail(it.Key + " needs a value")
		}
		switch it.Key {
		case "timeout":
			d, err := time.ParseDuration(it.Value)
			if err != nil || d <= 0 {
				return p, fail("timeout must be a positive duration such as 5s or 250ms")
			}
			p.timeout = d
		case "rate", "sessionRate":
			l, err := parseRate(it.Value)
			if err != nil {
				return p, fail(err.Error())
			}
			if it.Key == "rate" {
				p.rate = l
			} else {
				p.sessionRate = l
			}
		case "burst", "sessionBurst", "concurrency", "maxArgBytes", "maxDepth":
			n, err := strconv.Atoi(it.Value)
			if err != nil || n <= 0 {
				return p, fail(it.Key + " must be a positive integer")
			}
			switch it.Key {
			case "burst":
				p.burst = n
			case "sessionBurst":
				p.sessionBurst = n
			case "concurrency":
				p.concurrency = n
			case "maxArgBytes":
				p.maxArgBytes = n
			case "maxDepth":
				p.maxDepth = n
			}
		case "confirm":
			if it.HasValue {
				b, err := strconv.ParseBool(it.Value)
				if err != nil {
					return p, fail("confirm takes no value, or true/false")
				}
				p.confirm = b
			} else {
				p.confirm = true
			}
		}
	}
	o := cfg.pol
	if cfg.set["timeout"] {
		p.timeout = o.timeout
	}
	if cfg.set["rate"] {
		p.rate, p.burst = o.rate, o.burst
	}
	if cfg.set["sessionRate"] {
		p.sessionRate, p.sessionBurst = o.sessionRate, o.sessionBurst
	}
	if cfg.set["concurrency"] {
		p.concurrency = o.concurrency
	}
	if cfg.set["confirm"] {
		p.confirm = o.confirm
	}
	if cfg.set["maxArgBytes"] {
		p.maxArgBytes = o.maxArgBytes
	}
	if cfg.set["maxDepth"] {
		p.maxDepth = o.maxDepth
	}
	p.middleware = o.middleware
	fail := func(msg string) error {
		return &mcpreflect.DefinitionError{Type: typeName, Field: "_", Tag: "mcp", Msg: msg}
	}
	switch {
	case p.timeout < 0:
		return p, fail("timeout must not be negative")
	case p.rate < 0 || p.sessionRate < 0:
		return p, fail("rates must not be negative")
	case p.rate > 0 && p.burst <= 0:
		p.burst = max(1, int(p.rate))
	case p.confirm && hints.Effective().ReadOnly:
		return p, fail("confirm on a readOnly tool: confirmation is for tools that change things")
	case p.maxArgBytes <= 0 || p.maxDepth <= 0:
		return p, fail("maxArgBytes and maxDepth must be positive")
	}
	if p.sessionRate > 0 && p.sessionBurst <= 0 {
		p.sessionBurst = max(1, int(p.sessionRate))
	}
	return p, nil
}

// parseRate parses "10/s", "100/m", "5/h" or "0.5/s".
func parseRate(s string) (rate.Limit, error) {
	num, unit, ok := strings.Cut(s, "/")
	n, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || n <= 0 {
		return 0, fmt.Errorf("rate %q: want a positive number per s, m or h, such as 10/s", s)
	}
	switch unit {
	case "s":
		return rate.Limit(n), nil
	case "m":
		return rate.Limit(n / 60), nil
	case "h":
		return rate.Limit(n / 3600), nil
	}
	return 0, fmt.Errorf("rate %q: the unit must be s, m or h", s)
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
