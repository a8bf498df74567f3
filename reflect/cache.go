package mcpreflect

import (
	"reflect"
	"sync"
)

// Cache keeps compiled plans ([Plan]) and outputs ([Output]) by type and
// schema options, so that each is derived once. It is safe for concurrent
// use; the zero value is an empty cache.
//
// [DefaultCache] is the process-wide one. Entries are never evicted: that suits types declared in source, which
// live as long as the program. A Cache of one's own suits types made at
// run time (reflect.StructOf, for tools defined by configuration): its
// plans go when it goes. A nil *Cache caches nothing: every call derives.
type Cache struct {
	plans   sync.Map // planKey → *Plan
	outputs sync.Map // planKey → *Output
}

type planKey struct {
	t        reflect.Type
	keepDefs bool
	dialect  bool
	noOut    bool
}

var defaultCache Cache

// DefaultCache returns the process-wide cache, which mcptool's registries
// share unless given their own.
func DefaultCache() *Cache { return &defaultCache }

// Plan returns the plan for argument type t (a struct, or a pointer to one):
// from the handler among opts.Types that owns it, else from the cache, else from generated data (cmd/mcpgen), else derived by
// reflection over the type's tags, then cached.
func (c *Cache) Plan(t reflect.Type, opts Options) (*Plan, error) {
	if t == nil {
		t = emptyArgsType
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if h, s, err := handlerFor(opts.Types, t); err != nil || h != nil {
		if err != nil {
			return nil, err
		}
		return handlerPlan(h, t, s, opts) // the handler caches what it derives
	}
	if err := foreignType(t); err != nil {
		return nil, err
	}
	key := planKey{t, opts.KeepDefs, opts.DeclareDialect, false}
	cached := c != nil && opts.comments == nil
	if cached {
		if p, ok := c.plans.Load(key); ok {
			return p.(*Plan), nil
		}
	}
	p, err := generatedPlan(t, opts)
	if err != nil {
		return nil, err
	}
	if p == nil {
		if p, err = buildPlan(t, opts); err != nil {
			return nil, err
		}
	}
	if cached {
		actual, _ := c.plans.LoadOrStore(key, p)
		return actual.(*Plan), nil
	}
	return p, nil
}

// Output compiles result type t (nil for none): from the handler among
// opts.Types that owns it, else from the cache, else from
// generated data, else by reflection, then cached.
func (c *Cache) Output(t reflect.Type, opts Options) (*Output, error) {
	if t != nil {
		if h, s, err := handlerFor(opts.Types, t); err != nil || h != nil {
			if err != nil {
				return nil, err
			}
			return handlerOutput(h, t, s, opts)
		}
		if err := foreignType(t); err != nil {
			return nil, err
		}
	}
	key := planKey{t, opts.KeepDefs, opts.DeclareDialect, opts.NoOutputSchema}
	cached := c != nil && opts.comments == nil
	if cached {
		if o, ok := c.outputs.Load(key); ok {
			return o.(*Output), nil
		}
	}
	o, err := buildOutput(t, opts)
	if err != nil || !cached {
		return o, err
	}
	actual, _ := c.outputs.LoadOrStore(key, o)
	return actual.(*Output), nil
}
