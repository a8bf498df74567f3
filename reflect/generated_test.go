package mcpreflect

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type genFilter struct {
	Field string   `json:"field" validate:"required,oneof=title body"`
	Terms []string `json:"terms,omitempty" validate:"omitempty,max=5,dive,min=2"`
}

type genArgs struct {
	_       struct{}    `mcp:"title=Search,readOnly"`
	Query   string      `json:"query" validate:"required,min=2,startswith=q"`
	Limit   int         `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
	Filters []genFilter `json:"filters,omitempty"`
	Confirm string      `json:"confirm,omitempty" validate:"omitempty,eqfield=Query"`
	Tree    *genNode    `json:"tree,omitempty"`
}

type genNode struct {
	Name     string     `json:"name"`
	Children []*genNode `json:"children,omitempty"`
}

// generatedFor builds the generated data of t in process, as the
// generated file's literals would.
func generatedFor(t *testing.T, typ reflect.Type) GeneratedType {
	t.Helper()
	b := newBuilder(typ, Options{comments: generatedComments}, false)
	p, err := b.plan(typ)
	require.NoError(t, err)
	return GeneratedType{Type: typ, Fingerprint: fingerprint(typ), Generation: SchemaGeneration, InputJSON: string(p.SchemaJSON), Input: p.Schema, Structs: generatedStructs(b)}
}

func TestGeneratedPlan(t *testing.T) {
	typ := reflect.TypeFor[genArgs]()
	g := generatedFor(t, typ)
	RegisterGenerated(nil, g)
	t.Cleanup(func() { genTypes.Delete(typ) })

	gen, err := generatedPlan(typ, Options{})
	require.NoError(t, err)
	require.NotNil(t, gen)
	assert.True(t, gen.Generated)
	refl, err := buildPlan(typ, Options{})
	require.NoError(t, err)
	assert.Equal(t, string(refl.SchemaJSON), string(gen.SchemaJSON))
	assert.Equal(t, refl.Tool, gen.Tool)
	for _, in := range []string{
		`{"query":"qx"}`, `{"query":"x","limit":0}`, `{"query":"qq","confirm":"qz"}`,
		`{"query":"qq","filters":[{"field":"x","terms":["a"]},{}]}`,
		`{"query":"qq","tree":{"name":"a","children":[{"name":"b"},{"children":[]}]}}`,
	} {
		gv, gerr := gen.DecodeValue([]byte(in))
		rv, rerr := refl.DecodeValue([]byte(in))
		assert.Equal(t, rerr, gerr, in)
		assert.Equal(t, rv.Interface(), gv.Interface(), in)
	}

	// Another shape than the one generated: reflection, not the stale plan.
	stale := g
	stale.Fingerprint = "000000000000000000000000"
	RegisterGenerated(nil, stale)
	p, err := generatedPlan(typ, Options{})
	require.NoError(t, err)
	assert.Nil(t, p)

	// Generated data is for the default options only.
	RegisterGenerated(nil, g)
	p, err = generatedPlan(typ, Options{KeepDefs: true})
	require.NoError(t, err)
	assert.Nil(t, p)
}

func TestFingerprint(t *testing.T) {
	type a struct {
		X int `json:"x"`
	}
	type b struct {
		X int `json:"y"`
	}
	assert.NotEqual(t, fingerprint(reflect.TypeFor[a]()), fingerprint(reflect.TypeFor[b]()), "a tag change changes the fingerprint")
	assert.Equal(t, fingerprint(reflect.TypeFor[genArgs]()), fingerprint(reflect.TypeFor[genArgs]()))
}

// BenchmarkPlanDerivation compares registration's schema work: reflection
// over the tags against a generated plan.
func BenchmarkPlanDerivation(b *testing.B) {
	typ := reflect.TypeFor[genArgs]()
	bld := newBuilder(typ, Options{comments: generatedComments}, false)
	p, err := bld.plan(typ)
	if err != nil {
		b.Fatal(err)
	}
	RegisterGenerated(nil, GeneratedType{Type: typ, Fingerprint: fingerprint(typ), Generation: SchemaGeneration, InputJSON: string(p.SchemaJSON), Input: p.Schema, Structs: generatedStructs(bld)})
	defer genTypes.Delete(typ)
	b.Run("path=reflection", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := buildPlan(typ, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("path=generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p, err := generatedPlan(typ, Options{})
			if err != nil || p == nil {
				b.Fatal(err)
			}
		}
	})
}
