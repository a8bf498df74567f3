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

// fnShape is an analysed tool function.
type fnShape struct {
	fn     reflect.Value
	hasCtx bool         // the first parameter is a context.Context
	in     reflect.Type // the argument struct type; nil when the function takes none
	inPtr  bool         // the function takes *In
	out    reflect.Type // the result type; nil when the function returns only error
}

// funcShapes lists the function shapes mcpgen accepts, for error messages.
const funcShapes = "func(ctx, In) (Out, error), func(ctx, In) error, func(ctx) (Out, error), func(ctx) error, or any of these without ctx"

// AnalyzeFunc checks that fn has one of the accepted shapes (see the
// DefinitionError it returns otherwise) and returns its argument struct type
// (nil when it takes none), its result type (nil when it returns only
// error), and a function that calls it with a pointer to a decoded argument
// value.
func AnalyzeFunc(fn any) (in, out reflect.Type, call func(ctx context.Context, in reflect.Value) (any, error), err error) {
	f, err := analyzeFunc(fn)
	if err != nil {
		return nil, nil, nil, err
	}
	return f.in, f.out, f.call, nil
}

func analyzeFunc(fn any) (*fnShape, error) {
	v := reflect.ValueOf(fn)
	if !v.IsValid() || v.Kind() != reflect.Func {
		return nil, &DefinitionError{Type: fmt.Sprintf("%T", fn), Msg: "not a function: want " + funcShapes}
	}
	if v.IsNil() {
		return nil, &DefinitionError{Type: fmt.Sprintf("%T", fn), Msg: "nil function"}
	}
	t := v.Type()
	fail := func(msg string) error {
		return &DefinitionError{Type: t.String(), Msg: msg + ": want " + funcShapes}
	}
	f := &fnShape{fn: v}
	if t.IsVariadic() {
		return nil, fail("variadic functions are not tools")
	}
	in := 0
	if t.NumIn() > in && t.In(in) == ctxType {
		f.hasCtx = true
		in++
	}
	if t.NumIn() > in {
		at := t.In(in)
		if at == ctxType {
			return nil, fail("context.Context must come first")
		}
		if at.Kind() == reflect.Pointer {
			f.inPtr = true
			at = at.Elem()
		}
		if at.Kind() != reflect.Struct {
			return nil, fail(fmt.Sprintf("the argument type %s is not a struct", t.In(in)))
		}
		f.in = at
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
		f.out = t.Out(0)
	default:
		return nil, fail("wrong number of results")
	}
	return f, nil
}

// call invokes the function. in points at a value of f.in (ignored when f.in
// is nil).
func (f *fnShape) call(ctx context.Context, in reflect.Value) (any, error) {
	args := make([]reflect.Value, 0, 2)
	if f.hasCtx {
		args = append(args, reflect.ValueOf(&ctx).Elem())
	}
	if f.in != nil {
		if f.inPtr {
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
	if f.out == nil {
		return nil, err
	}
	return out[0].Interface(), err
}
