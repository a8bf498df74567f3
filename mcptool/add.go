package mcptool

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// Add registers fn as the tool name, like [Registry.Add], with the function's
// shape checked at compile time and no reflection on the call path. In must
// be a struct type.
func Add[In, Out any](r *Registry, name string, fn func(context.Context, In) (Out, error), opts ...Option) error {
	if fn == nil {
		return r.Add(name, fn, opts...)
	}
	if reflect.TypeFor[Out]() == reflect.TypeFor[error]() {
		return &Error{Code: CodeInvalidDefinition, Tool: name, Err: &mcpreflect.DefinitionError{Type: reflect.TypeOf(fn).String(), Msg: "the first result must not be error: want func(ctx, In) (Out, error)"}}
	}
	t, err := newTyped(r, name, fn, opts)
	if err != nil {
		return err
	}
	return r.insert(t)
}

// newTyped builds the tool of Add[In, Out] without registering it.
func newTyped[In, Out any](r *Registry, name string, fn func(context.Context, In) (Out, error), opts []Option) (*tool, error) {
	inT := reflect.TypeFor[In]()
	t, err := r.newTool(name, inT, reflect.TypeFor[Out](), opts)
	if err != nil {
		return nil, err
	}
	r.describe(t, fn)
	plan, depth := t.plan, t.pol.maxDepth
	decode := func(args []byte) (In, error) {
		var in In
		return in, plan.Decode(args, &in, depth)
	}
	if inT.Kind() == reflect.Pointer {
		decode = func(args []byte) (In, error) {
			v := reflect.New(plan.Type)
			err := plan.Decode(args, v.Interface(), depth)
			// Convert: In may be a named pointer type (type P *Args).
			return v.Convert(inT).Interface().(In), err
		}
	}
	bind(t, bound[In]{decode: decode, fn: func(ctx context.Context, in In) (any, error) {
		out, err := fn(ctx, in)
		return out, err
	}})
	return t, nil
}

// Add registers fn as the tool name. fn has one of the shapes
//
//	func(ctx context.Context, in In) (Out, error)
//	func(ctx context.Context, in In) error
//	func(ctx context.Context) (Out, error)
//	func(ctx context.Context) error
//
// or any of these without ctx, where In is a struct (or a pointer to one).
// Add derives the tool's schemas and annotations, compiles its plan, and
// fails with an [*Error] wrapping a [*mcpreflect.DefinitionError] when fn, a type or a
// tag cannot become a tool. It is safe to call concurrently with [Registry.Call].
func (r *Registry) Add(name string, fn any, opts ...Option) error {
	t, err := r.newReflectTool(name, fn, opts)
	if err != nil {
		return err
	}
	return r.insert(t)
}

func (r *Registry) insert(t *tool) error {
	t.handler = r.chain(t)
	r.mu.Lock()
	if _, own := r.disc.proxy(t.name); own {
		r.mu.Unlock()
		return &Error{Code: CodeDuplicate, Tool: t.name, Err: fmt.Errorf("the name is discovery mode's own tool")}
	}
	if _, dup := r.tools.Load(t.name); dup {
		r.mu.Unlock()
		return &Error{Code: CodeDuplicate, Tool: t.name, Err: fmt.Errorf("a tool with this name is already registered")}
	}
	r.tools.Store(t.name, t)
	r.count.Add(1)
	r.snap.Store(nil)
	subs := r.snapshotSubs()
	r.mu.Unlock()
	for _, s := range subs {
		s([]*tool{t}, nil)
	}
	return nil
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

// AddMethods registers every exported method of svc as a tool named in
// snake_case (SearchPages becomes search_pages). A method must have one of
// the shapes [Registry.Add] accepts; one that does not is an error
// ([CodeInvalidDefinition]) listing each such method and why, unless it is
// excluded. The methods a gRPC or Connect server inherits from its embedded
// Unimplemented… type, and does not declare itself, are skipped: they answer
// only "unimplemented". Streaming methods (a gRPC stream or a connect-go
// stream parameter) are skipped with a note in the log. Methods with
// pointer and
// value receivers both work when svc is a pointer, and calls use the value
// svc points to as it is then (no copies). Nothing is registered unless
// every method can be.
func (r *Registry) AddMethods(svc any, opts ...MethodsOption) error {
	if err := r.optionError(""); err != nil {
		return err
	}
	var cfg methodsConfig
	for i, o := range opts {
		if o == nil {
			return &Error{Code: CodeInvalidDefinition, Err: fmt.Errorf("AddMethods: option %d is nil", i+1)}
		}
		o.applyMethods(&cfg)
	}
	v := reflect.ValueOf(svc)
	if !v.IsValid() {
		return &Error{Code: CodeInvalidDefinition, Err: errors.New("AddMethods(nil)")}
	}
	t := v.Type()
	if t.Kind() == reflect.Pointer && v.IsNil() {
		return &Error{Code: CodeInvalidDefinition, Err: fmt.Errorf("AddMethods: nil %s", t)}
	}
	if t.Kind() != reflect.Pointer && reflect.PointerTo(t).NumMethod() > t.NumMethod() {
		var ptrOnly []string
		for i := 0; i < reflect.PointerTo(t).NumMethod(); i++ {
			name := reflect.PointerTo(t).Method(i).Name
			if _, ok := t.MethodByName(name); !ok {
				ptrOnly = append(ptrOnly, name)
			}
		}
		return &Error{Code: CodeInvalidDefinition, Err: fmt.Errorf("AddMethods: pass a *%s: methods %s have pointer receivers", t, strings.Join(ptrOnly, ", "))}
	}
	known := map[string]bool{}
	for i := 0; i < t.NumMethod(); i++ {
		known[t.Method(i).Name] = true
	}
	var unknown []string
	for _, n := range slices.Concat(cfg.include, cfg.exclude, slices.Collect(maps.Keys(cfg.perMethod))) {
		if !known[n] {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return &Error{Code: CodeInvalidDefinition, Err: fmt.Errorf("AddMethods: %s has no exported method %s", t, strings.Join(slices.Compact(unknown), ", "))}
	}
	var tools []*tool
	bad := map[string]error{}
	for i := 0; i < t.NumMethod(); i++ {
		m := t.Method(i)
		if slices.Contains(cfg.exclude, m.Name) || (cfg.include != nil && !slices.Contains(cfg.include, m.Name)) ||
			unimplementedStub(t, m.Name) {
			continue
		}
		if streamingMethod(m.Type) {
			r.cfg.logger.Info("mcptool: AddMethods skips a streaming method: a tool call is one request and one result",
				"type", t.String(), "method", m.Name)
			continue
		}
		name := cfg.prefix + snakeCase(m.Name)
		mopts := cfg.perMethod[m.Name]
		if doc := mcpreflect.MethodDoc(t, m.Name); doc != "" {
			mopts = append([]Option{Description(doc)}, mopts...) // an explicit Description wins
		}
		tl, err := r.newReflectTool(name, v.Method(i).Interface(), mopts)
		if err != nil {
			var de *mcpreflect.DefinitionError
			if errors.As(err, &de) && de.Field == "" && de.Type == v.Method(i).Type().String() {
				// A shape error names the method's func type; the method's
				// name already says which.
				err = errors.New(de.Msg)
			}
			bad[m.Name] = err
			continue
		}
		tools = append(tools, tl)
	}
	if len(bad) > 0 {
		return &Error{Code: CodeInvalidDefinition, Err: &methodsError{typ: t.String(), methods: bad}}
	}
	for i, tl := range tools {
		if err := r.insert(tl); err != nil {
			for _, done := range tools[:i] {
				r.Remove(done.name)
			}
			return err
		}
	}
	return nil
}

// snakeCase turns a Go identifier into a tool name: SearchPages becomes
// search_pages, GetHTTPStatus get_http_status, V2Items v2_items, and a
// plural initialism stays one word: ListURLsByHost becomes
// list_urls_by_host.
func snakeCase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) {
			prevLower := i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]))
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			// "URLs", "IDs": an initialism's plural s, not a new word.
			plural := nextLower && rs[i+1] == 's' && (i+2 == len(rs) || unicode.IsUpper(rs[i+2]))
			if i > 0 && (prevLower || (nextLower && !plural && unicode.IsUpper(rs[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
