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

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
	name   string
	def    *mcp.Tool
	plan   *mcpreflect.Plan
	out    *mcpreflect.Output
	noOut  bool
	invoke func(ctx context.Context, call *Call) (*mcp.CallToolResult, error)
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
	plan, err := mcpreflect.PlanFor(in, ro)
	if err != nil {
		return nil, defErr(err)
	}
	output, err := mcpreflect.OutputFor(out, ro)
	if err != nil {
		return nil, defErr(err)
	}
	hints := plan.Hints.Merge(cfg.hints)
	if cfg.title != "" {
		hints.Title = cfg.title
	}
	if err := hints.Check(); err != nil {
		return nil, defErr(fmt.Errorf("annotation options: %w", err))
	}
	if len(plan.Policies) > 0 {
		return nil, defErr(&mcpreflect.DefinitionError{Type: plan.Type.String(), Field: "_", Tag: "mcp", Msg: fmt.Sprintf("key %q is not supported by this registry", plan.Policies[0].Key)})
	}
	def := &mcp.Tool{
		Name:        name,
		Title:       hints.Title,
		Description: cfg.description,
		InputSchema: plan.SchemaJSON,
		Annotations: hints.Annotations(),
	}
	if output.Structured() && !cfg.noOutputSchema {
		def.OutputSchema = output.SchemaJSON
	}
	return &tool{name: name, def: def, plan: plan, out: output, noOut: cfg.noOutputSchema}, nil
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
	plan := t.plan
	t.invoke = func(ctx context.Context, call *Call) (*mcp.CallToolResult, error) {
		in := reflect.New(plan.Type)
		if err := plan.Decode(call.Arguments, in.UnsafePointer()); err != nil {
			return argumentsResult(name, err)
		}
		out, err := f.Call(ctx, in)
		if err != nil {
			return callError(err)
		}
		return t.result(out)
	}
	return t, nil
}

// result turns the function's value into a result.
func (t *tool) result(v any) (*mcp.CallToolResult, error) {
	res, err := t.out.Result(v)
	if err != nil {
		return nil, internalErr{err}
	}
	if t.noOut && res.StructuredContent != nil {
		res.StructuredContent = nil
		if t.out.Wrapped {
			// {"result": v} exists only because structuredContent must be an
			// object; without it the text is v's own JSON.
			var w struct{ Result json.RawMessage }
			if raw, ok := res.Content[0].(*mcp.TextContent); ok && json.Unmarshal([]byte(raw.Text), &w) == nil && w.Result != nil {
				raw.Text = string(w.Result)
			}
		}
	}
	return res, nil
}

// internalErr marks an error the model must not see.
type internalErr struct{ err error }

func (e internalErr) Error() string { return e.err.Error() }
func (e internalErr) Unwrap() error { return e.err }

// argumentsResult turns a decode error into an isError result, or a protocol
// error for malformed JSON.
func argumentsResult(name string, err error) (*mcp.CallToolResult, error) {
	var se *mcpreflect.SyntaxError
	if errors.As(err, &se) {
		return nil, &Error{Code: CodeMalformedArguments, Tool: name, Err: err}
	}
	return ErrorResult(err.Error()), nil
}

// callError turns an error returned by a tool function into its result: an
// isError result with its text, or, for a *jsonrpc.Error, that protocol error.
func callError(err error) (*mcp.CallToolResult, error) {
	if je, ok := protocolError(err); ok {
		return nil, je
	}
	return ErrorResult(err.Error()), nil
}

// ErrorResult returns a result with IsError set and msg as its text.
func ErrorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// run calls a tool, turning panics and internal errors into isError results
// that carry only a reference ID; the details go to the registry's logger.
func (r *Registry) run(ctx context.Context, t *tool, call *Call) (res *mcp.CallToolResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = r.internal(ctx, t.name, fmt.Errorf("panic: %v", p), debug.Stack()), nil
		}
	}()
	res, err = t.invoke(ctx, call)
	var ie internalErr
	if errors.As(err, &ie) {
		return r.internal(ctx, t.name, ie.err, nil), nil
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
