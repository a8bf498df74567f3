package mcpreflect

import "testing"

// The number checks on the hot path: plain integers and short decimals
// within and at their bounds, a float against its type's range, a
// multipleOf step. go test -bench DecodeNumbers -benchtime 200ms -count 5
type benchNumbers struct {
	Limit int     `json:"limit" jsonschema:"minimum=1,maximum=100"`
	Count int     `json:"count"`
	Big   int64   `json:"big"`
	Score float64 `json:"score"`
	Price float64 `json:"price" jsonschema:"multipleOf=0.01,minimum=0"`
	Ratio float32 `json:"ratio" jsonschema:"exclusiveMinimum=0,maximum=1"`
	Small uint8   `json:"small"`
}

func BenchmarkDecodeNumbers(b *testing.B) {
	p, err := PlanFor(tf[benchNumbers](), Options{})
	if err != nil {
		b.Fatal(err)
	}
	doc := []byte(`{"limit":100,"count":42,"big":9007199254740993,"score":3.14159,"price":19.99,"ratio":0.5,"small":255}`)
	var v benchNumbers
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.DecodeValue(doc); err != nil {
			b.Fatal(err)
		}
	}
	_ = v
}
