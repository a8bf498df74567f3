package mcpreflect

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type cacheArgs struct {
	Q string `json:"q" validate:"required,min=2"`
}

type cacheOut struct {
	N int `json:"n"`
}

func TestCache(t *testing.T) {
	typ := reflect.TypeFor[cacheArgs]()
	out := reflect.TypeFor[cacheOut]()

	p1, err := PlanFor(typ, Options{})
	require.NoError(t, err)
	p2, err := DefaultCache().Plan(reflect.PointerTo(typ), Options{})
	require.NoError(t, err)
	assert.Same(t, p1, p2, "PlanFor is the default cache; T and *T share a plan")

	own := &Cache{}
	q1, err := own.Plan(typ, Options{})
	require.NoError(t, err)
	q2, err := own.Plan(typ, Options{})
	require.NoError(t, err)
	assert.Same(t, q1, q2, "an own cache keeps what it derived")
	assert.NotSame(t, p1, q1, "an own cache shares nothing with the default one")
	assert.Equal(t, string(p1.SchemaJSON), string(q1.SchemaJSON))

	k, err := own.Plan(typ, Options{KeepDefs: true, DeclareDialect: true})
	require.NoError(t, err)
	assert.NotSame(t, q1, k, "schema options are part of the key")
	assert.Contains(t, string(k.SchemaJSON), dialect)

	var none *Cache
	n1, err := none.Plan(typ, Options{})
	require.NoError(t, err)
	n2, err := none.Plan(typ, Options{})
	require.NoError(t, err)
	assert.NotSame(t, n1, n2, "a nil cache derives every time")
	assert.Equal(t, string(p1.SchemaJSON), string(n1.SchemaJSON))
	_, err = n1.DecodeValue([]byte(`{"q":"x"}`))
	assert.Error(t, err, "an uncached plan checks as the cached one does")

	withComments := Options{comments: func(reflect.Type, string) string { return "doc" }}
	c1, err := own.Plan(typ, withComments)
	require.NoError(t, err)
	c2, err := own.Plan(typ, withComments)
	require.NoError(t, err)
	assert.NotSame(t, c1, c2, "plans with caller comments are not cached")
	assert.Contains(t, string(c1.SchemaJSON), `"description":"doc"`)

	o1, err := own.Output(out, Options{})
	require.NoError(t, err)
	o2, err := own.Output(out, Options{})
	require.NoError(t, err)
	assert.Same(t, o1, o2)
	d1, err := OutputFor(out, Options{})
	require.NoError(t, err)
	assert.NotSame(t, o1, d1)
	assert.Equal(t, string(d1.SchemaJSON), string(o1.SchemaJSON))
	u1, err := none.Output(out, Options{})
	require.NoError(t, err)
	u2, err := none.Output(out, Options{})
	require.NoError(t, err)
	assert.NotSame(t, u1, u2)

	_, err = none.Plan(reflect.TypeFor[int](), Options{})
	var de *DefinitionError
	assert.ErrorAs(t, err, &de, "errors come through an uncached derivation too")
}
