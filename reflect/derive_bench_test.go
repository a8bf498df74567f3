package mcpreflect

import (
	"reflect"
	"testing"
)

type benchFilter struct {
	Author string `json:"author" validate:"required,min=1,max=64"`
	Year   int    `json:"year,omitempty" validate:"omitempty,min=1900,max=2100"`
}

// benchSearch has the shape of the bench module's registration types.
type benchSearch struct {
	Query  string       `json:"query" validate:"required,min=2,max=200"`
	Limit  int          `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
	Sort   string       `json:"sort,omitempty" validate:"omitempty,oneof=relevance date title"`
	Tags   []string     `json:"tags,omitempty" validate:"omitempty,max=10"`
	Filter *benchFilter `json:"filter,omitempty"`
	X0000  string       `json:"x0000,omitempty"`
}

// BenchmarkBuildPlan is the reflection path's work for one argument type,
// uncached: the schema walk, validate-tag mirroring, decoder compilation
// and schema marshalling.
func BenchmarkBuildPlan(b *testing.B) {
	for _, c := range []struct {
		name string
		typ  reflect.Type
	}{
		{"search", reflect.TypeFor[benchSearch]()},
		{"genArgs", reflect.TypeFor[genArgs]()},
	} {
		b.Run("type="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := buildPlan(c.typ, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
