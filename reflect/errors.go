package mcpreflect

import (
	"errors"
	"fmt"
	"strings"
)

// DefinitionError reports a Go type, function or tag that mcpgen cannot turn
// into a tool. It is returned at registration, never at call time.
type DefinitionError struct {
	Type  string // the Go type, e.g. "main.SearchArgs"
	Field string // the Go field path within Type, e.g. "Filter.From"; "" for the type itself
	Tag   string // the offending tag as written, e.g. `validate:"omitempty"`; "" when no tag is at fault
	Msg   string // what is wrong
	Err   error  // the underlying error, if any
}

func (e *DefinitionError) Error() string {
	var b strings.Builder
	b.WriteString(e.Type)
	if e.Field != "" {
		b.WriteString(".")
		b.WriteString(e.Field)
	}
	if e.Tag != "" {
		b.WriteString(": tag ")
		b.WriteString(e.Tag)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

func (e *DefinitionError) Unwrap() error { return e.Err }

// Violation is one argument that broke one rule.
type Violation struct {
	Path string // JSON path of the argument, e.g. "filters[2].from"; "" for the arguments object itself
	Rule string // the schema keyword or validator rule, e.g. "maximum", "required", "startswith"
	Msg  string // a sentence a model can act on
}

func (v Violation) String() string {
	p := v.Path
	if p == "" {
		p = "(arguments)"
	}
	return p + ": " + v.Msg + " (" + v.Rule + ")"
}

// ArgumentsError lists every way a call's arguments broke the tool's input
// schema or its validation rules.
type ArgumentsError struct {
	Violations []Violation
}

func (e *ArgumentsError) Error() string {
	var b strings.Builder
	b.WriteString("invalid arguments:")
	for _, v := range e.Violations {
		b.WriteString("\n- ")
		b.WriteString(v.String())
	}
	return b.String()
}

// syntaxError reports arguments that are not well-formed JSON. It is a
// protocol error, not something a tool result reports.
type syntaxError struct {
	Offset int
	Msg    string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("malformed JSON arguments at offset %d: %s", e.Offset, e.Msg)
}

// errUnsupported is wrapped by definition errors for Go types or tag features
// mcpgen does not handle.
var errUnsupported = errors.New("unsupported")

// joinErrors reports every error of errs: nil, the one error itself, or
// errors.Join of them all.
func joinErrors(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}
