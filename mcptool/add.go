package mcptool

import (
	"context"
	"reflect"

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
