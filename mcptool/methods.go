package mcptool

import (
	"fmt"
	"slices"
	"strings"
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
