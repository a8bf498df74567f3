package mcpreflect

import (
	"reflect"
	"testing"
)

type benchNote struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Score float64  `json:"score"`
	Tags  []string `json:"tags"`
}

type benchFlat struct {
	ID    string  `json:"id"`
	Title string  `json:"title"`
	Score float64 `json:"score"`
	Count int     `json:"count"`
}

type benchPage struct {
	Notes []benchNote         `json:"notes"`
	Attrs map[string][]string `json:"attrs"`
	Next  *string             `json:"next"`
}

// BenchmarkResult is Output.Result of a structured result: a struct with
// no slice or map (flat), a list of notes whose tags are all set (set), the
// same list with every note's tags nil (nil: each is sent as []), and a
// page whose nested slices and map are half nil (page).
func BenchmarkResult(b *testing.B) {
	notes := func(tags []string) []benchNote {
		ns := make([]benchNote, 20)
		for i := range ns {
			ns[i] = benchNote{ID: "n1", Title: "A title <of a note>", Score: 0.5, Tags: tags}
		}
		return ns
	}
	page := benchPage{Notes: append(notes([]string{"a"})[:10], notes(nil)[:10]...), Attrs: map[string][]string{"a": {"x"}, "b": nil}}
	for _, c := range []struct {
		name string
		v    any
	}{
		{"flat", benchFlat{ID: "n1", Title: "A title <of a note>", Score: 0.5, Count: 3}},
		{"set", notes([]string{"a", "b"})},
		{"nil", notes(nil)},
		{"page", page},
	} {
		out, err := OutputFor(reflect.TypeOf(c.v), Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := out.Result(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
