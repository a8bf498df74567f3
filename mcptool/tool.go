package mcptool

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/annotations"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// Call is one call of a tool, as the handler chain sees it.
type Call struct {
	// Name is the tool's name.
	Name string
	// Arguments are the raw JSON arguments (nil when none were sent).
	Arguments json.RawMessage
	// Request is the MCP request, when the call came through an MCP server
	// (nil for direct calls of [Registry.Call]).
	Request *mcp.CallToolRequest
}

// tool is one registered tool.
type tool struct {
	name  string
	def   *mcp.Tool
	plan  *mcpreflect.Plan
	out   *mcpreflect.Output
	noOut bool
	pol   policy
	task  taskSpec
	// descSuffix is added to the description once it is known.
	descSuffix string
	// undescribedOK silences the warning about a tool without a description.
	undescribedOK bool
	invoke        Handler // decode, call, marshal
	handler       Handler // invoke inside the policies and middleware
}

// newTool resolves the options and schemas shared by both registration paths.
func (r *Registry) newTool(name string, in, out reflect.Type, opts []Option) (*tool, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	var cfg toolConfig
	for _, o := range opts {
		o.applyTool(&cfg)
	}
	ro := mcpreflect.Options{KeepDefs: r.cfg.keepDefs, DeclareDialect: r.cfg.dialect}
	if cfg.keepDefs != nil {
		ro.KeepDefs = *cfg.keepDefs
	}
	if cfg.dialect != nil {
		ro.DeclareDialect = *cfg.dialect
	}
	defErr := func(err error) error {
		return &Error{Code: CodeInvalidDefinition, Tool: name, Err: err}
	}
	plan, err := r.cfg.cache.Plan(in, ro)
	if err != nil {
		return nil, defErr(err)
	}
	output, err := r.cfg.cache.Output(out, ro)
	if err != nil {
		return nil, defErr(err)
	}
	// The registry's defaults, then the type's `mcp` tag, then the options.
	ann := annotations.Tool{Policy: r.cfg.defaults}.Merge(plan.Tool).Merge(cfg.ann)
	if err := ann.Check(); err != nil {
		return nil, defErr(fmt.Errorf("annotation options: %w", err))
	}
	def := &mcp.Tool{
		Name:        name,
		Title:       ann.Title,
		Description: cfg.description,
		InputSchema: plan.SchemaJSON,
		Annotations: toolAnnotations(ann.Hints),
	}
	pol := resolvePolicy(ann.Policy, cfg.middleware)
	if output.Structured() && !cfg.noOutputSchema {
		def.OutputSchema = output.SchemaJSON
	}
	return &tool{name: name, def: def, plan: plan, out: output, noOut: cfg.noOutputSchema, pol: pol, task: taskSpec{mode: taskModeOf(ann.Task), set: cfg.taskSet}, descSuffix: cfg.descSuffix,
		undescribedOK: cfg.noDescription || r.cfg.noDescription}, nil
}

// newReflectTool builds a tool from a function of any accepted shape.
func (r *Registry) newReflectTool(name string, fn any, opts []Option) (*tool, error) {
	f, err := mcpreflect.AnalyzeFunc(fn)
	if err != nil {
		return nil, &Error{Code: CodeInvalidDefinition, Tool: name, Err: err}
	}
	t, err := r.newTool(name, f.In, f.Out, opts)
	if err != nil {
		return nil, err
	}
	r.describe(t, fn)
	plan, depth := t.plan, t.pol.maxDepth
	t.invoke = func(ctx context.Context, call *Call) (*mcp.CallToolResult, error) {
		in := reflect.New(plan.Type)
		if err := plan.DecodeDepth(call.Arguments, in.UnsafePointer(), depth); err != nil {
			return argumentsResult(ctx, name, err)
		}
		out, err := f.Call(ctx, in)
		if err != nil {
			return callError(ctx, err)
		}
		return t.result(out)
	}
	return t, nil
}

// describe completes the tool's description: fn's doc comment (from
// generated data) when no option gave one, then the appended text. A tool
// left without any is logged as a warning, unless [NoDescription] says so.
func (r *Registry) describe(t *tool, fn any) {
	if t.def.Description == "" {
		t.def.Description = mcpreflect.FuncDoc(fn)
	}
	t.def.Description = joinDescription(t.def.Description, t.descSuffix)
	if t.def.Description == "" && !t.undescribedOK {
		r.cfg.logger.Warn("mcptool: tool has no description; models choose tools by their descriptions: "+
			"give it a doc comment (cmd/mcpgen), mcptool.Description, or mcptool.NoDescription to silence this",
			"tool", t.name)
	}
}

// result turns the function's value into a result.
func (t *tool) result(v any) (*mcp.CallToolResult, error) {
	var res *mcp.CallToolResult
	var err error
	if t.noOut {
		res, err = t.out.TextResult(v)
	} else {
		res, err = t.out.Result(v)
	}
	if err != nil {
		return nil, internalErr{err}
	}
	return res, nil
}

// internalErr marks an error the model must not see.
type internalErr struct{ err error }

func (e internalErr) Error() string { return e.err.Error() }
func (e internalErr) Unwrap() error { return e.err }

// argumentsResult turns a decode error into an isError result, or a protocol
// error for malformed JSON.
func argumentsResult(ctx context.Context, name string, err error) (*mcp.CallToolResult, error) {
	var se *mcpreflect.SyntaxError
	if errors.As(err, &se) {
		return nil, &Error{Code: CodeMalformedArguments, Tool: name, Err: err}
	}
	return refuse(ctx, "invalid_arguments", err.Error())
}

// callError turns an error returned by a tool function into its result: a
// *jsonrpc.Error stays a protocol error; an error meant for the model (see
// [UserError]) is an isError result with its text; anything else is an
// internal error, masked by run unless the registry exposes errors.
func callError(ctx context.Context, err error) (*mcp.CallToolResult, error) {
	if je, ok := protocolError(err); ok {
		return nil, je
	}
	if errors.Is(err, ErrInputRequired) {
		return nil, err
	}
	cs := stateFrom(ctx)
	if IsUserError(err) || (cs != nil && cs.reg.cfg.exposeErrors) {
		return refuse(ctx, "tool_error", err.Error())
	}
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return refuse(ctx, "cancelled", "the call was cancelled before the tool finished")
	}
	return nil, internalErr{err}
}

// ErrorResult returns a result with IsError set and msg as its text.
func ErrorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// run calls a tool through its handler chain, turning panics and internal
// errors into isError results that carry only a reference ID (the details go
// to the registry's logger), and writes the audit record.
func (r *Registry) run(ctx context.Context, cs *callState, call *Call) (res *mcp.CallToolResult, err error) {
	t := cs.tool
	var start time.Time
	if r.cfg.audit != nil {
		start = time.Now()
	}
	defer func() {
		if p := recover(); p != nil {
			res, err = r.internal(ctx, t.name, fmt.Errorf("panic: %v", p), debug.Stack()), nil
			cs.setOutcome("internal_error")
		}
		if r.cfg.audit != nil {
			r.auditCall(ctx, cs, call, start, res, err)
		}
	}()
	res, err = t.handler(ctx, call)
	var ie internalErr
	var pe panicErr
	switch {
	case errors.As(err, &pe):
		cs.setOutcome("internal_error")
		return r.internal(ctx, t.name, pe, pe.stack), nil
	case errors.As(err, &ie):
		cs.setOutcome("internal_error")
		return r.internal(ctx, t.name, ie.err, nil), nil
	case err != nil && errors.Is(err, ErrInputRequired):
		cs.setOutcome("input_required")
		if cs.pendingRequests() == nil {
			// Not from this call's Ask: a bug in the tool.
			return r.internal(ctx, t.name, err, nil), nil
		}
		return ErrorResult("waiting for input"), nil
	case err != nil:
		cs.setOutcome("protocol_error")
	case res != nil && res.IsError:
		cs.setOutcome("tool_error")
	default:
		cs.setOutcome("ok")
	}
	return res, err
}

func (r *Registry) internal(ctx context.Context, name string, err error, stack []byte) *mcp.CallToolResult {
	ref := newRef()
	attrs := []any{"tool", name, "ref", ref, "err", err}
	if stack != nil {
		attrs = append(attrs, "stack", string(stack))
	}
	r.cfg.logger.ErrorContext(ctx, "mcptool: internal error", attrs...)
	return ErrorResult("internal error (ref " + ref + ")")
}

func newRef() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// joinDescription appends suffix to desc with one space between them.
func joinDescription(desc, suffix string) string {
	switch {
	case suffix == "":
		return desc
	case desc == "":
		return strings.TrimSpace(suffix)
	case strings.HasPrefix(suffix, "\n"):
		return strings.TrimRight(desc, " ") + suffix // a paragraph of its own
	}
	return strings.TrimRight(desc, " ") + " " + strings.TrimLeft(suffix, " ")
}
