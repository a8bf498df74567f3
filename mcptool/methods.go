package mcptool

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// MethodsOption configures [Registry.AddMethods].
type MethodsOption interface {
	applyMethods(*methodsConfig)
}

type methodsConfig struct {
	prefix    string
	include   []string
	exclude   []string
	perMethod map[string][]Option
}

type methodsOption func(*methodsConfig)

func (f methodsOption) applyMethods(c *methodsConfig) { f(c) }

// Prefix puts prefix before every tool name: Prefix("notes_") registers
// SearchPages as notes_search_pages.
func Prefix(prefix string) MethodsOption {
	return methodsOption(func(c *methodsConfig) { c.prefix = prefix })
}

// Include registers only the named methods (Go names, e.g. "SearchPages").
func Include(methods ...string) MethodsOption {
	return methodsOption(func(c *methodsConfig) { c.include = append(c.include, methods...) })
}

// Exclude skips the named methods (Go names), whatever their signature.
func Exclude(methods ...string) MethodsOption {
	return methodsOption(func(c *methodsConfig) { c.exclude = append(c.exclude, methods...) })
}

// Method gives the tool made from the named method (its Go name) its own
// options: description, title, hints, ...
func Method(name string, opts ...Option) MethodsOption {
	return methodsOption(func(c *methodsConfig) {
		if c.perMethod == nil {
			c.perMethod = map[string][]Option{}
		}
		c.perMethod[name] = append(c.perMethod[name], opts...)
	})
}

// methodsError lists the methods [Registry.AddMethods] could not register,
// each with its reason.
type methodsError struct {
	typ     string
	methods map[string]error // by Go method name
}

func (e *methodsError) Error() string {
	names := make([]string, 0, len(e.methods))
	for n := range e.methods {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	fmt.Fprintf(&b, "%d method(s) of %s cannot become tools (fix them or Exclude them):", len(names), e.typ)
	for _, n := range names {
		fmt.Fprintf(&b, "\n- %s: %v", n, e.methods[n])
	}
	return b.String()
}

// Unwrap returns the errors of every method.
func (e *methodsError) Unwrap() []error {
	out := make([]error, 0, len(e.methods))
	for _, err := range e.methods {
		out = append(out, err)
	}
	return out
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
