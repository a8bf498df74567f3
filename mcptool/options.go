package mcptool

import (
	"bytes"
	"context"
	"log/slog"
	"time"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool/cluster"
	"github.com/mcpgen/mcpgen/mcptool/view"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// Option configures one tool at registration.
type Option interface {
	applyTool(*toolConfig)
}

// RegistryOption configures a [Registry].
type RegistryOption interface {
	applyRegistry(*registryConfig)
}

// SharedOption is an option that works both on a registry (as the default
// for its tools) and on one tool.
type SharedOption interface {
	Option
	RegistryOption
}

type toolConfig struct {
	description    string
	descSuffix     string
	noDescription  bool
	ann            annotations.Tool // hints and policies the options give; they win over the tag
	keepDefs       *bool
	dialect        *bool
	noOutputSchema bool
	middleware     []Middleware
	taskSet        TaskSettings
	view           *view.View // the View option
}

type registryConfig struct {
	keepDefs      bool
	dialect       bool
	logger        *slog.Logger
	stateKey      []byte
	defaults      annotations.Policy // the policy options given to the registry
	middleware    []Middleware
	exposeErrors  bool
	noDescription bool
	audit         *slog.Logger
	auditArgs     bool
	cache         *mcpreflect.Cache
	limiter       cluster.Limiter
	spent         cluster.SpentStore
	tasks         TaskSettings
	types         []mcpreflect.TypeHandler
	listAll       bool                                                 // ListAllTools (policy.go)
	listTTL       time.Duration                                        // ListTTL (listcache.go)
	group         string                                               // Group: the default group (discovery.go)
	discoveryOn   bool                                                 // Discovery
	eager         []string                                             // Discovery: the tools always listed, by name
	embed         func(context.Context, []string) ([][]float32, error) // SearchEmbedder (semantic.go)
}

type toolOption func(*toolConfig)

func (f toolOption) applyTool(c *toolConfig) { f(c) }

type registryOption func(*registryConfig)

func (f registryOption) applyRegistry(c *registryConfig) { f(c) }

type sharedOption struct {
	toolOpt func(*toolConfig)
	reg     func(*registryConfig)
}

func (o sharedOption) applyTool(c *toolConfig)         { o.toolOpt(c) }
func (o sharedOption) applyRegistry(c *registryConfig) { o.reg(c) }

// Description sets the tool's description: what it does, when to use it, and
// what it returns. The default is empty; clients and models rely on it, so
// give every tool one.
func Description(text string) Option {
	return toolOption(func(c *toolConfig) { c.description = text })
}

// NoDescription says a tool has no description on purpose: registering a
// tool that ends up with none (no [Description], no doc comment from
// cmd/mcpgen, no [AppendDescription]) logs a warning through the registry's
// [Logger] otherwise, since models choose tools by their descriptions. On a
// registry it is the default for every tool.
func NoDescription() SharedOption {
	return sharedOption{
		toolOpt: func(c *toolConfig) { c.noDescription = true },
		reg:     func(c *registryConfig) { c.noDescription = true },
	}
}

// AppendDescription adds text to the end of the tool's description, whether
// that comes from [Description] or from the function's doc comment (see
// cmd/mcpgen): for the parts only known at run time. It is joined with a
// space, or starts a paragraph of its own when it starts with "\n\n".
func AppendDescription(text string) Option {
	return toolOption(func(c *toolConfig) { c.descSuffix += text })
}

// Title sets the tool's human-readable title, overriding the title= of the
// argument type's `mcp` tag.
func Title(title string) Option {
	return toolOption(func(c *toolConfig) { c.ann.Title = title })
}

// ReadOnly sets readOnlyHint, overriding the `mcp` tag. Default false.
func ReadOnly(v bool) Option {
	return toolOption(func(c *toolConfig) { c.ann.ReadOnly = &v })
}

// Destructive sets destructiveHint, overriding the `mcp` tag. Default true
// (meaningful only when the tool is not read-only).
func Destructive(v bool) Option {
	return toolOption(func(c *toolConfig) { c.ann.Destructive = &v })
}

// Idempotent sets idempotentHint, overriding the `mcp` tag. Default false
// (meaningful only when the tool is not read-only).
func Idempotent(v bool) Option {
	return toolOption(func(c *toolConfig) { c.ann.Idempotent = &v })
}

// OpenWorld sets openWorldHint, overriding the `mcp` tag. Default true.
func OpenWorld(v bool) Option {
	return toolOption(func(c *toolConfig) { c.ann.OpenWorld = &v })
}

// KeepDefs keeps every named struct type of the schemas in "$defs", referred
// to by "$ref", instead of inlining it. By default only recursive types use
// $defs. On a registry it is the default for every tool.
func KeepDefs() SharedOption {
	return sharedOption{
		toolOpt: func(c *toolConfig) { t := true; c.keepDefs = &t },
		reg:     func(c *registryConfig) { c.keepDefs = true },
	}
}

// DeclareDialect adds "$schema" (JSON Schema 2020-12) to the tool's schemas.
// By default it is left out: MCP clients assume 2020-12. On a registry it is
// the default for every tool.
func DeclareDialect() SharedOption {
	return sharedOption{
		toolOpt: func(c *toolConfig) { t := true; c.dialect = &t },
		reg:     func(c *registryConfig) { c.dialect = true },
	}
}

// NoOutputSchema leaves out the output schema and structuredContent, for tools
// whose results are better read as text. A result that is not content is
// then sent as its JSON in a text block.
func NoOutputSchema() Option {
	return toolOption(func(c *toolConfig) { c.noOutputSchema = true })
}

// PlanCache sets where the registry keeps the compiled plans (schemas and
// decoders) of its argument and result types. By default every registry
// shares [mcpreflect.DefaultCache], which keeps each type's plan for the
// life of the process: right for types declared in source. Types made at run
// time (reflect.StructOf, for tools defined by configuration) are better
// kept in a cache that goes with the registry:
//
//	reg := mcptool.NewRegistry(mcptool.PlanCache(&mcpreflect.Cache{}))
//
// A nil cache keeps nothing: every registration derives its plan anew.
func PlanCache(c *mcpreflect.Cache) RegistryOption {
	return registryOption(func(cfg *registryConfig) { cfg.cache = c })
}

// Logger sets where the registry's logs go: the internal errors and panics
// of its tools, with the reference ID the model sees, and its warnings.
// Default slog.Default(). The HTTP handler's logs go to
// [HTTPOptions.Logger].
func Logger(l *slog.Logger) RegistryOption {
	return registryOption(func(c *registryConfig) { c.logger = l })
}

// toolAnnotations publishes hints as MCP tool annotations, with every hint
// spelled out at its effective value so clients need not know the defaults.
// destructiveHint is left out on a read-only tool, where it means nothing.
func toolAnnotations(h annotations.Hints) *mcp.ToolAnnotations {
	e := h.Effective()
	a := &mcp.ToolAnnotations{
		Title:          h.Title,
		ReadOnlyHint:   e.ReadOnly,
		IdempotentHint: e.Idempotent,
		OpenWorldHint:  &e.OpenWorld,
	}
	if !e.ReadOnly {
		a.DestructiveHint = &e.Destructive
	}
	return a
}

// Task lets the tool run as a task (the MCP Tasks extension) when the client
// declares the extension on its request: the call is answered with a task
// handle that the client polls with tasks/get. Other clients get a normal
// call. The function does not change: [Progress] becomes the task's status
// message, [Log] writes to the registry's logger, tasks/cancel cancels ctx,
// and [Ask], [Elicit] and the confirm policy put the task in input_required
// until the client answers with tasks/update. The `mcp:"task"` tag does the
// same.
func Task(s ...TaskSettings) Option {
	return toolOption(func(c *toolConfig) { c.ann.Task, c.taskSet = annotations.TaskOptional, firstSettings(s) })
}

// TaskRequired is [Task] for tools that only run as tasks: a client that does
// not declare the extension gets the error -32021 (missing required client
// capability). The `mcp:"task=required"` tag does the same.
func TaskRequired(s ...TaskSettings) Option {
	return toolOption(func(c *toolConfig) { c.ann.Task, c.taskSet = annotations.TaskRequired, firstSettings(s) })
}

// Tasks sets the registry's task store and the defaults of its task tools.
// Given more than once, a later Tasks changes only the fields it sets.
func Tasks(s TaskSettings) RegistryOption {
	return registryOption(func(c *registryConfig) { c.tasks = s.over(c.tasks) })
}

// View gives the tool a view in hosts that support MCP Apps: [view.Default]
// (derived from the output schema, as the `mcp:"view"` tag does),
// [view.Template], [view.Page]; or marks it [view.AppOnly], called only by
// views. The view's visibility and origins win over the tag's.
func View(v *view.View) Option {
	return toolOption(func(c *toolConfig) {
		c.view = v
		if v != nil {
			c.ann.View = c.ann.View.Merge(v.Annotations())
		}
	})
}

// Group puts the tool in a group: the family search_tools lists and filters
// by, like the `mcp:"group=billing"` tag (which the option overrides). On a
// registry it is the default group of its tools; with [Method], the group of
// one method of [Registry.AddMethods]. A group is 1 to 128 characters of
// A-Z, a-z, 0-9, '_', '-', '.' and '/'.
func Group(name string) SharedOption {
	return sharedOption{
		toolOpt: func(c *toolConfig) { c.ann.Group = name },
		reg:     func(c *registryConfig) { c.group = name },
	}
}

// StateKey sets the 32-byte key that encrypts and authenticates the
// requestState of input-required results (AES-256-GCM). Servers behind a load
// balancer must share it. The default is a random key per registry. A key
// of another length makes every [Registry.Add] of the registry fail.
func StateKey(key []byte) RegistryOption {
	return registryOption(func(c *registryConfig) { c.stateKey = bytes.Clone(key) })
}

// policyOption sets a policy field: on a tool it overrides the tag, on a
// registry it is the default its tools' tags and options override.
type policyOption func(*annotations.Policy)

func (o policyOption) applyTool(c *toolConfig) { o(&c.ann.Policy) }

func (o policyOption) applyRegistry(c *registryConfig) { o(&c.defaults) }

type useOption []Middleware

func (o useOption) applyTool(c *toolConfig) { c.middleware = append(c.middleware, o...) }

func (o useOption) applyRegistry(c *registryConfig) {
	c.middleware = append(c.middleware, o...)
}

// Use adds middleware: on a registry it wraps every tool (outermost, in
// order), on a tool just that tool (inside the registry's).
func Use(mw ...Middleware) SharedOption { return useOption(mw) }
