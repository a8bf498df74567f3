package mcpreflect

import (
	"context"
	"fmt"
	"reflect"
)

var (
	ctxType = reflect.TypeFor[context.Context]()
	errType = reflect.TypeFor[error]()
)

// Func is an analysed tool function.
type Func struct {
	fn     reflect.Value
	HasCtx bool         // the first parameter is a context.Context
	In     reflect.Type // the argument struct type; nil when the function takes none
	InPtr  bool         // the function takes *In
	Out    reflect.Type // the result type; nil when the function returns only error
}

// Shapes lists the function shapes mcpgen accepts, for error messages.
const Shapes = "func(ctx, In) (Out, error), func(ctx, In) error, func(ctx) (Out, error), func(ctx) error, or any of these without ctx"

// AnalyzeFunc checks that fn has one of the accepted shapes.
func AnalyzeFunc(fn any) (*Func, error) {
	v := reflect.ValueOf(fn)
	if !v.IsValid() || v.Kind() != reflect.Func {
		return nil, &DefinitionError{Type: fmt.Sprintf("%T", fn), Msg: "not a function: want " + Shapes}
	}
	if v.IsNil() {
		return nil, &DefinitionError{Type: fmt.Sprintf("%T", fn), Msg: "nil function"}
	}
	t := v.Type()
	fail := func(msg string) error {
		return &DefinitionError{Type: t.String(), Msg: msg + ": want " + Shapes}
	}
	f := &Func{fn: v}
	if t.IsVariadic() {
		return nil, fail("variadic functions are not tools")
	}
	in := 0
	if t.NumIn() > in && t.In(in) == ctxType {
		f.HasCtx = true
		in++
	}
	if t.NumIn() > in {
		at := t.In(in)
		if at == ctxType {
			return nil, fail("context.Context must come first")
		}
		if at.Kind() == reflect.Pointer {
			f.InPtr = true
			at = at.Elem()
		}
		if at.Kind() != reflect.Struct {
			return nil, fail(fmt.Sprintf("the argument type %s is not a struct", t.In(in)))
		}
		f.In = at
		in++
	}
	if t.NumIn() > in {
		return nil, fail("too many parameters")
	}
	switch t.NumOut() {
	case 1:
		if t.Out(0) != errType {
			return nil, fail("the last result must be error")
		}
	case 2:
		if t.Out(1) != errType {
			return nil, fail("the last result must be error")
		}
		if t.Out(0) == errType {
			return nil, fail("the first result must not be error")
		}
		f.Out = t.Out(0)
	default:
		return nil, fail("wrong number of results")
	}
	return f, nil
}

// Call invokes the function. in points at a value of f.In (ignored when f.In
// is nil).
func (f *Func) Call(ctx context.Context, in reflect.Value) (any, error) {
	args := make([]reflect.Value, 0, 2)
	if f.HasCtx {
		args = append(args, reflect.ValueOf(&ctx).Elem())
	}
	if f.In != nil {
		if f.InPtr {
			args = append(args, in)
		} else {
			args = append(args, in.Elem())
		}
	}
	out := f.fn.Call(args)
	var err error
	if e := out[len(out)-1]; !e.IsNil() {
		err = e.Interface().(error)
	}
	if f.Out == nil {
		return nil, err
	}
	return out[0].Interface(), err
}
