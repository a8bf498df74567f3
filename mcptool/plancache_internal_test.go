package mcptool

import (
	"reflect"
	"runtime"
	"strconv"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

var planCacheSeq int

// runtimeTool returns a tool function whose argument type is made at run
// time and never seen before.
func runtimeTool() any {
	planCacheSeq++
	args := reflect.StructOf([]reflect.StructField{{
		Name: "Q", Type: reflect.TypeFor[string](),
		Tag: reflect.StructTag(`json:"q` + strconv.Itoa(planCacheSeq) + `" validate:"required"`),
	}})
	ft := reflect.FuncOf([]reflect.Type{args}, []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[error]()}, false)
	return reflect.MakeFunc(ft, func([]reflect.Value) []reflect.Value {
		return []reflect.Value{reflect.ValueOf("ok"), reflect.Zero(reflect.TypeFor[error]())}
	}).Interface()
}

func planOf(t *testing.T, r *Registry, name string) *mcpreflect.Plan {
	t.Helper()
	tl, ok := r.lookup(name)
	require.True(t, ok)
	return tl.plan
}

func TestPlanCache(t *testing.T) {
	fn := runtimeTool()

	// The default: every registry shares the process-wide cache.
	a, b := NewRegistry(), NewRegistry()
	require.NoError(t, a.Add("t", fn))
	require.NoError(t, b.Add("t", fn))
	assert.Same(t, planOf(t, a, "t"), planOf(t, b, "t"))

	// An own cache: shared by the registries given it, by no one else.
	own := &mcpreflect.Cache{}
	c, d := NewRegistry(PlanCache(own)), NewRegistry(PlanCache(own))
	require.NoError(t, c.Add("t", fn))
	require.NoError(t, d.Add("t", fn))
	assert.Same(t, planOf(t, c, "t"), planOf(t, d, "t"))
	assert.NotSame(t, planOf(t, a, "t"), planOf(t, c, "t"))

	// No cache: every registration derives.
	e := NewRegistry(PlanCache(nil))
	require.NoError(t, e.Add("t", fn))
	require.NoError(t, e.Add("u", fn))
	assert.NotSame(t, planOf(t, e, "t"), planOf(t, e, "u"))
	assert.Equal(t, string(planOf(t, a, "t").SchemaJSON), string(planOf(t, e, "u").SchemaJSON))
	res, err := e.Call(t.Context(), "u", []byte(`{}`))
	require.NoError(t, err)
	assert.True(t, res.IsError, "an uncached plan still checks the arguments")
}

// The plans of a registry with its own cache are freed with it; the
// process-wide cache keeps them.
func TestPlanCacheFreedWithRegistry(t *testing.T) {
	own := NewRegistry(PlanCache(&mcpreflect.Cache{}))
	require.NoError(t, own.Add("t", runtimeTool()))
	ownPlan := weak.Make(planOf(t, own, "t"))

	shared := NewRegistry()
	require.NoError(t, shared.Add("t", runtimeTool()))
	sharedPlan := weak.Make(planOf(t, shared, "t"))

	own, shared = nil, nil
	_, _ = own, shared
	for range 5 {
		runtime.GC()
	}
	assert.Nil(t, ownPlan.Value(), "an own cache's plan outlived its registry")
	assert.NotNil(t, sharedPlan.Value(), "the process-wide cache keeps its plans")
}
