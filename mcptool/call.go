package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/mcpgen/mcpgen/mcptool/internal/peerctx"
	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The call path. Every tools/call runs the same functions, in this order:
//
//	entry    Registry.Call (direct, and adapters through adapter.Invoke),
//	         Registry.serveCall (go-sdk): newCallState, the call's explicit state
//	run      middleware ([Use]) around the path, panic recovery, audit
//	path     bound.call: size → decode (defaults, validate) → authorize
//	         (scopes) → confirm → limits (rate, session rate, concurrency) →
//	         invoke (timeout) → marshal (finish classifies the tool's error)
//	encode   the one outcome on the wire of the request's era: encode2025 or
//	         encodeModern, chosen once per request
//
// Tasks (task.go) are a layer over it: they run newCallState → run detached
// with a peer of their own, and map the same outcome to the task.

// toolHandler serves a registry tool on go-sdk's low-level handler, for a
// server that holds the tool (Mount).
func (r *Registry) toolHandler(t *tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return r.serveCall(ctx, t, req)
	}
}

// serveCall answers a go-sdk tools/call of t: through toolHandler, or from
// the middleware of a server built by Registry.Server (dispatch.go). It
// never returns (nil, nil), and it never lets a panic reach go-sdk.
func (r *Registry) serveCall(ctx context.Context, t *tool, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	cs, err := r.newCallState(ctx, t, req)
	if err != nil {
		return nil, err
	}
	return r.encode(cs, r.run(ctx, cs, req.Params.Arguments))
}

// run calls a tool through its middleware and writes the audit record. It
// turns panics and internal errors into isError results that carry only a
// reference ID (the details go to the registry's logger).
func (r *Registry) run(ctx context.Context, cs *callState, args json.RawMessage) (o outcome) {
	t := cs.tool
	ctx = withCallState(ctx, cs) // for the helpers tool code calls
	var start time.Time
	if r.cfg.audit != nil {
		start = time.Now()
	}
	defer func() {
		if p := recover(); p != nil {
			o = outcome{kind: outInternal, err: fmt.Errorf("panic: %v", p), stack: stack()}
		}
		o = r.settle(ctx, cs, o)
		if r.cfg.audit != nil {
			r.auditCall(ctx, cs, args, start, o)
		}
	}()
	if t.handler == nil {
		return t.call(ctx, cs, args)
	}
	res, err := t.handler(ctx, &Call{Name: t.name, Arguments: args, Request: cs.req, cs: cs})
	return cs.fromHandler(res, err)
}

// settle completes an outcome: an input-required one carries what the
// call asked for (or is an internal error when it asked for nothing), and
// an internal error not yet shown to middleware gets its reference and is
// logged, once.
func (r *Registry) settle(ctx context.Context, cs *callState, o outcome) outcome {
	if o.kind == outInputRequired {
		if o.pending = cs.pendingRequests(); o.pending == nil {
			o = outcome{kind: outInternal, err: fmt.Errorf("%w, but the tool asked for nothing", ErrInputRequired)}
		}
	}
	if o.kind == outInternal && o.res == nil {
		o.res = r.internal(ctx, cs.tool.name, o.err, o.stack)
	}
	return o
}

// bound is a tool's function bound to its argument type: the only part of
// the path that differs between [Registry.Add] (In is a reflect.Value made
// from the plan) and [Add] (In is the argument type itself).
type bound[In any] struct {
	decode func(args []byte) (In, error)
	fn     func(ctx context.Context, in In) (any, error)
}

// call runs one call of t, in the order below; the first step that ends the
// call says how.
func (b bound[In]) call(ctx context.Context, cs *callState, args json.RawMessage) outcome {
	t := cs.tool
	p := &t.pol
	// 1. Size: before anything reads the arguments.
	if len(args) > p.maxArgBytes {
		return outcome{kind: outInvalidArguments, res: ErrorResult(fmt.Sprintf("invalid arguments: they are %d bytes, more than the %d allowed", len(args), p.maxArgBytes))}
	}
	// 2. Decode: JSON to In, defaults filled in, every constraint checked.
	in, err := b.decode(args)
	if err != nil {
		return argumentsOutcome(t.name, err)
	}
	// 3. Authorize: a verified token carries the tool's scopes (auth.go).
	if o, ok := authorize(cs); !ok {
		return o
	}
	// 4. Confirm: only a valid call by an authorized caller is put to the user.
	if p.confirm {
		if o, ok := confirmCall(ctx, t, args); !ok {
			return o
		}
	}
	// 5. Limits: rate, per-session rate, concurrency.
	release, o, ok := t.admit(ctx, cs)
	if !ok {
		return o
	}
	if release != nil {
		defer release()
	}
	// 6. Invoke, within the timeout; 7. marshal.
	if p.timeout <= 0 {
		v, err := b.fn(ctx, in)
		return t.finish(ctx, cs, v, err)
	}
	tctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	ch := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- outcome{kind: outInternal, err: fmt.Errorf("panic: %v", p), stack: stack()}
			}
		}()
		v, err := b.fn(tctx, in)
		ch <- t.finish(tctx, cs, v, err)
	}()
	select {
	case o := <-ch:
		return o
	case <-tctx.Done():
		if ctx.Err() != nil {
			return refused("cancelled", "the call was cancelled")
		}
		return refused("timeout", fmt.Sprintf("tool %s timed out after %s", t.name, p.timeout))
	}
}

// confirmCall asks the user whether the call may run; ok is true when they said
// yes. Otherwise o says why not.
func confirmCall(ctx context.Context, t *tool, args json.RawMessage) (o outcome, ok bool) {
	label := t.def.Title
	if label == "" {
		label = t.name
	}
	shown := string(args)
	if shown == "" {
		shown = "{}"
	}
	if len(shown) > 500 {
		shown = shown[:500] + "…"
	}
	res, err := Elicit(ctx, confirmKey, &mcp.ElicitParams{
		Message: fmt.Sprintf("Allow %q to run? It may change or delete data. Arguments: %s", label, shown),
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
		return outcome{kind: outInputRequired}, false
	case errors.Is(err, ErrInputUnsupported):
		return refused("declined", fmt.Sprintf("tool %s needs the user's confirmation before it runs, and this client cannot ask the user (no elicitation support); nothing was done", t.name)), false
	case err != nil:
		return outcome{kind: outInternal, err: err}, false
	case res.Action != "accept" || res.Content["confirm"] != true:
		return refused("declined", fmt.Sprintf("the user did not confirm (%s); %s was not run", res.Action, t.name)), false
	}
	return outcome{}, true
}

// admit checks the tool's limits. When the call may run, release (nil when
// the tool has no concurrency cap) gives its slots back; when not, o says
// why.
func (t *tool) admit(ctx context.Context, cs *callState) (release func(), o outcome, ok bool) {
	p, lim := &t.pol, cs.reg.cfg.limiter
	if p.rate > 0 {
		ok, retry, err := lim.Allow(ctx, t.rateKey, float64(p.rate), p.burst)
		if err != nil {
			return nil, outcome{kind: outInternal, err: fmt.Errorf("rate limit: %w", err)}, false
		}
		if !ok {
			return nil, refused("rate_limited", fmt.Sprintf("rate limit exceeded for tool %s: retry in %s", t.name, retryIn(retry))), false
		}
	}
	if p.sessionRate > 0 {
		// Without a session or a principal (direct calls, anonymous
		// stateless HTTP) the per-tool limits alone apply.
		if key := sessionKey(t, cs); key != "" {
			ok, retry, err := lim.Allow(ctx, key, float64(p.sessionRate), p.sessionBurst)
			if err != nil {
				return nil, outcome{kind: outInternal, err: fmt.Errorf("session rate limit: %w", err)}, false
			}
			if !ok {
				return nil, refused("rate_limited", fmt.Sprintf("rate limit exceeded for tool %s in this session: retry in %s", t.name, retryIn(retry))), false
			}
		}
	}
	var mine func() // the caller's slot (auth.go)
	if p.callerConc > 0 {
		if key := sessionKey(t, cs); key != "" {
			release, ok, err := lim.Acquire(ctx, key+"/running", p.callerConc)
			if err != nil {
				return nil, outcome{kind: outInternal, err: fmt.Errorf("caller concurrency cap: %w", err)}, false
			}
			if !ok {
				return nil, refused("busy", fmt.Sprintf("you are already running %d calls of tool %s: retry when one has finished", p.callerConc, t.name)), false
			}
			mine = release
		}
	}
	if p.concurrency > 0 {
		release, ok, err := lim.Acquire(ctx, t.rateKey, p.concurrency)
		if err != nil || !ok {
			if mine != nil {
				mine()
			}
		}
		if err != nil {
			return nil, outcome{kind: outInternal, err: fmt.Errorf("concurrency cap: %w", err)}, false
		}
		if !ok {
			return nil, refused("busy", fmt.Sprintf("tool %s is already running %d calls: retry in a moment", t.name, p.concurrency)), false
		}
		if mine != nil {
			return func() { release(); mine() }, outcome{}, true
		}
		return release, outcome{}, true
	}
	return mine, outcome{}, true
}

// sessionKey is the key of the call's per-session rate limit: by the
// verified principal when there is one (who could otherwise open sessions
// to get more calls), else by its session.
func sessionKey(t *tool, cs *callState) string {
	if ti := cs.tokenInfo(); ti != nil && ti.UserID != "" {
		return t.rateKey + "/principal/" + ti.UserID
	}
	if cs.peer != nil {
		if id := cs.peer.SessionID(); id != "" {
			return t.rateKey + "/session/" + id
		}
	}
	return ""
}

// retryIn rounds a limiter's wait for the model to read.
func retryIn(d time.Duration) time.Duration {
	return max(d, time.Millisecond).Round(time.Millisecond)
}

// finish turns what the tool's function returned into the outcome: the
// one classifier of a tool's error. A call that asked for input the client
// has not given yet waits for it, whatever the tool made of the error; a
// *jsonrpc.Error stays a protocol error; an error meant for the model (see
// [UserError]), or one the type handler of the tool's argument shows
// (mcpreflect.ErrorTexter), is an isError result with its text; anything
// else is an internal error, masked unless the registry exposes errors.
func (t *tool) finish(ctx context.Context, cs *callState, v any, err error) outcome {
	if errors.Is(err, ErrInputRequired) || cs.pendingRequests() != nil {
		return outcome{kind: outInputRequired}
	}
	if err == nil {
		res, err := t.marshal(v)
		if err == nil {
			err = t.decorate(cs, v, res)
		}
		if err != nil {
			return outcome{kind: outInternal, err: err}
		}
		return outcome{kind: outOK, res: res}
	}
	if je, ok := protocolError(err); ok {
		return outcome{kind: outProtocol, err: je}
	}
	if IsUserError(err) {
		return outcome{kind: outToolError, res: ErrorResult(err.Error())}
	}
	// The type handler of the tool's argument may know the error's kind (a
	// gRPC status) and which of them the model reads.
	if text, ok := t.plan.ErrorText(err); ok && ctx.Err() == nil {
		return outcome{kind: outToolError, res: ErrorResult(text)}
	}
	if cs.reg.cfg.exposeErrors {
		return outcome{kind: outToolError, res: ErrorResult(err.Error())}
	}
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return refused("cancelled", "the call was cancelled before the tool finished")
	}
	return outcome{kind: outInternal, err: err}
}

// marshal turns the function's value into its result.
func (t *tool) marshal(v any) (*mcp.CallToolResult, error) { return t.out.Result(v) }

// encode maps the call's outcome to its wire, for the request's era,
// chosen here once: a direct call (or an adapter's 2025-era call) gets the
// outcome as Go values, a go-sdk request of a 2025-era session
// encode2025, a 2026-07-28 request encodeModern.
func (r *Registry) encode(cs *callState, o outcome) (*mcp.CallToolResult, error) {
	switch {
	case cs.req == nil:
		return o.result()
	case isModern(cs.req):
		return r.encodeModern(cs, o)
	}
	return encode2025(o)
}

// encodeModern is the outcome of a 2026-07-28 request: as encode2025, and
// a call still waiting for input answers with the input requests and the
// sealed requestState; the result says which of the two it is
// (resultType "complete" or "input_required").
func (r *Registry) encodeModern(cs *callState, o outcome) (*mcp.CallToolResult, error) {
	if o.kind != outInputRequired {
		res, err := encode2025(o)
		if err != nil {
			return nil, err
		}
		return sdkpatch.WithResultType(res, false), nil
	}
	res, err := r.inputRequired(cs, o.pending)
	if err != nil {
		return nil, err
	}
	return sdkpatch.WithResultType(res, true), nil
}

// handler is the innermost handler of a tool's middleware chain: the path,
// its outcome recorded in the call's state for run, and handed to the
// middleware as a result or an error.
func (b bound[In]) handler(ctx context.Context, call *Call) (*mcp.CallToolResult, error) {
	cs := call.cs
	if cs == nil { // a Call the middleware made itself: the same call
		cs = stateFrom(ctx)
	}
	o := b.call(ctx, cs, call.Arguments)
	if o.kind == outInternal { // the middleware sees what the model will
		o.res = cs.reg.internal(ctx, cs.tool.name, o.err, o.stack)
	}
	cs.setPathOutcome(o)
	if o.kind == outInputRequired {
		return nil, ErrInputRequired
	}
	return o.result()
}

// fromHandler reads the outcome of a call through middleware: the path's
// own when the middleware passed its result on; otherwise what the
// middleware returned.
func (cs *callState) fromHandler(res *mcp.CallToolResult, err error) outcome {
	inner, ran := cs.pathOutcome()
	switch {
	case errors.Is(err, ErrInputRequired):
		return outcome{kind: outInputRequired}
	case err != nil:
		return outcome{kind: outProtocol, err: err}
	case ran && res != nil && res == inner.res:
		return inner
	case res != nil && res.IsError:
		return outcome{kind: outToolError, res: res}
	}
	return outcome{kind: outOK, res: res}
}

// internal logs an internal error under a new reference and returns the
// result the model sees.
func (r *Registry) internal(ctx context.Context, name string, err error, stack []byte) *mcp.CallToolResult {
	ref := newRef()
	attrs := []any{"tool", name, "ref", ref, "err", err}
	if stack != nil {
		attrs = append(attrs, "stack", string(stack))
	}
	r.cfg.logger.ErrorContext(ctx, "mcptool: internal error", attrs...)
	return ErrorResult("internal error (ref " + ref + ")")
}

// bind sets the call path of t for its bound function.
func bind[In any](t *tool, b bound[In]) {
	t.call, t.inner = b.call, b.handler
}

// newCallState prepares the context of one call: on a retry after an
// input-required result, the answers sealed into its requestState and those
// the client sent now to the keys that state asked.
//
// An answer counts only together with the requestState the server issued
// for that very request (the tool, the arguments, the keys it asked), and
// only once: inputResponses without a requestState, to keys the state did
// not ask, or with a state already presented are dropped, and the tool asks
// again. A state that does not open (forged, altered, expired) or was issued
// for another call is a protocol error.
func (r *Registry) newCallState(ctx context.Context, t *tool, req *mcp.CallToolRequest) (*callState, error) {
	req = toolVisibleRequest(req) // tools see the principal, never the credential
	cs := &callState{reg: r, tool: t, req: req}
	if req == nil {
		cs.ti = tokenInfoOf(ctx, nil)
		return cs, nil
	}
	if t.hiddenFrom(req) {
		return nil, unknownTool(t.name)
	}
	cs.peer, cs.ti = sdkPeer{req}, tokenInfoOf(ctx, req.Extra)
	if p := peerctx.From(ctx); p != nil && req.Session == nil {
		cs.peer = p // the request's own stream (httpmodern.go)
	}
	if req.Params.RequestState == "" {
		if len(req.Params.InputResponses) > 0 {
			r.cfg.logger.InfoContext(ctx, "mcptool: inputResponses without requestState ignored: asking again", "tool", t.name)
		}
		return cs, nil
	}
	st, err := r.openState(req.Params.RequestState, t.name, req.Params.Arguments, subjectOf(cs.ti))
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid requestState: " + err.Error()}
	}
	if st.ID == "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid requestState: malformed"}
	}
	first, err := r.cfg.spent.Spend(ctx, st.ID, time.Unix(st.Expires+1, 0))
	if err != nil {
		ref := newRef()
		r.cfg.logger.ErrorContext(ctx, "mcptool: cannot record requestState as answered", "tool", t.name, "ref", ref, "err", err)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error (ref " + ref + ")"}
	}
	if !first {
		r.cfg.logger.WarnContext(ctx, "mcptool: requestState presented again: its answers ignored, asking again", "tool", t.name)
		return cs, nil
	}
	cs.answers = st.Answers
	if cs.answers == nil {
		cs.answers = map[string]json.RawMessage{}
	}
	for _, k := range st.Asked {
		v, ok := req.Params.InputResponses[k]
		if !ok || v == nil {
			continue
		}
		if raw, err := json.Marshal(v); err == nil {
			cs.answers[k] = raw
		}
	}
	return cs, nil
}

// inputRequired answers a call whose tool is waiting for input: pending, and
// a requestState that carries the answers so far and the keys now asked.
func (r *Registry) inputRequired(cs *callState, pending mcp.InputRequestMap) (*mcp.CallToolResult, error) {
	state, err := r.sealState(cs.tool.name, cs.req.Params.Arguments, subjectOf(cs.tokenInfo()), cs.answers, slices.Sorted(maps.Keys(pending)))
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "cannot seal requestState"}
	}
	return &mcp.CallToolResult{InputRequests: pending, RequestState: state}, nil
}
