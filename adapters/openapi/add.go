package mcpopenapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// Options configures [Add]. The zero value takes every default.
type Options struct {
	// BaseURL is where requests go: the only origin they and the redirects
	// followed reach. Default: the description's first server, its
	// variables at their defaults.
	BaseURL string
	// Client sends the requests (its CheckRedirect is replaced by the
	// same-origin rule). An oauth2 client carries the server's own OAuth
	// 2.0 credentials: golang.org/x/oauth2/clientcredentials'
	// Config.Client(ctx). Default: a client of http.DefaultTransport.
	Client *http.Client
	// Authorize adds the server's own credentials to each request (an API
	// key, a bearer token). Never the MCP client's: the MCP authorization
	// specification forbids passing it through, and nothing of the MCP
	// request reaches the API but the checked arguments.
	Authorize func(req *http.Request) error

	// Timeout bounds each call ([mcptool.Timeout]; an operation's
	// x-mcp-timeout or options win). Default 30 s; negative: none.
	Timeout time.Duration
	// MaxResponseBytes bounds a response's body. Default 4 MiB; negative:
	// no bound.
	MaxResponseBytes int64
	// MaxConcurrent bounds the calls in flight to the API, over all its
	// tools; a call past it is refused. Default 16; negative: no cap.
	MaxConcurrent int

	// Prefix goes before every tool's name.
	Prefix string
	// Names gives operations (by operationId, else "METHOD /path") tool
	// names of their own, before Prefix.
	Names map[string]string
	// Exclude leaves operations out (by operationId, else "METHOD /path").
	Exclude []string
	// Operations gives operations tool options of their own (hints,
	// Confirm, RateLimit, MaxConcurrency, Timeout, Group, Scopes, ...),
	// applied after those of the description.
	Operations map[string][]mcptool.Option
	// Scopes makes each tool require the OAuth scopes its operation's
	// security requirement names (the first requirement with an OAuth 2.0
	// or OpenID Connect scheme) of the MCP caller's token ([mcptool.Scopes]).
	Scopes bool
	// Partial registers the operations that can be fronted exactly when
	// some cannot; the *Error is still returned, naming the rest. Without
	// it, nothing is registered then.
	Partial bool
}

// Error lists every operation [Add] could not front, each with its
// reasons.
type Error struct {
	Operations []*OperationError
	Registered int // the tools registered (with Options.Partial)
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mcpopenapi: %d operation(s) cannot be fronted:", len(e.Operations))
	for _, o := range e.Operations {
		b.WriteString("\n- " + o.Error())
	}
	return b.String()
}

// Add registers each operation of d as a tool of reg, which must have been
// made with [Types]: named by its operationId in snake_case, described by
// its summary and description, grouped by its first tag, its hints from
// its method (GET and HEAD read-only; DELETE destructive and idempotent;
// PUT idempotent), with an input schema holding its parameters by name and
// its JSON request body as "body", and an output schema from its 2xx JSON
// responses. Each call is checked against the input schema before any
// request is made, and sent only to the base URL.
//
// An operation that cannot be said exactly (a request body other than
// JSON, a parameter style not written here, ...) and a name that collides
// are reported together, as an *Error, and nothing is registered, unless
// Options.Partial.
func Add(reg *mcptool.Registry, d *Description, opts Options) error {
	rawBase := opts.BaseURL
	if rawBase == "" {
		var err error
		if rawBase, err = d.server(); err != nil {
			return fmt.Errorf("mcpopenapi.Add: %w", err)
		}
	}
	base, err := url.Parse(rawBase)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return fmt.Errorf("mcpopenapi.Add: base URL %q: want an absolute http or https URL", rawBase)
	}
	base.RawQuery, base.Fragment = "", ""
	up := newUpstream(base, opts)
	var refused []*OperationError
	type tool struct {
		name string
		op   *operation
		opts []mcptool.Option
	}
	var tools []tool
	names := map[string]string{}
	for _, o := range d.operations() {
		if contains(opts.Exclude, o.key) {
			continue
		}
		x, err := readExtensions(o.op.Extensions)
		if err != nil {
			refused = append(refused, &OperationError{Operation: o.key, Reasons: []string{err.Error()}})
			continue
		}
		if x.exclude {
			continue
		}
		if err := o.build(d, d.doc.Paths.Value(o.path)); err != nil {
			var oe *OperationError
			if errors.As(err, &oe) {
				refused = append(refused, oe)
			}
			continue
		}
		name := toolName(o)
		if x.name != "" {
			name = x.name
		}
		if n := opts.Names[o.key]; n != "" {
			name = n
		}
		name = opts.Prefix + name
		if !validName(name) {
			refused = append(refused, &OperationError{Operation: o.key, Reasons: []string{fmt.Sprintf("tool name %q: want 1 to 128 of A-Z a-z 0-9 _ - .", name)}})
			continue
		}
		if other, dup := names[name]; dup {
			refused = append(refused, &OperationError{Operation: o.key, Reasons: []string{fmt.Sprintf("tool name %q is also %s's: give one a name (Options.Names or x-mcp-name)", name, other)}})
			continue
		}
		names[name] = o.key
		topts := toolOptions(d, o, opts)
		topts = append(topts, x.opts...)
		topts = append(topts, opts.Operations[o.key]...)
		tools = append(tools, tool{name: name, op: o, opts: topts})
	}
	if len(refused) > 0 && !opts.Partial {
		return &Error{Operations: refused}
	}
	added := 0
	for _, t := range tools {
		fn := toolFunc(up, t.op)
		// The call needs neither the description nor the schemas (the
		// registry keeps those): let them go.
		t.op.op, t.op.input = nil, nil
		if err := reg.Add(t.name, fn, t.opts...); err != nil {
			// Without Types, mcpgen's reflection meets the stand-in types'
			// channel field and refuses them.
			var de *mcpreflect.DefinitionError
			if errors.As(err, &de) && strings.HasPrefix(de.Type, "mcpopenapi.") {
				return fmt.Errorf("mcpopenapi.Add: the registry was not made with mcpopenapi.Types(): %w", err)
			}
			refused = append(refused, &OperationError{Operation: t.op.key, Reasons: []string{err.Error()}})
			continue
		}
		added++
	}
	if len(refused) > 0 {
		return &Error{Operations: refused, Registered: added}
	}
	return nil
}

// toolOptions are the options the description gives an operation's tool.
func toolOptions(d *Description, o *operation, opts Options) []mcptool.Option {
	var out []mcptool.Option
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	if timeout > 0 {
		out = append(out, mcptool.Timeout(timeout))
	}
	if o.op.Summary != "" {
		out = append(out, mcptool.Title(o.op.Summary))
	}
	switch desc := o.op.Description; {
	case desc != "":
		out = append(out, mcptool.Description(desc))
	case o.op.Summary != "":
		out = append(out, mcptool.Description(o.op.Summary))
	default:
		out = append(out, mcptool.NoDescription())
	}
	if len(o.op.Tags) > 0 {
		out = append(out, mcptool.Group(o.op.Tags[0]))
	}
	switch o.method {
	case http.MethodGet, http.MethodHead:
		out = append(out, mcptool.ReadOnly(true))
	case http.MethodDelete:
		out = append(out, mcptool.Destructive(true), mcptool.Idempotent(true))
	case http.MethodPut:
		out = append(out, mcptool.Idempotent(true))
	}
	if opts.Scopes {
		if s := scopesOf(d, o); len(s) > 0 {
			out = append(out, mcptool.Scopes(s...))
		}
	}
	return out
}

// scopesOf are the scopes of the operation's first security requirement
// that names an OAuth 2.0 or OpenID Connect scheme.
func scopesOf(d *Description, o *operation) []string {
	reqs := o.op.Security
	if reqs == nil {
		reqs = &d.doc.Security
	}
	for _, req := range *reqs {
		var scopes []string
		oauth := false
		for scheme, s := range req {
			ref := d.doc.Components.SecuritySchemes[scheme]
			if ref == nil || ref.Value == nil {
				continue
			}
			if t := ref.Value.Type; t == "oauth2" || t == "openIdConnect" {
				oauth = true
				scopes = append(scopes, s...)
			}
		}
		if oauth {
			return scopes
		}
	}
	return nil
}

// toolFunc is the tool function of one operation: func(ctx, *In) (*Out,
// error), In and Out standing for its schemas, or (*mcp.CallToolResult,
// error) when it has no output schema.
func toolFunc(up *upstream, o *operation) any {
	in := schemaType(argumentsType, o.input)
	var out reflect.Type
	if o.output != nil {
		out = reflect.PointerTo(schemaType(bodyType, o.output))
	} else {
		out = reflect.TypeFor[*mcp.CallToolResult]()
	}
	ft := reflect.FuncOf([]reflect.Type{reflect.TypeFor[context.Context](), reflect.PointerTo(in)}, []reflect.Type{out, reflect.TypeFor[error]()}, false)
	errType := reflect.TypeFor[error]()
	structured := o.output != nil
	// The answers are checked against the output schema, compiled on the
	// first call (most of a large API's tools are never called).
	var (
		once   sync.Once
		answer *checker
		cerr   error
	)
	check := func(b []byte) error {
		once.Do(func() { answer, cerr = compile(o.output) })
		if cerr != nil {
			return cerr
		}
		inst, err := decodeJSON(b)
		if err != nil {
			return fmt.Errorf("a body that is not JSON: %w", err)
		}
		if vs := answer.check(inst); len(vs) > 0 {
			parts := make([]string, len(vs))
			for i, v := range vs {
				parts[i] = v.String()
			}
			return fmt.Errorf("an answer that does not match its description: %s", strings.Join(parts, "; "))
		}
		return nil
	}
	return reflect.MakeFunc(ft, func(args []reflect.Value) []reflect.Value {
		ctx := args[0].Interface().(context.Context)
		in := args[1].Elem().Field(0).Addr().Interface().(*arguments).args
		fail := func(err error) []reflect.Value {
			return []reflect.Value{reflect.Zero(out), reflect.ValueOf(&err).Elem().Convert(errType)}
		}
		r, err := up.do(ctx, o, in)
		if err != nil {
			return fail(err)
		}
		if !structured {
			return []reflect.Value{reflect.ValueOf(content(r)), reflect.Zero(errType)}
		}
		b := r.body
		if len(b) == 0 {
			b = []byte("null")
		}
		if o.wrapped {
			b = append(append([]byte(`{"result":`), b...), '}')
		}
		if err := check(b); err != nil {
			return fail(fmt.Errorf("%s: the API answered %d: %w", o.key, r.status, err))
		}
		v := reflect.New(out.Elem())
		v.Elem().Field(0).Addr().Interface().(*body).raw = b
		return []reflect.Value{v, reflect.Zero(errType)}
	}).Interface()
}

// toolName is the operation's name in snake_case: its operationId, else
// its method and path.
func toolName(o *operation) string {
	src := o.op.OperationID
	if src == "" {
		src = strings.ToLower(o.method) + "_" + o.path
	}
	var b strings.Builder
	rs := []rune(src)
	for i, r := range rs {
		switch {
		case r >= 'A' && r <= 'Z':
			if i > 0 && b.Len() > 0 && (isLowerDigit(rs[i-1]) || (i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z' && rs[i-1] >= 'A' && rs[i-1] <= 'Z')) {
				b.WriteByte('_')
			}
			b.WriteRune(r + 'a' - 'A')
		case isLowerDigit(r) || r == '.':
			b.WriteRune(r)
		default:
			if s := b.String(); s != "" && !strings.HasSuffix(s, "_") {
				b.WriteByte('_')
			}
		}
	}
	name := strings.Trim(b.String(), "_")
	if len(name) > 128 {
		name = name[:128]
	}
	return name
}

func isLowerDigit(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }

// validName follows the MCP tool name rule: 1 to 128 of [A-Za-z0-9_.-].
func validName(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if !(isLowerDigit(r) || r >= 'A' && r <= 'Z' || r == '_' || r == '.' || r == '-') {
			return false
		}
	}
	return true
}
