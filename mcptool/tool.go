package mcptool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool/view"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// tool is one registered tool.
type tool struct {
	name string
	def  *mcp.Tool
	plan *mcpreflect.Plan
	out  *mcpreflect.Output
	pol  policy
	task taskSpec
	// descSuffix is added to the description once it is known.
	descSuffix string
	// undescribedOK silences the warning about a tool without a description.
	undescribedOK bool
	rateKey       string    // the key of its rate limits and concurrency cap
	view          *toolView // its view (MCP Apps); nil: none (views.go)
	group         string    // its group (Group, group=)
	eager         bool      // listed in discovery mode (eager, Discovery)
	// headers: its input schema mirrors arguments into Mcp-Param headers,
	// which go-sdk checks (mirrorsHeaders, once: its schema is fixed).
	headers bool
	// call runs the call path for this tool (see call.go); inner is the
	// same as the innermost [Handler] of its middleware chain, handler the
	// chain (nil when there is no middleware).
	call    func(ctx context.Context, cs *callState, args json.RawMessage) outcome
	inner   Handler
	handler Handler
}

// bind sets the call path of t for its bound function.
func bind[In any](t *tool, b bound[In]) {
	t.call, t.inner = b.call, b.handler
}

// newTool resolves the options and schemas shared by both registration paths.
func (r *Registry) newTool(name string, in, out reflect.Type, opts []Option) (*tool, error) {
	if err := r.optionError(name); err != nil {
		return nil, err
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	var cfg toolConfig
	for i, o := range opts {
		if o == nil {
			return nil, &Error{Code: CodeInvalidDefinition, Tool: name, Err: fmt.Errorf("option %d is nil", i+1)}
		}
		o.applyTool(&cfg)
	}
	ro := mcpreflect.Options{KeepDefs: r.cfg.keepDefs, DeclareDialect: r.cfg.dialect, Types: r.cfg.types}
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
	ro.NoOutputSchema = cfg.noOutputSchema
	output, err := r.cfg.cache.Output(out, ro)
	if err != nil {
		return nil, defErr(err)
	}
	// The registry's defaults, then the type's `mcp` tag, then the options.
	ann := annotations.Tool{Policy: r.cfg.defaults, Listing: annotations.Listing{Group: r.cfg.group}}.Merge(plan.Tool).Merge(cfg.ann)
	if err := ann.Check(); err != nil {
		return nil, defErr(fmt.Errorf("annotation options: %w", err))
	}
	if ann.Group != "" {
		if err := annotations.CheckGroup(ann.Group); err != nil {
			return nil, defErr(fmt.Errorf("Group: %w", err))
		}
	}
	def := &mcp.Tool{
		Name:        name,
		Title:       ann.Title,
		Description: cfg.description,
		InputSchema: plan.SchemaJSON,
		Annotations: toolAnnotations(ann.Hints),
	}
	pol := resolvePolicy(ann.Policy, cfg.middleware)
	if output.SchemaJSON != nil {
		def.OutputSchema = output.SchemaJSON
	}
	tv, err := newToolView(name, def, ann.View, cfg.view)
	if err != nil {
		return nil, defErr(fmt.Errorf("view: %w", err))
	}
	return &tool{name: name, def: def, plan: plan, out: output, pol: pol, task: taskSpec{mode: taskModeOf(ann.Task), set: cfg.taskSet}, descSuffix: cfg.descSuffix,
		undescribedOK: cfg.noDescription || r.cfg.noDescription, rateKey: "tool/" + name, view: tv,
		group: ann.Group, eager: ann.Eager || slices.Contains(r.cfg.eager, name), headers: mirrorsHeaders(def)}, nil
}

// newReflectTool builds a tool from a function of any accepted shape.
func (r *Registry) newReflectTool(name string, fn any, opts []Option) (*tool, error) {
	inT, outT, callFn, err := mcpreflect.AnalyzeFunc(fn)
	if err != nil {
		return nil, &Error{Code: CodeInvalidDefinition, Tool: name, Err: err}
	}
	t, err := r.newTool(name, inT, outT, opts)
	if err != nil {
		return nil, err
	}
	r.describe(t, fn)
	plan, depth := t.plan, t.pol.maxDepth
	bind(t, bound[reflect.Value]{
		decode: func(args []byte) (reflect.Value, error) {
			in := reflect.New(plan.Type)
			return in, plan.Decode(args, in.Interface(), depth)
		},
		fn: callFn,
	})
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

// mirrorsHeaders reports whether def's input schema has x-mcp-header
// properties; a tool's answer is its headers field, found once when the
// tool is built.
func mirrorsHeaders(def *mcp.Tool) bool {
	raw, ok := def.InputSchema.(json.RawMessage)
	return !ok || bytes.Contains(raw, []byte(`"x-mcp-header"`))
}

// toolView is the view of one tool.
type toolView struct {
	page    *view.View // nil: no page (an app-only tool)
	ann     annotations.View
	uri     string // the page's ui:// resource
	appOnly bool

	// The page as a resource, built once for the tool and added as is to
	// every server that serves it (syncView).
	res  *mcp.Resource
	read mcp.ResourceHandler

	once  sync.Once
	uiDef *mcp.Tool // the definition listed to clients that declare the extension
}
